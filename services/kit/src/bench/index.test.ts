import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedLoop, loadAverage, percentile, percentiles, restCall } from "./index.ts";

describe("percentile", () => {
  it("takes the sample at ⌊q·n⌋ of the sorted samples, the last for q = 1, and leaves the input alone", () => {
    const xs = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(xs, 0)).toBe(1);
    expect(percentile(xs, 0.5)).toBe(6);
    expect(percentile(xs, 0.99)).toBe(10);
    expect(percentile(xs, 1)).toBe(10);
    expect(xs[0]).toBe(5);
    expect(percentiles(xs, 0.5, 0.9, 0.99)).toEqual([6, 10, 10]);
    expect(percentile(new Float64Array([0.5, 0.25]), 0.5)).toBe(0.5);
  });

  it("sorts numbers as numbers and is NaN for no samples", () => {
    expect(percentile([100, 9, 20], 0.5)).toBe(20);
    expect(percentile([], 0.99)).toBeNaN();
  });
});

describe("loadAverage", () => {
  it("is the three load averages with the given decimals", () => {
    expect(loadAverage()).toMatch(/^\d+\.\d{2} \d+\.\d{2} \d+\.\d{2}$/);
    expect(loadAverage(1)).toMatch(/^\d+\.\d \d+\.\d \d+\.\d$/);
  });
});

describe("restCall", () => {
  let server: Server;
  let url = "";
  const seen: { method?: string; url?: string; auth?: string; type?: string; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        seen.push({
          method: req.method,
          url: req.url,
          auth: req.headers.authorization,
          type: req.headers["content-type"],
          body,
        });
        if (req.url === "/api/empty") res.writeHead(204).end();
        else if (req.url === "/api/refused") res.writeHead(409, { "content-type": "application/json" }).end('{"m":1}');
        else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ echo: body }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("sends the token and a JSON body, and answers the parsed JSON", async () => {
    const call = restCall(url);
    expect(await call("POST", "/things", "tok", { a: 1 })).toEqual({ echo: '{"a":1}' });
    expect(seen.at(-1)).toMatchObject({
      method: "POST",
      url: "/api/things",
      auth: "Bearer tok",
      type: "application/json",
    });
    expect(await call("GET", "/things")).toEqual({ echo: "" });
    expect(seen.at(-1)).toMatchObject({ method: "GET", auth: undefined, type: undefined });
  });

  it("answers {} for an empty answer and throws, naming the call and the answer, unless 2xx", async () => {
    const call = restCall(url);
    expect(await call("DELETE", "/empty", "tok")).toEqual({});
    await expect(call("POST", "/refused", undefined, {})).rejects.toThrow('POST /refused answered 409: {"m":1}');
  });
});

describe("closedLoop", () => {
  it("makes the warm-up calls, then exactly `requests` calls spread over the callers", async () => {
    const calls: [number, number][] = [];
    const r = await closedLoop({ requests: 50, concurrency: 4, warmup: 3 }, async (caller, i) => {
      calls.push([caller, i]);
      await new Promise((resolve) => setImmediate(resolve));
    });
    expect(calls.slice(0, 3)).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
    const measured = calls.slice(3);
    expect(measured.map(([, i]) => i).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(new Set(measured.map(([caller]) => caller))).toEqual(new Set([0, 1, 2, 3]));
    expect(r.samples).toHaveLength(50);
    expect(r.p99).toBe(percentile(r.samples, 0.99));
    expect(r.rps).toBeGreaterThan(0);
  });
});
