// The Connect passthrough answers a request the same whether the service runs in process (all-in-one) or is
// proxied over HTTP/2 (distributed): odd requests included, where the proxy used to fail with a 502.
import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { FixtureService } from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createConnectPassthrough } from "./connect-passthrough.ts";
import { createHeaderPolicy } from "./headers.ts";
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

describe("Connect passthrough sessions to a service", () => {
  it("issue 9 defect 8: closes an idle session itself, before the service's idle timeout would, and opens a new one", async () => {
    // Services close sessions idle for IDLE_TIMEOUT_MS; a call sent while their GOAWAY is on its way would be
    // refused (a 502), so the gateway must be the one that closes first. This service never closes one.
    const service = http2.createServer((_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end("{}"),
    );
    const sessions: http2.ServerHttp2Session[] = [];
    service.on("session", (s: http2.ServerHttp2Session) => sessions.push(s));
    await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => service.close(() => resolve())));
    const baseUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    const passthrough = createConnectPassthrough(
      [{ services: [FixtureService], connect: { baseUrl } }],
      createHeaderPolicy(),
      undefined,
      100,
    );
    onTestFinished(() => passthrough.close());
    const gateway = http.createServer((req, res) => {
      if (!passthrough.tryHandle(req, res, (req.url ?? "/").split("?")[0]!)) res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => gateway.close(() => resolve())));
    const url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    const call = () =>
      send(url, "POST", "/tt.fixture.v1.FixtureService/Echo", { "content-type": "application/json" }, "{}");

    expect((await call()).status).toBe(200);
    expect(sessions).toHaveLength(1);
    await new Promise<void>((resolve) => sessions[0]!.once("close", () => resolve()));
    expect((await call()).status).toBe(200);
    expect(sessions).toHaveLength(2);
  });
});
