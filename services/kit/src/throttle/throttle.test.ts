import { Code, ConnectError } from "@connectrpc/connect";
import type { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { initOrm, migrateUp } from "../db/orm.ts";
import { createTestDatabase, type TestDatabase } from "../testing/index.ts";
import { enforceThrottles, hit, maybePrune, refundThrottles } from "./throttle.ts";
import { throttleMigration } from "./migration.ts";
import { ThrottleWindow, ThrottleWindowSchema } from "./throttle-window.entity.ts";

let db: TestDatabase;
let orm: MikroORM;
let other: MikroORM;

beforeAll(async () => {
  db = await createTestDatabase(inject("databaseUrl"));
  const open = async (schema: string) => {
    const opened = await initOrm({
      url: db.url,
      schema,
      entities: [ThrottleWindowSchema],
      migrations: [throttleMigration(schema)],
    });
    await migrateUp(opened);
    return opened;
  };
  orm = await open("throttled");
  other = await open("elsewhere");
});

afterAll(async () => {
  await orm?.close(true);
  await other?.close(true);
  await db?.drop();
});

describe("throttle", () => {
  it("admits exactly the limit when many replicas count the same key at once", async () => {
    const rule = { action: "test", limit: 10, windowSeconds: 60 };
    // Separate forks stand for separate replicas: each call is its own statement on the shared table.
    const results = await Promise.all(Array.from({ length: 25 }, () => hit(orm.em.fork(), "test:race", rule)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect(results.every((r) => r.retryAfterSeconds > 0 && r.retryAfterSeconds <= 60)).toBe(true);
  });

  it("starts a new window once the old one is over", async () => {
    const rule = { action: "test", limit: 1, windowSeconds: 60 };
    const em = orm.em.fork();
    expect((await hit(em, "test:window", rule)).allowed).toBe(true);
    expect((await hit(em, "test:window", rule)).allowed).toBe(false);
    await em.nativeUpdate(ThrottleWindow, { key: "test:window" }, { windowStart: new Date(Date.now() - 61_000) });
    expect((await hit(em, "test:window", rule)).allowed).toBe(true);
    expect((await em.findOneOrFail(ThrottleWindow, { key: "test:window" }, { refresh: true })).hits).toBe(1);
  });

  it("refuses with ResourceExhausted and retry-after, counting in each service's own schema", async () => {
    const checks = [{ rule: { action: "chat", limit: 2, windowSeconds: 30 }, subject: "user:ann" }];
    await enforceThrottles(orm.em.fork(), checks);
    await enforceThrottles(orm.em.fork(), checks);
    const refused = await enforceThrottles(orm.em.fork(), checks, "slow down").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConnectError);
    expect((refused as ConnectError).code).toBe(Code.ResourceExhausted);
    expect((refused as ConnectError).rawMessage).toBe("slow down");
    const retryAfter = Number((refused as ConnectError).metadata.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(30);
    // Another service's table has its own count.
    await expect(enforceThrottles(other.em.fork(), checks)).resolves.toBeUndefined();
    expect(await other.em.fork().count(ThrottleWindow, {})).toBe(1);
  });

  it("takes back a hit of the current window only, never below zero", async () => {
    const em = orm.em.fork();
    const rule = { action: "refund", limit: 5, windowSeconds: 60 };
    const checks = [{ rule, subject: "user:bo" }];
    await enforceThrottles(em, checks);
    await enforceThrottles(em, checks);
    await refundThrottles(em, checks);
    const row = () => em.findOneOrFail(ThrottleWindow, { key: "refund:user:bo" }, { refresh: true });
    expect((await row()).hits).toBe(1);
    await refundThrottles(em, checks);
    await refundThrottles(em, checks);
    expect((await row()).hits).toBe(0);
    // A window that is over keeps its count: the next hit starts a new one anyway.
    await enforceThrottles(em, checks);
    await em.nativeUpdate(ThrottleWindow, { key: "refund:user:bo" }, { windowStart: new Date(Date.now() - 61_000) });
    await refundThrottles(em, checks);
    expect((await row()).hits).toBe(1);
  });

  it("prunes windows over a day old, and remembered actions after 90 days, every 500 hits", async () => {
    const em = other.em.fork();
    const day = 86_400_000;
    const rows = {
      "old:ip:1": new Date(Date.now() - 2 * day),
      "fresh:ip:1": new Date(Date.now() - 60_000),
      "login-known:account:a": new Date(Date.now() - 30 * day),
      "login-known:account:b": new Date(Date.now() - 91 * day),
    };
    for (const [key, windowStart] of Object.entries(rows)) em.create(ThrottleWindow, { key, windowStart, hits: 1 });
    await em.flush();
    // The count is per schema and module-wide (earlier tests hit this one): within 500 calls it prunes once.
    const count = () => em.count(ThrottleWindow, { key: { $in: Object.keys(rows) } });
    let calls = 0;
    while (calls < 500 && (await count()) === 4) {
      await maybePrune(em);
      calls++;
    }
    expect(calls).toBeGreaterThan(1);
    const left = await em.find(ThrottleWindow, { key: { $in: Object.keys(rows) } }, { orderBy: { key: "asc" } });
    expect(left.map((r) => r.key)).toEqual(["fresh:ip:1", "login-known:account:a"]);
  });
});
