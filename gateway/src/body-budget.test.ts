// Issue 23 finding 6: the gateway bounds the request-body bytes it holds at once, across every call. A body that
// does not fit the budget is refused with 503 and retry-after, declared or found part-way; what the gateway holds
// is read from its gauge (bodyBytesInFlight), not guessed from the process's memory.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, startFixtureGateway, type GatewayUnderTest, type Running } from "./testing/servers.ts";

const KiB = 1024;
const BUDGET = 256 * KiB;
let gw: GatewayUnderTest;
// The gateway behind a handler that tells the test once the gateway has taken a request in.
let front: Running;
const taken: Array<() => void> = [];

beforeAll(async () => {
  gw = await startFixtureGateway({
    bodyLimitBytes: 1024 * KiB,
    multipartBodyLimitBytes: 1024 * KiB,
    maxBodyBytesInFlight: BUDGET,
  });
  front = await listen((req, res) => {
    gw.gateway.handler(req, res);
    taken.shift()?.();
  });
});
afterAll(async () => {
  await front.close();
  await gw.close();
});

const BOUNDARY = "budgetBOUNDARY";
const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
const multipart = (size: number) =>
  Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="f.bin"\r\n\r\n`),
    Buffer.alloc(size, 0x61),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: string;
}

function answerOf(req: http.ClientRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    req.once("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.once("end", () =>
        resolve({
          status: res.statusCode!,
          retryAfter: res.headers["retry-after"] as string | undefined,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    req.once("error", reject);
  });
}

describe("issue 23 finding 6: request-body bytes in flight are bounded", () => {
  it("holds a declared body's bytes, refuses what does not fit with 503 + retry-after, and gives them back", async () => {
    expect(gw.gateway.bodyBytesInFlight()).toBe(0);
    // A: declares 200 KiB and sends half of it, then waits.
    const bodyA = multipart(200 * KiB);
    const entered = new Promise<void>((resolve) => taken.push(resolve));
    const a = http.request(`${front.url}/api/fixture/uploads`, {
      method: "POST",
      headers: { "content-type": TYPE, "content-length": String(bodyA.length) },
    });
    const answerA = answerOf(a);
    a.write(bodyA.subarray(0, 100 * KiB));
    await entered;
    expect(gw.gateway.bodyBytesInFlight()).toBe(bodyA.length);

    // B declares 100 KiB more than the budget has left: refused before a byte is read.
    const bodyB = multipart(100 * KiB);
    const b = await fetch(`${gw.url}/api/fixture/uploads`, {
      method: "POST",
      headers: { "content-type": TYPE },
      body: new Uint8Array(bodyB),
    });
    expect(b.status).toBe(503);
    expect(b.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await b.json()).toMatchObject({ statusCode: 503, message: expect.stringMatching(/retry later/) });

    // C sends 100 KiB without declaring a length: refused when its bytes no longer fit.
    const c = http.request(`${gw.url}/api/fixture/uploads`, { method: "POST", headers: { "content-type": TYPE } });
    const answerC = answerOf(c);
    c.end(multipart(100 * KiB));
    const refusedC = await answerC;
    expect(refusedC.status).toBe(503);
    expect(refusedC.retryAfter).toMatch(/^\d+$/);
    // Neither refusal took anything: A still holds exactly its declared length.
    expect(gw.gateway.bodyBytesInFlight()).toBe(bodyA.length);

    a.end(bodyA.subarray(100 * KiB));
    const doneA = await answerA;
    expect(doneA.status).toBe(200);
    expect(gw.gateway.bodyBytesInFlight()).toBe(0);

    // With the budget free again, the same body as B goes through.
    const again = await fetch(`${gw.url}/api/fixture/uploads`, {
      method: "POST",
      headers: { "content-type": TYPE },
      body: new Uint8Array(bodyB),
    });
    expect(again.status).toBe(200);
    expect(gw.gateway.bodyBytesInFlight()).toBe(0);
  });
});
