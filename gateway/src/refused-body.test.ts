// Issue 23 finding 9: a 413 must be readable by the clients that keep sending while it is written. The gateway
// answers at once, then reads and drops the rest of the body up to a bound before it closes, so Node's fetch
// (undici) and a plain socket read the 413 and its JSON message instead of EPIPE/ECONNRESET.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixtureGateway, type GatewayUnderTest } from "./testing/servers.ts";

const MiB = 1024 * 1024;
const SIZE = 5 * MiB;
let gw: GatewayUnderTest;

beforeAll(async () => {
  gw = await startFixtureGateway({ bodyLimitBytes: MiB, multipartBodyLimitBytes: MiB });
});
afterAll(async () => {
  await gw.close();
});

/** Sends the whole request on a raw socket and reads what comes back until the server closes. */
function rawExchange(url: string, head: string, body: Buffer): Promise<{ text: string; writeError?: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let writeError: string | undefined;
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", (e: NodeJS.ErrnoException) => {
      writeError = e.code ?? e.message;
      if (chunks.length === 0) reject(e);
    });
    socket.on("close", () => resolve({ text: Buffer.concat(chunks).toString("latin1"), writeError }));
    socket.write(head);
    socket.end(body);
  });
}

const multipart = (size: number) => {
  const boundary = "xyzBOUNDARY";
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="f.bin"\r\n\r\n`),
    Buffer.alloc(size, 0x61),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
};

describe("issue 23 finding 9: a 413 is read by clients still sending", () => {
  const json = Buffer.from(JSON.stringify({ tenant: "x".repeat(SIZE) }));
  const form = multipart(SIZE);

  it.each([
    ["JSON", "PUT", "/api/fixture/echo", "application/json", json],
    ["multipart", "POST", "/api/fixture/uploads", form.type, form.body],
  ])("%s body of 5 MiB over fetch: 413 with its JSON message", async (_what, method, path, type, body) => {
    const res = await fetch(gw.url + path, { method, headers: { "content-type": type }, body: new Uint8Array(body) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ statusCode: 413, error: "Payload Too Large" });
  });

  it.each([
    ["JSON, declared length", "PUT", "/api/fixture/echo", "application/json", json, true],
    ["JSON, chunked", "PUT", "/api/fixture/echo", "application/json", json, false],
    ["multipart, declared length", "POST", "/api/fixture/uploads", form.type, form.body, true],
  ])("%s over a raw socket: 413 with its JSON message", async (_what, method, path, type, body, declared) => {
    const framing = declared ? `content-length: ${body.length}` : "transfer-encoding: chunked";
    const payload = declared
      ? body
      : Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from("\r\n0\r\n\r\n")]);
    const head = `${method} ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: ${type}\r\n${framing}\r\n\r\n`;
    const { text, writeError } = await rawExchange(gw.url, head, payload);
    expect(writeError).toBeUndefined();
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    const headEnd = text.indexOf("\r\n\r\n") + 4;
    const length = Number(/\r\ncontent-length: (\d+)/i.exec(text.slice(0, headEnd))?.[1]);
    const answer = JSON.parse(text.slice(headEnd, headEnd + length)) as Record<string, unknown>;
    expect(answer).toMatchObject({ statusCode: 413, error: "Payload Too Large" });
  });
});
