import { Code } from "@connectrpc/connect";
import { pino } from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { BUS_UNAVAILABLE_MESSAGE, toConnectError } from "../errors.ts";
import { BusUnavailableError, type Bus } from "./bus.ts";
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

// Issue 28: the client drops what it sends while it reconnects, so a key-value request made then used to wait for its
// 5 s timeout however soon NATS was back (the stage's song timer with it).
it("key-value operations fail at once while NATS is away (503 to a caller), and work again when it is back", async () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  const kv = await bus.kv("reconnect_kv");
  const revision = await kv.put("stage", enc("one"));

  await server.stop();
  await eventually("unhealthy after server stop", async () => !(await bus.healthy()));
  const started = Date.now();
  const failures = await Promise.all([
    kv.get("stage").catch((e: unknown) => e),
    kv.put("stage", enc("two")).catch((e: unknown) => e),
    kv.create("other", enc("x")).catch((e: unknown) => e),
    kv.update("stage", enc("two"), revision).catch((e: unknown) => e),
    kv.delete("stage").catch((e: unknown) => e),
    kv.keys().catch((e: unknown) => e),
  ]);
  expect(Date.now() - started).toBeLessThan(1_000);
  for (const err of failures) expect(err).toBeInstanceOf(BusUnavailableError);
  const answer = toConnectError(failures[0]);
  expect([answer.code, answer.rawMessage]).toEqual([Code.Unavailable, BUS_UNAVAILABLE_MESSAGE]);

  await server.start();
  await eventually("healthy after server restart", () => bus.healthy());
  // Nothing sent while away was written; compare-and-set goes on from the revision read before.
  expect(new TextDecoder().decode((await kv.get("stage"))!.value)).toBe("one");
  expect(await kv.update("stage", enc("two"), revision)).toBeGreaterThan(revision);
});
