// An instance's listeners of a room are written in pages, on the real NATS: a room with more signed-in listeners than
// one NATS message holds (1 MB by default) is read back whole, a join rewrites one page, and pages no longer needed
// are removed.
import { randomUUID } from "node:crypto";
import { createNatsBus, type Bus } from "@tt/kit";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PRESENCE_BUCKET, PRESENCE_TTL_MS, PresenceStore } from "./presence.ts";

let bus: Bus;
let writer: PresenceStore;
let reader: PresenceStore;

beforeAll(async () => {
  bus = await createNatsBus({
    url: inject("natsUrl"),
    deployment: "social-presence-test",
    logger: pino({ level: "silent" }),
  });
  writer = await PresenceStore.open(bus, `writer-${randomUUID()}`);
  reader = await PresenceStore.open(bus, `reader-${randomUUID()}`);
});

afterAll(async () => {
  await writer?.close();
  await reader?.close();
  await bus?.close();
});

/** `n` users with their join times, in join order. */
const usersOf = (n: number) => new Map(Array.from({ length: n }, (_, i) => [randomUUID(), 1_700_000_000_000 + i]));

describe("presence pages", () => {
  it("a room with 25,000 signed-in listeners on one instance (1.4 MB as one entry) reads back whole elsewhere", async () => {
    const room = randomUUID();
    const users = usersOf(25_000);
    await writer.write(room, users, 7);
    await expect.poll(async () => (await reader.read(room)).users.length, { timeout: 10_000 }).toBe(25_000);
    const seen = await reader.read(room);
    expect(seen.guests).toBe(7);
    // The earliest joins first (the dancefloor's order).
    expect(seen.users.slice(0, 3).map((u) => u.joinedAt)).toEqual([0, 1, 2].map((i) => 1_700_000_000_000 + i));
    const kv = await bus.kv(PRESENCE_BUCKET, { ttlMs: PRESENCE_TTL_MS });
    const keys = (await kv.keys(`${room}.>`)).sort();
    expect(keys.length).toBe(13);

    // One more listener: one page is put again, the others are left as they are.
    const revisions = new Map(await Promise.all(keys.map(async (k) => [k, (await kv.get(k))!.revision] as const)));
    const late = randomUUID();
    users.set(late, 1_800_000_000_000);
    await writer.write(room, users, 7);
    await expect.poll(async () => (await reader.read(room)).users.some((u) => u.user === late)).toBe(true);
    const changed = [];
    for (const k of keys) if ((await kv.get(k))!.revision !== revisions.get(k)) changed.push(k);
    expect(changed.length).toBe(1);

    // Down to a few listeners: one page, the others removed; then none at all.
    await writer.write(room, usersOf(3), 0);
    await expect.poll(async () => (await reader.read(room)).users.length).toBe(3);
    expect(await kv.keys(`${room}.>`)).toEqual([`${room}.${writer.instanceId}`]);
    await writer.write(room, new Map(), 0);
    await expect.poll(async () => (await reader.read(room)).users.length).toBe(0);
    expect(await kv.keys(`${room}.>`)).toEqual([]);
  });
});
