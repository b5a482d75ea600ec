// issue 9 defect 9, the API half: every answer of the gateway carries nosniff and no-store (and HSTS when the
// request came over TLS), whatever produced it — a REST answer, a REST error, a stream, /openapi.json or a
// Connect passthrough answer, in process or proxied.
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiSecurityHeaders, HSTS_VALUE, strictTransportSecurity } from "./security-headers.ts";
import { startFixtureGateway, startFixtureServer, type GatewayUnderTest, type Running } from "./testing/servers.ts";

let gw: GatewayUnderTest;
let proxied: GatewayUnderTest;
let backend: Running;

beforeAll(async () => {
  gw = await startFixtureGateway({
    cors: { origins: ["https://app.example"] },
    staticHandler: (req, res) => {
      if (req.url !== "/index.html") return false;
      (res as ServerResponse).writeHead(200, { "content-type": "text/html", "cache-control": "no-cache" });
      res.end("<html></html>");
      return true;
    },
  });
  backend = await startFixtureServer();
  proxied = await startFixtureGateway({ connectBaseUrl: backend.h2url });
});

afterAll(async () => {
  await gw?.close();
  await proxied?.close();
  await backend?.close();
});

const connectJson = { method: "POST", headers: { "content-type": "application/json" }, body: '{"id":"g1"}' };

describe("issue 9 defect 9: API answers carry nosniff and no-store", () => {
  it.each([
    ["a REST answer", "/api/fixture", {}, 200],
    ["a REST error (unknown path)", "/api/nothing-here", {}, 404],
    ["a REST error (wrong method)", "/api/fixture", { method: "DELETE" }, 405],
    ["a server stream", "/api/fixture/things:stream?count=1", {}, 200],
    ["a CORS answer", "/api/fixture", { headers: { origin: "https://app.example" } }, 200],
    ["/openapi.json", "/openapi.json", {}, 200],
    ["a Connect passthrough answer", "/tt.fixture.v1.FixtureService/GetThing", connectJson, 200],
  ] as const)("%s", async (_what, path, init, status) => {
    const res = await fetch(gw.url + path, init as RequestInit);
    await res.arrayBuffer();
    expect(res.status).toBe(status);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("strict-transport-security")).toBeNull();
  });

  it("a Connect answer proxied to another process carries them too", async () => {
    const res = await fetch(`${proxied.url}/tt.fixture.v1.FixtureService/GetThing`, connectJson);
    expect(await res.json()).toMatchObject({ thing: { id: "g1" } });
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("leaves what the static handler serves alone", async () => {
    const res = await fetch(`${gw.url}/index.html`);
    expect(await res.text()).toBe("<html></html>");
    expect(res.headers.get("cache-control")).toBe("no-cache");
  });

  it("sends HSTS only when the request came over TLS (a proxy's x-forwarded-proto: https)", async () => {
    const tls = await fetch(`${gw.url}/api/fixture`, { headers: { "x-forwarded-proto": "https" } });
    expect(tls.headers.get("strict-transport-security")).toBe("max-age=31536000");
    const plain = await fetch(`${gw.url}/api/fixture`, { headers: { "x-forwarded-proto": "http" } });
    expect(plain.headers.get("strict-transport-security")).toBeNull();
    expect(strictTransportSecurity({ headers: {}, socket: { encrypted: true } })).toBe(HSTS_VALUE);
    expect(strictTransportSecurity({ headers: { "x-forwarded-proto": "HTTPS, http" } })).toBe(HSTS_VALUE);
    expect(apiSecurityHeaders({ headers: {} })).toEqual({
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
    });
  });
});
