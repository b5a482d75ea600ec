import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createUserHarness, type UserHarness } from "../../testing/user-harness.ts";
import { createTableDevOutbox } from "./dev-outbox-store.ts";

let h: UserHarness;

beforeAll(async () => {
  h = await createUserHarness(inject("databaseUrl"));
});

afterAll(async () => {
  await h?.close();
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
