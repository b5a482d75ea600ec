// Issue 23: two deployments on one NATS. Two all-in-one platforms, each with its own DEPLOYMENT_NAME, on the run's
// NATS do the same thing (sign-ups, a room, a listener joined, a chat message); nothing of A reaches B: not B's
// join stream, not the core subjects B's services listen on, not the durable streams B's consumers read, not B's
// key-value buckets. Each check waits for B's own activity (its marker) before it looks for A's.
import { randomBytes, randomUUID } from "node:crypto";
import { createClient } from "@connectrpc/connect";
import type { ChatEvent } from "@tt/proto/tt/social/v1/chat_pb";
import { StageService } from "@tt/proto/tt/social/v1/stage_service_pb";
import { createNatsBus, type Bus, type BusMessage, type Subscription } from "@tt/kit";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { bearerTransport, startTestPlatform, type TestPlatform } from "./support/platform.ts";
import { eventually } from "@tt/kit/testing";

const s = (path: string) => `/api/social-service${path}`;
const text = (b: Uint8Array) => Buffer.from(b).toString("latin1");

const run = randomBytes(3).toString("hex");
const names = { a: `iso-a-${run}`, b: `iso-b-${run}` };
let a: TestPlatform;
let b: TestPlatform;
/** What a service of A (B) sees of the bus: a bus with A's (B's) deployment name. */
let busA: Bus;
let busB: Bus;

beforeAll(async () => {
  // One after the other: two starts at once on a loaded machine only slow each other down.
  a = await startTestPlatform({ mode: "all-in-one", env: { DEPLOYMENT_NAME: names.a } });
  b = await startTestPlatform({ mode: "all-in-one", env: { DEPLOYMENT_NAME: names.b } });
  busA = await createNatsBus({ url: inject("natsUrl"), name: "isolation-a", deployment: names.a });
  busB = await createNatsBus({ url: inject("natsUrl"), name: "isolation-b", deployment: names.b });
}, 300_000);

afterAll(async () => {
  await Promise.all([busA?.close(), busB?.close()]);
  await Promise.all([a?.close(), b?.close()]);
}, 120_000);

/** A join stream of `room` on `platform`, collecting its chat events. */
function join(platform: TestPlatform, token: string, room: string) {
  const abort = new AbortController();
  const chat: ChatEvent[] = [];
  let joined = false;
  const transport = bearerTransport(platform.url, token);
  const done = (async () => {
    try {
      for await (const m of createClient(StageService, transport).join({ room }, { signal: abort.signal })) {
        if (m.kind.case === "state") joined = true;
        if (m.kind.case === "chat") chat.push(m.kind.value);
      }
    } catch {
      // ended by close()
    }
  })();
  return {
    chat,
    joined: () => joined,
    async close() {
      abort.abort();
      await done;
    },
  };
}

/** The same activity on either platform: an owner's room, a listener joined, a chat message. */
async function activity(platform: TestPlatform) {
  const owner = await platform.signUp();
  const listener = await platform.signUp();
  const created = await platform.call("POST", "/api/room-service/rooms/infrastructure", {
    token: owner.token,
    body: { name: "Same room" },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const room = created.body.room as { uuid: string; slug: string };
  const stream = join(platform, listener.token, room.uuid);
  await eventually("the listener's join", () => (stream.joined() ? true : undefined), { timeoutMs: 30_000 });
  const message = { uuid: randomUUID(), message: "same words" };
  const sent = await platform.call("POST", s(`/rooms/${room.slug}/messages`), {
    token: owner.token,
    body: { message },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  await eventually(
    "the message on the platform's own join stream",
    () => stream.chat.find((e) => e.kind.case === "created" && e.kind.value.uuid === message.uuid),
    { timeoutMs: 30_000 },
  );
  return { owner: owner.user.uuid, listener: listener.user.uuid, room: room.uuid, message: message.uuid, stream };
}

describe("two deployments on one NATS", () => {
  it("nothing A does reaches B's join streams, subjects, durable streams or key-value buckets", async () => {
    // Everything B's services could hear on core NATS while both platforms work.
    const heardByB: BusMessage[] = [];
    const subs: Subscription[] = [await busB.subscribe(">", (m) => void heardByB.push(m))];
    try {
      const onA = await activity(a);
      // A's presence is in A's bucket before B starts (a positive signal that A wrote it).
      const presenceA = await busA.kv("social-presence", { ttlMs: 15_000 });
      await eventually(
        "A's presence entry",
        async () => ((await presenceA.keys()).some((k) => k.startsWith(onA.room)) ? true : undefined),
        { timeoutMs: 30_000 },
      );

      const onB = await activity(b);
      // B's chat arrived on B's join stream after A's: A's message would have been there by now.
      expect(onB.stream.chat.map((e) => e.kind.value && "uuid" in e.kind.value && e.kind.value.uuid)).not.toContain(
        onA.message,
      );
      // B heard its own room on core NATS (its marker), and nothing about A's room or A's people.
      await eventually(
        "B's own room on B's subjects",
        () => (heardByB.some((m) => m.subject.includes(onB.room)) ? true : undefined),
        { timeoutMs: 30_000 },
      );
      const aIds = [onA.room, onA.owner, onA.listener, onA.message];
      const crossed = heardByB.filter((m) => aIds.some((id) => m.subject.includes(id) || text(m.data).includes(id)));
      expect(crossed.map((m) => m.subject)).toEqual([]);

      // B's presence bucket holds B's room and no key of A's.
      const presenceB = await busB.kv("social-presence", { ttlMs: 15_000 });
      const presenceKeys = await eventually(
        "B's presence entry",
        async () => {
          const keys = await presenceB.keys();
          return keys.some((k) => k.startsWith(onB.room)) ? keys : undefined;
        },
        { timeoutMs: 30_000 },
      );
      expect(presenceKeys.filter((k) => k.startsWith(onA.room))).toEqual([]);
      expect(await (await busB.kv("social-stage")).get(onA.room)).toBeNull();

      // A consumer of B's user events reads B's sign-ups (up to B's listener, the last) and none of A's.
      const eventsOfB: string[] = [];
      subs.push(
        await busB.consume(
          "TT_USER",
          `isolation-${run}`,
          async (m) => void eventsOfB.push(text(m.data) + JSON.stringify(m.headers)),
          { deliver: "all" },
        ),
      );
      await eventually(
        "B's listener's sign-up in B's user stream",
        () => (eventsOfB.some((e) => e.includes(onB.listener)) ? true : undefined),
        { timeoutMs: 30_000 },
      );
      expect(eventsOfB.filter((e) => aIds.some((id) => e.includes(id)))).toEqual([]);

      await Promise.all([onA.stream.close(), onB.stream.close()]);
    } finally {
      await Promise.all(subs.map((sub) => sub.unsubscribe()));
    }
  }, 120_000);
});
