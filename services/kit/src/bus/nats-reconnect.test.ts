import { pino } from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Bus } from "./bus.ts";
import { createNatsBus } from "./nats.ts";
import { startTestNatsServer, type TestNatsServer } from "./test-nats-server.ts";
import { eventually } from "../testing/eventually.ts";

let server: TestNatsServer;
let bus: Bus;

beforeAll(async () => {
  server = await startTestNatsServer();
  bus = await createNatsBus({
    url: server.url,
    reconnectWaitMs: 100,
    deployment: "test",
    logger: pino({ level: "silent" }),
  });
});

afterAll(async () => {
  await bus?.close();
  await server?.dispose();
});

it("reports unhealthy while NATS is away, reconnects, and keeps durable messages", async () => {
  await bus.ensureStream("RECONNECT", ["rc.>"]);
  await bus.publishDurable("rc.e", new TextEncoder().encode("before"), { msgId: "before" });
  expect(await bus.healthy()).toBe(true);

  await server.stop();
  await eventually("unhealthy after server stop", async () => !(await bus.healthy()));
  await expect(bus.publishDurable("rc.e", new TextEncoder().encode("while away"), { msgId: "away" })).rejects.toThrow();

  await server.start();
  await eventually("healthy after server restart", () => bus.healthy());
  await bus.publishDurable("rc.e", new TextEncoder().encode("after"), { msgId: "after" });
  const got: string[] = [];
  const done = new Promise<void>((resolve) => {
    void bus.consume("RECONNECT", "r", async (m) => {
      got.push(new TextDecoder().decode(m.data));
      if (got.length === 2) resolve();
    });
  });
  await done;
  expect(got).toEqual(["before", "after"]);
});
