import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createUserHarness, type UserHarness } from "../../testing/user-harness.ts";
import { createTableDevOutbox } from "./dev-outbox-store.ts";
import { hit } from "./throttle.ts";
import { ThrottleWindow } from "./throttle-window.entity.ts";

let h: UserHarness;

beforeAll(async () => {
  h = await createUserHarness(inject("databaseUrl"));
});

afterAll(async () => {
  await h?.close();
});

describe("throttle", () => {
  it("admits exactly the limit when many replicas count the same key at once", async () => {
    const rule = { action: "test", limit: 10, windowSeconds: 60 };
    // Separate forks stand for separate replicas: each call is its own statement on the shared table.
    const results = await Promise.all(Array.from({ length: 25 }, () => hit(h.orm.em.fork(), "test:race", rule)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect(results.every((r) => r.retryAfterSeconds > 0 && r.retryAfterSeconds <= 60)).toBe(true);
  });

  it("starts a new window once the old one is over", async () => {
    const rule = { action: "test", limit: 1, windowSeconds: 60 };
    const em = h.orm.em.fork();
    expect((await hit(em, "test:window", rule)).allowed).toBe(true);
    expect((await hit(em, "test:window", rule)).allowed).toBe(false);
    await em.nativeUpdate(ThrottleWindow, { key: "test:window" }, { windowStart: new Date(Date.now() - 61_000) });
    expect((await hit(em, "test:window", rule)).allowed).toBe(true);
    expect((await em.findOneOrFail(ThrottleWindow, { key: "test:window" }, { refresh: true })).hits).toBe(1);
  });
});

describe("table dev outbox", () => {
  it("keeps only the newest messages up to its capacity, shared by every instance", async () => {
    const a = createTableDevOutbox(h.orm, 3);
    const b = createTableDevOutbox(h.orm, 3);
    for (let i = 1; i <= 5; i++) {
      await (i % 2 ? a : b).add({ channel: "sms", to: "+4915100000001", body: `message ${i}` });
    }
    const listed = await b.list({ limit: 10 });
    expect(listed.map((m) => m.body)).toEqual(["message 5", "message 4", "message 3"]);
    expect(listed[0]).toMatchObject({ channel: "sms", to: "+4915100000001" });
    expect(listed[0]!.subject).toBeUndefined();
    const mail = await a.add({ channel: "email", to: "x@example.org", subject: "Hi", body: "code 123456" });
    expect(await a.list({ to: "x@example.org", limit: 5 })).toEqual([mail]);
    expect(await a.list({ limit: 1 })).toEqual([mail]);
  });
});
