import { generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { decodeProtectedHeader, importSPKI, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  closedLoop,
  connectServerStream,
  loadAverage,
  percentile,
  percentiles,
  platformTokenSigner,
  restCall,
} from "./index.ts";

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

describe("platformTokenSigner", () => {
  it("signs hour-long tokens with the platform's key and published kid, as the user service does", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const asked: string[] = [];
    const sign = await platformTokenSigner(
      async (method, path) => (asked.push(`${method} ${path}`), { kid: "k-1" }),
      privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    );
    expect(asked).toEqual(["GET /api/user-service/auth/pub-key"]);
    const key = await importSPKI(publicKey.export({ type: "spki", format: "pem" }).toString(), "EdDSA");
    const guest = await sign({ typ: "guest" });
    expect(decodeProtectedHeader(guest)).toEqual({ alg: "EdDSA", kid: "k-1", typ: "JWT" });
    const { payload } = await jwtVerify(guest, key, { issuer: "turntable", audience: "turntable" });
    expect(payload).toMatchObject({ typ: "guest", role: "guest" });
    expect(payload.exp! - payload.iat!).toBe(3600);
    const admin = (await jwtVerify(await sign({ role: "admin", sub: "u-1" }), key)).payload;
    expect(admin).toMatchObject({ typ: "user", role: "admin", sub: "u-1" });
    expect(admin.sid).not.toBe(payload.sid);
  });
});

describe("connectServerStream", () => {
  let server: http2.Http2Server;
  let session: http2.ClientHttp2Session;
  const seen: { headers: http2.IncomingHttpHeaders; body: Buffer }[] = [];

  beforeAll(async () => {
    server = http2.createServer();
    server.on("stream", (stream, headers) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        seen.push({ headers, body: Buffer.concat(chunks) });
        if (headers[":path"] === "/t.v1.S/Refused") stream.respond({ ":status": 403 }, { endStream: true });
        else {
          stream.respond({ ":status": 200, "content-type": "application/connect+proto" });
          stream.write(Buffer.from([0, 0, 0, 0, 1, 7])); // one message, then held open
        }
      });
      stream.on("error", () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    session = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  afterAll(async () => {
    session.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("sends the request enveloped with the token, hands over the answers and cancels on abort", async () => {
    const abort = new AbortController();
    const refused: Error[] = [];
    const stream = connectServerStream(session, {
      path: "/t.v1.S/Watch",
      request: Uint8Array.from([8, 1]),
      token: "tok",
      signal: abort.signal,
      onRefused: (e) => refused.push(e),
    });
    const first = await new Promise<Buffer>((resolve) => stream.once("data", resolve));
    expect([...first]).toEqual([0, 0, 0, 0, 1, 7]);
    expect(seen.at(-1)!.headers).toMatchObject({
      ":method": "POST",
      "content-type": "application/connect+proto",
      "connect-protocol-version": "1",
      authorization: "Bearer tok",
    });
    expect([...seen.at(-1)!.body]).toEqual([0, 0, 0, 0, 2, 8, 1]);
    const closed = new Promise<void>((resolve) => stream.on("close", resolve));
    abort.abort();
    await closed;
    expect(stream.rstCode).toBe(http2.constants.NGHTTP2_CANCEL);
    expect(refused).toEqual([]);
  });

  it("reports an answer other than 200, naming the call", async () => {
    const refused = await new Promise<Error>((resolve) => {
      const stream = connectServerStream(session, {
        path: "/t.v1.S/Refused",
        request: new Uint8Array(),
        token: "tok",
        signal: new AbortController().signal,
        onRefused: resolve,
      });
      stream.resume();
    });
    expect(refused.message).toBe("/t.v1.S/Refused answered 403");
  });
});
