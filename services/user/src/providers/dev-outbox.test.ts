import { describe, expect, it } from "vitest";
import { createInMemoryDevOutbox } from "./dev-outbox.ts";

describe("in-memory dev outbox", () => {
  it("lists newest first, filtered by recipient and limited", async () => {
    const outbox = createInMemoryDevOutbox();
    await outbox.add({ channel: "email", to: "a@example.com", subject: "one", body: "1" });
    await outbox.add({ channel: "sms", to: "+14155550100", body: "2" });
    await outbox.add({ channel: "email", to: "a@example.com", subject: "three", body: "3" });

    expect((await outbox.list({ limit: 10 })).map((e) => e.body)).toEqual(["3", "2", "1"]);
    expect((await outbox.list({ to: "a@example.com", limit: 10 })).map((e) => e.subject)).toEqual(["three", "one"]);
    expect((await outbox.list({ limit: 1 })).map((e) => e.body)).toEqual(["3"]);
    expect(await outbox.list({ to: "nobody@example.com", limit: 10 })).toEqual([]);
  });

  it("drops the oldest messages beyond its capacity", async () => {
    const outbox = createInMemoryDevOutbox({ capacity: 2 });
    for (const body of ["1", "2", "3"]) await outbox.add({ channel: "sms", to: "+1", body });
    expect((await outbox.list({ limit: 10 })).map((e) => e.body)).toEqual(["3", "2"]);
  });

  it("gives each entry an id and the time it was added, and hands out copies", async () => {
    const at = new Date("2026-01-02T03:04:05Z");
    const outbox = createInMemoryDevOutbox({ now: () => at });
    const added = await outbox.add({ channel: "email", to: "b@example.com", body: "hi" });
    added.body = "changed";
    const [listed] = await outbox.list({ limit: 1 });
    expect(listed).toMatchObject({ id: added.id, createdAt: at, body: "hi", channel: "email" });
    expect(added.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses a capacity that is not a positive integer", () => {
    expect(() => createInMemoryDevOutbox({ capacity: 0 })).toThrow(/capacity/);
  });
});
