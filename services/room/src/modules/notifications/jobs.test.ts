// Issue 29: a DJ's fans and "send to all devices" are notified through the room service's work queue. Real NATS
// (the work-queue stream), real PostgreSQL, the recording fakes of FCM and web push; the user service alongside
// for the DJ's account and name.
import { randomUUID } from "node:crypto";
import { createServiceHarness, eventually, type ServiceHarness } from "@tt/kit/testing";
import { NotificationService } from "@tt/proto/tt/room/v1/notification_service_pb";
import { userServiceDefinition } from "@tt/user-service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db.ts";
import { roomServiceDefinition } from "../../index.ts";
import { startFakePush, type FakePush } from "../../testing/fake-push.ts";
import { seedRoom, testUser, type TestUser } from "../../testing/people-fixtures.ts";
import { CHUNK, PAGE } from "./jobs.ts";

let h: ServiceHarness;
let push: FakePush;
let admin: TestUser;
beforeAll(async () => {
  push = await startFakePush();
  h = await createServiceHarness(roomServiceDefinition, {
    alongside: [userServiceDefinition],
    env: { ...push.env, DJ_FANS_NOTIFICATION_INTERVAL_SECONDS: "0" },
  });
  admin = await testUser(h, "admin");
});
afterAll(async () => {
  await h?.close();
  await push?.close();
});

/** `count` fans of `djId` (accounts the room service need not know), each with one phone: their tokens. */
async function seedFans(djId: string, count: number): Promise<string[]> {
  const prefix = randomUUID().slice(0, 8);
  const fans = Array.from({ length: count }, (_, i) => ({ id: randomUUID(), token: `${prefix}-fan-${i}` }));
  const now = new Date();
  const em = h.orm.em.fork();
  for (let i = 0; i < fans.length; i += 500) {
    const slice = fans.slice(i, i + 500);
    await db(em)
      .insertInto("dj_fan")
      .values(slice.map((f) => ({ id: randomUUID(), fan_id: f.id, dj_id: djId, created_at: now })))
      .execute();
    await db(em)
      .insertInto("device")
      .values(
        slice.map((f) => ({
          id: randomUUID(),
          user_id: f.id,
          token: f.token,
          platform: "android",
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
  return fans.map((f) => f.token);
}

/** How many pushes each of `tokens` got so far. */
function pushesTo(tokens: string[]): Map<string, number> {
  const wanted = new Set(tokens);
  const counts = new Map<string, number>();
  for (const t of push.fcmTokens()) if (wanted.has(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** The inbox rows `senderId` wrote, per recipient. */
async function inboxRowsFrom(senderId: string): Promise<number[]> {
  const rows = await db(h.orm.em.fork())
    .selectFrom("notification")
    .select((eb) => ["user_id", eb.fn.countAll<string>().as("n")])
    .where("sender_id", "=", senderId)
    .groupBy("user_id")
    .execute();
  return rows.map((r) => Number(r.n));
}

/** Every one of `tokens` (a fan each) ends with exactly one push, and every fan with exactly one inbox row from the DJ. */
async function expectEachFanOnce(djId: string, tokens: string[]): Promise<void> {
  const fans = tokens.length;
  const counts = await eventually(
    "every fan pushed to",
    () => pushesTo(tokens),
    (c) => c.size === fans,
    { timeoutMs: 60_000 },
  );
  expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
  // A chunk's inbox rows commit just after its pushes.
  const inbox = await eventually(
    "every fan's inbox row",
    () => inboxRowsFrom(djId),
    (rows) => rows.length >= fans,
  );
  expect(inbox).toHaveLength(fans);
  expect(inbox.every((n) => n === 1)).toBe(true);
}

describe("notification jobs (issue 29)", () => {
  it("the DJ's call answers before the fans are pushed to; then every fan gets exactly one push", async () => {
    const dj = await testUser(h);
    const room = await seedRoom(h, dj.id);
    const fans = 2 * PAGE + 7; // three pages
    const tokens = await seedFans(dj.id, fans);

    const answer = await h.client(NotificationService, { token: dj.token }).notifyMyFans({ roomId: room });
    // Delivered in the request, every fan would have been pushed to by now.
    const atAnswer = [...pushesTo(tokens).values()].length;
    expect(answer).toMatchObject({ queued: true, skipped: false, recipients: 0, sent: 0 });
    expect(atAnswer).toBeLessThan(fans);

    await expectEachFanOnce(dj.id, tokens);
  }, 90_000);

  it("an admin's send to all devices answers at once and reaches every device once", async () => {
    const dj = await testUser(h);
    const tokens = await seedFans(dj.id, PAGE + 3);
    const answer = await h.client(NotificationService, { token: admin.token }).sendToAllDevices({ body: "to all" });
    expect(answer).toMatchObject({ queued: true, sent: 0 });
    const counts = await eventually(
      "every device pushed to",
      () => pushesTo(tokens),
      (c) => c.size === tokens.length,
      { timeoutMs: 60_000 },
    );
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    // The job has reached every user with a device (the earlier tests' fans too) before the next test seeds more.
    const users = await db(h.orm.em.fork())
      .selectFrom("device")
      .select((eb) => eb.fn.count<string>("user_id").distinct().as("n"))
      .executeTakeFirstOrThrow();
    await eventually(
      "every user's inbox row",
      () => inboxRowsFrom(admin.id),
      (rows) => rows.length >= Number(users.n),
    );
  }, 90_000);

  it("a worker stopped mid-job leaves its page to another: every fan pushed to exactly once", async () => {
    const dj = await testUser(h);
    const fans = 2 * PAGE + 11;
    const tokens = await seedFans(dj.id, fans);
    const service = h.client(NotificationService, { token: await h.tokens.service("social") });
    expect(await service.notifyDjStartedPlaying({ djId: dj.id, roomId: randomUUID() })).toMatchObject({
      queued: true,
    });
    // The first worker (the harness's instance) is on its first page...
    await eventually(
      "the first pushes",
      () => pushesTo(tokens).size,
      (n) => n >= CHUNK,
    );
    // ...a second replica starts, and the first one stops (its page, unfinished, goes back to the queue).
    await h.createInstance();
    await h.instance.close!();
    const byFirst = pushesTo(tokens).size;
    expect(byFirst).toBeLessThan(fans);

    await expectEachFanOnce(dj.id, tokens);
  }, 90_000);
});
