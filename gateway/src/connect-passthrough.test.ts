// The Connect passthrough answers a request the same whether the service runs in process (all-in-one) or is
// proxied over HTTP/2 (distributed): odd requests included, where the proxy used to fail with a 502.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixtureGateway, startFixtureServer, type GatewayUnderTest, type Running } from "./testing/servers.ts";

let inProcess: GatewayUnderTest;
let backend: Running;
let proxied: GatewayUnderTest;

beforeAll(async () => {
  inProcess = await startFixtureGateway();
  backend = await startFixtureServer();
  proxied = await startFixtureGateway({ connectBaseUrl: backend.h2url });
});

afterAll(async () => {
  await proxied?.close();
  await backend?.close();
  await inProcess?.close();
});

/** One raw HTTP/1.1 request, with exactly these headers and body. */
function send(base: string, method: string, path: string, headers: Record<string, string>, body: string) {
  const url = new URL(base);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("Connect passthrough, in process and proxied", () => {
  it.each([
    ["a GET with a body to a method with side effects", "GET", "/tt.fixture.v1.FixtureService/UpdateThing"],
    ["a GET with a body to a method without side effects", "GET", "/tt.fixture.v1.FixtureService/Echo"],
    ["a DELETE with a body", "DELETE", "/tt.fixture.v1.FixtureService/UpdateThing"],
    ["a POST", "POST", "/tt.fixture.v1.FixtureService/UpdateThing"],
  ])("issue 9: %s answers the same both ways, never 502", async (_, method, path) => {
    const headers = { "content-type": "application/json", "content-length": "2" };
    const local = await send(inProcess.url, method, path, headers, "{}");
    const remote = await send(proxied.url, method, path, headers, "{}");
    expect(remote.status).toBeLessThan(500);
    expect(remote).toEqual(local);
  });
});
