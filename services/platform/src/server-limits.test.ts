// The all-in-one process serves /metrics on its own loopback port, never on the public one, and reads the
// server's limits against slow clients from its environment (issue 9 defects 8 and 10). The kit's server
// tests cover each limit; here the configuration reaches the platform's server.
import { createTestDatabase, rawConnection, TEST_DATABASE_POOL_MAX, type TestDatabase } from "@tt/kit/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startAllInOne, type AllInOne } from "./all-in-one.ts";

let db: TestDatabase;
let platform: AllInOne;

beforeAll(async () => {
  db = await createTestDatabase(inject("databaseUrl"));
  platform = await startAllInOne({
    port: 0,
    // Every interface for the public port: the metrics port must stay on loopback all the same.
    host: "0.0.0.0",
    databaseUrl: db.url,
    natsUrl: inject("natsUrl"),
    env: {
      LOG_LEVEL: "silent",
      DATABASE_POOL_MAX: TEST_DATABASE_POOL_MAX,
      HEADERS_TIMEOUT_MS: "300",
      MAX_CONNECTIONS_PER_ADDRESS: "4",
    },
  });
});

afterAll(async () => {
  await platform?.close();
  await db?.drop();
});

describe("all-in-one server", () => {
  it("issue 9 defect 10: serves /metrics on a loopback port of its own and answers 404 for it on the public port", async () => {
    expect(platform.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(platform.metricsUrl).not.toBe(platform.url);
    // One call, so the RPC metrics have something to show.
    expect((await fetch(`${platform.url}/api/user-service`)).status).toBe(200);
    const metrics = await fetch(`${platform.metricsUrl}/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toMatch(/^# HELP /m);
    expect(text).toMatch(/^rpc_server_requests_total\{.*method="Hello".*\} \d+/m);
    const onPublic = await fetch(`${platform.url}/metrics`);
    expect(onPublic.status).toBe(404);
    expect(await onPublic.text()).not.toContain("# HELP");
    expect((await fetch(`${platform.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${platform.url}/readyz`)).status).toBe(200);
  });

  it("issue 9 defect 8: drops half-sent headers after HEADERS_TIMEOUT_MS and caps connections per address", async () => {
    const slow = await rawConnection(platform.url);
    slow.socket.write("POST /api/user-service/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: appl");
    expect((await slow.closed).data).toContain("408");

    // From an address of its own (all of 127/8 is loopback on Linux): this test's fetches hold none there.
    const held = await Promise.all(Array.from({ length: 4 }, () => rawConnection(platform.url, "127.0.0.5")));
    const extra = await rawConnection(platform.url, "127.0.0.5");
    const { data, error } = await extra.closed;
    expect({ data, error }).toEqual({ data: "", error: "ECONNRESET" });
    const answered = new Promise<string>((resolve) => held[3]!.socket.once("data", (d: string) => resolve(d)));
    held[3]!.socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(await answered).toMatch(/^HTTP\/1\.1 200/);
    for (const { socket } of held) socket.destroy();
  });
});
