// Issue 29: a DJ's fans, "send to all devices" and the web push to every subscription are notified through the
// room service's work queue. Real NATS
// (the work-queue stream), real PostgreSQL, the recording fakes of FCM and web push; the user service alongside
// for the DJ's account and name.
import { randomUUID } from "node:crypto";
import type { ServiceInstance } from "@tt/kit";
import { createServiceHarness, eventually, type ServiceHarness } from "@tt/kit/testing";
import { NotificationService } from "@tt/proto/tt/room/v1/notification_service_pb";
import { userServiceDefinition } from "@tt/user-service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db.ts";
import { roomServiceDefinition } from "../../index.ts";
import { browserKeys, GONE, startFakePush, type FakePush } from "../../testing/fake-push.ts";
import { insertFans, insertSubscriptions } from "../../testing/notification-seeds.ts";
import { seedRoom, testUser, type TestUser } from "../../testing/people-fixtures.ts";
import { CHUNK, NOTIFY_STREAM, PAGE } from "./jobs.ts";

let h: ServiceHarness;
let push: FakePush;
let admin: TestUser;
/** The replica whose worker delivers (the harness's own until a test hands over to another). */
let worker: ServiceInstance;
/** The room service's environment here: pushes to the fakes, no interval between a DJ's two notifications. */
const serviceEnv = () => ({ ...push.env, DJ_FANS_NOTIFICATION_INTERVAL_SECONDS: "0" });
beforeAll(async () => {
  push = await startFakePush();
  h = await createServiceHarness(roomServiceDefinition, { alongside: [userServiceDefinition], env: serviceEnv() });
  admin = await testUser(h, "admin");
  worker = h.instance;
});
afterAll(async () => {
  await h?.close();
  await push?.close();
});

/** `count` fans of `djId` (accounts the room service need not know), each with one phone: their tokens. */
async function seedFans(djId: string, count: number, on: ServiceHarness = h): Promise<string[]> {
  const prefix = randomUUID().slice(0, 8);
  const fans = Array.from({ length: count }, (_, i) => ({ id: randomUUID(), token: `${prefix}-fan-${i}` }));
  await insertFans(on.orm.em.fork(), djId, fans);
  return fans.map((f) => f.token);
}

/**
 * A second replica starts and the one delivering stops: its page, unfinished, goes back to the queue after the chunk
 * in flight, for the new one.
 */
async function handOver(): Promise<void> {
  const next = await h.createInstance();
  await worker.close!();
  worker = next;
}

/**
 * `count` browser subscriptions straight into the table (of users the room service need not know), one in 100 at an
 * endpoint the push fake answers 410 Gone for: their endpoints' paths, and the gone ones'.
 */
async function seedSubscriptions(count: number): Promise<{ paths: string[]; gone: string[] }> {
  const prefix = randomUUID().slice(0, 8);
  const paths = Array.from({ length: count }, (_, i) =>
    i % 100 === 7 ? `/push/${GONE}-${prefix}-${i}` : `/push/${prefix}-${i}`,
  );
  const subscriptions = paths.map((path) => ({ userId: randomUUID(), endpoint: `${push.server.url}${path}` }));
  await insertSubscriptions(h.orm.em.fork(), subscriptions, browserKeys());
  return { paths, gone: paths.filter((p) => p.includes(GONE)) };
}

/** How many web pushes each of `paths` got so far. */
function webPushesTo(paths: string[]): Map<string, number> {
  const wanted = new Set(paths);
  const counts = new Map<string, number>();
  for (const p of push.webPushPaths()) if (wanted.has(p)) counts.set(p, (counts.get(p) ?? 0) + 1);
  return counts;
}

/** Every one of `paths` ends with exactly one web push; the gone ones' subscriptions end removed, the others kept. */
async function expectEachSubscriptionOnce({ paths, gone }: { paths: string[]; gone: string[] }): Promise<void> {
  const counts = await eventually(
    "every subscription pushed to",
    () => webPushesTo(paths),
    (c) => c.size === paths.length,
    { timeoutMs: 60_000 },
  );
  expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
  // A chunk's removals commit just after its pushes.
  const endpoints = (list: string[]) => list.map((p) => `${push.server.url}${p}`);
  const stored = (list: string[]) =>
    db(h.orm.em.fork())
      .selectFrom("web_push_subscription")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("endpoint", "in", endpoints(list))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  await eventually(
    "the gone subscriptions removed",
    () => stored(gone),
    (n) => n === 0,
  );
  expect(await stored(paths)).toBe(paths.length - gone.length);
}

/** How many pushes each of `tokens` got so far. */
function pushesTo(tokens: string[]): Map<string, number> {
  const wanted = new Set(tokens);
  const counts = new Map<string, number>();
  for (const t of push.fcmTokens()) if (wanted.has(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** The inbox rows `senderId` wrote, per recipient. */
async function inboxRowsFrom(senderId: string, on: ServiceHarness = h): Promise<number[]> {
  const rows = await db(on.orm.em.fork())
    .selectFrom("notification")
    .select((eb) => ["user_id", eb.fn.countAll<string>().as("n")])
    .where("sender_id", "=", senderId)
    .groupBy("user_id")
    .execute();
  return rows.map((r) => Number(r.n));
}

/** Every one of `tokens` (a fan each) ends with exactly one push, and every fan with exactly one inbox row from the DJ. */
async function expectEachFanOnce(djId: string, tokens: string[], on: ServiceHarness = h): Promise<void> {
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
    () => inboxRowsFrom(djId, on),
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
    await handOver();
    const byFirst = pushesTo(tokens).size;
    expect(byFirst).toBeLessThan(fans);

    await expectEachFanOnce(dj.id, tokens);
  }, 90_000);

  it("an admin's web push to every subscription answers at once; every subscription is pushed once, gone ones removed", async () => {
    const subscriptions = await seedSubscriptions(2 * PAGE + 37); // three pages
    const answer = await h
      .client(NotificationService, { token: admin.token })
      .sendWebPush({ title: "News", body: "to every browser", url: "/rooms" });
    // Delivered in the request, every subscription would have been pushed to by now.
    const atAnswer = webPushesTo(subscriptions.paths).size;
    expect(answer).toMatchObject({ queued: true, recipients: 0, sent: 0, failed: 0, removed: 0, skipped: false });
    expect(atAnswer).toBeLessThan(subscriptions.paths.length);

    await expectEachSubscriptionOnce(subscriptions);
  }, 90_000);

  it("a worker stopped mid-way through a web push to every subscription: each pushed exactly once by the two", async () => {
    const subscriptions = await seedSubscriptions(3 * PAGE + 13);
    const service = h.client(NotificationService, { token: await h.tokens.service("social") });
    expect(await service.sendWebPush({ body: "to every browser" })).toMatchObject({ queued: true });
    await eventually(
      "the first web pushes",
      () => webPushesTo(subscriptions.paths).size,
      (n) => n >= CHUNK,
    );
    await handOver();
    const byFirst = webPushesTo(subscriptions.paths).size;
    expect(byFirst).toBeLessThan(subscriptions.paths.length);

    await expectEachSubscriptionOnce(subscriptions);
  }, 90_000);
});

describe("the room service's roles (ROOM_ROLE, the chart's room and room-notify)", () => {
  it("a replica that only answers queues the job and consumes nothing; a notify replica delivers it", async () => {
    const api = await createServiceHarness(roomServiceDefinition, {
      alongside: [userServiceDefinition],
      env: { ...serviceEnv(), ROOM_ROLE: "api" },
    });
    try {
      const dj = await testUser(api);
      const room = await seedRoom(api, dj.id);
      const tokens = await seedFans(dj.id, PAGE + 9, api);
      const answer = await api.client(NotificationService, { token: dj.token }).notifyMyFans({ roomId: room });
      expect(answer).toMatchObject({ queued: true });
      // The outbox relay publishes the job into the work queue, where it waits: nobody consumes it.
      const info = await eventually(
        "the job in the work queue",
        () => api.bus.streamInfo(NOTIFY_STREAM),
        (i) => i.messages === 1,
      );
      expect(info.consumers).toBe(0);
      expect(pushesTo(tokens).size).toBe(0);

      await api.createInstance({ ...serviceEnv(), ROOM_ROLE: "notify" });
      await expectEachFanOnce(dj.id, tokens, api);
      expect(await api.bus.streamInfo(NOTIFY_STREAM)).toMatchObject({ consumers: 1 });
    } finally {
      await api.close();
    }
  }, 90_000);
});
