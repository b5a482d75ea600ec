// A room hub on the in-process bus: patches from several instances may arrive out of order; the hub forwards them
// in version order, and a gap that does not close makes it re-read the stage and send it whole.
import { create, toBinary } from "@bufbuild/protobuf";
import { createMemoryBus } from "@tt/kit";
import { ChatEventSchema, type ChatEvent } from "@tt/proto/tt/social/v1/chat_pb";
import { StagePatchSchema, type Stage } from "@tt/proto/tt/social/v1/stage_pb";
import type { JoinResponse } from "@tt/proto/tt/social/v1/stage_service_pb";
import { describe, expect, it, vi } from "vitest";
import { chatRoomSubject, stagePatchSubject } from "../../subjects.ts";
import { applyAction, initialStage, stagePatch } from "./domain.ts";
import { Listener, outgoing, RoomHub, WRITES_PER_TURN, type Outgoing } from "./hub.ts";

const ROOM = "22222222-2222-4222-8222-222222222222";
const settings = {
  uuid: ROOM,
  slug: "hub",
  name: "Hub",
  ownerUuid: "",
  type: "PUBLIC",
  djType: "EVERYONE",
  numberOfDjs: 3,
  isLive: true,
  liveAudio: false,
  design: "CLUB",
  posterUrl: "",
};
const users = ["a", "b", "c", "d"].map((x) => `00000000-0000-4000-8000-00000000000${x}`);

/** Versions 0..4 of a stage: each one more DJ seated (and then the vote-skip switched off). */
function history(): Stage[] {
  const out = [initialStage(settings)];
  const t = new Date("2026-11-24T20:00:00Z");
  for (const user of users.slice(0, 3)) {
    out.push(applyAction(out.at(-1)!, { kind: "takeSeat", user, canDj: true }, t).stage);
  }
  out.push(applyAction(out.at(-1)!, { kind: "setVoteSkip", enabled: false }, t).stage);
  return out;
}

const bus = createMemoryBus();

async function next(iter: AsyncGenerator<unknown>, n: number) {
  const got = [];
  for (let i = 0; i < n; i++) got.push((await iter.next()).value);
  return got as { kind: { case: string; value: { version: bigint } } }[];
}

/** A hub of the room on the in-process bus that reads `load` as the stored stage; errors fail the test. */
async function openHub(load: () => Promise<Stage>): Promise<RoomHub> {
  const hub = new RoomHub(ROOM, bus, load, (err) => {
    throw err;
  });
  await hub.ready;
  return hub;
}

describe("room hub", () => {
  it("knows its listeners by user and by guest as they join and leave (a person with two streams once)", async () => {
    const hub = await openHub(async () => initialStage(settings));
    const [a1, a2, g1, g2] = [
      new Listener(1, users[0], undefined, 1),
      new Listener(2, users[0], undefined, 2),
      new Listener(3, undefined, "guest-1", 3),
      new Listener(4, undefined, "guest-2", 4),
    ];
    for (const l of [a1!, a2!, g1!, g2!]) hub.add(l);
    expect([...hub.byUser.keys()]).toEqual([users[0]]);
    expect(hub.byUser.get(users[0]!)?.size).toBe(2);
    expect([...hub.byGuest.keys()].sort()).toEqual(["guest-1", "guest-2"]);
    hub.remove(a1!);
    hub.remove(g2!);
    expect([...hub.byUser.get(users[0]!)!]).toEqual([a2]);
    expect([...hub.byGuest.keys()]).toEqual(["guest-1"]);
    hub.remove(a2!);
    hub.remove(g1!);
    expect([hub.byUser.size, hub.byGuest.size, hub.listeners.size]).toEqual([0, 0, 0]);
    await hub.close();
  });

  it("forwards patches in version order whatever order they arrive in, and resyncs after a lasting gap", async () => {
    const stages = history();
    let stored = stages[0]!;
    const hub = await openHub(async () => stored);
    const listener = new Listener(1, users[3], undefined, Date.now());
    hub.add(listener);
    const abort = new AbortController();
    const messages = listener.messages(abort.signal);
    const publish = (v: number) =>
      bus.publish(
        stagePatchSubject(ROOM),
        toBinary(
          StagePatchSchema,
          create(StagePatchSchema, {
            version: BigInt(v),
            operations: JSON.stringify(stagePatch(stages[v - 1]!, stages[v]!)),
          }),
        ),
      );

    await publish(2);
    await publish(1);
    const first = await next(messages, 3);
    expect(first.map((m) => [m.kind.case, Number(m.kind.value.version)])).toEqual([
      ["state", 0],
      ["patch", 1],
      ["patch", 2],
    ]);

    // Version 3 is lost; 4 waits, then the hub re-reads the stored stage and sends it whole.
    stored = stages[4]!;
    await publish(4);
    const [resync] = await next(messages, 1);
    expect([resync!.kind.case, Number(resync!.kind.value.version)]).toEqual(["state", 4]);
    expect(hub.stage().voteSkip?.enabled).toBe(false);

    abort.abort();
    await hub.close();
  });

  it("writes to a big room a slice at a time, each message to everyone before the next, joiners from the next on", async () => {
    /** A listener that keeps the versions of the patches it is given. */
    class Recording extends Listener {
      readonly versions: number[] = [];
      override send(message: Outgoing): void {
        const kind = message.message.kind;
        if (kind.case === "patch") this.versions.push(Number(kind.value.version));
      }
    }
    const patch = (version: number) =>
      outgoing({ case: "patch", value: { version: BigInt(version), operations: "[]" } });
    const hub = await openHub(async () => initialStage(settings));
    const room = Array.from({ length: 2 * WRITES_PER_TURN + 7 }, (_, i) => new Recording(i, undefined, `g${i}`, i));
    for (const l of room) hub.add(l);

    hub.broadcast(patch(1));
    // The first slice has it at once; the rest after the event loop has turned (and sent the first slice's).
    expect([room[0]!.versions, room[WRITES_PER_TURN - 1]!.versions, room[WRITES_PER_TURN]!.versions]).toEqual([
      [1],
      [1],
      [],
    ]);
    const late = new Recording(-1, undefined, "late", 0);
    hub.add(late);
    hub.broadcast(patch(2));
    hub.broadcast(patch(3));
    await vi.waitFor(() => expect(room.at(-1)!.versions).toEqual([1, 2, 3]));
    expect(room.filter((l) => l.versions.join() !== "1,2,3")).toEqual([]);
    // Joined while the first was being written: the state it got holds that one; it gets the ones after.
    expect(late.versions).toEqual([2, 3]);

    // Once everything is written, a room that is small again is written to at once.
    for (const l of room.slice(10)) hub.remove(l);
    hub.broadcast(patch(4));
    expect(room.slice(0, 10).map((l) => l.versions.at(-1))).toEqual(Array(10).fill(4));
    await hub.close();
  });

  describe("issue 28: room chat in sequence", () => {
    /** A room chat event as the chat publishes it: a message of `sender` with the room's sequence. */
    const chatEvent = (sequence: number, sender = users[0]!) =>
      bus.publish(
        chatRoomSubject(ROOM),
        toBinary(
          ChatEventSchema,
          create(ChatEventSchema, {
            sequence: BigInt(sequence),
            kind: { case: "created", value: { uuid: `m-${sequence}`, userUuid: sender, roomUuid: ROOM } },
          }),
        ),
      );
    /** What a chat message of the stream says: its sequence and kind, or the head's sequence. */
    const said = (m: JoinResponse) => {
      if (m.kind.case !== "chat") return [m.kind.case];
      const e: ChatEvent = m.kind.value;
      return e.kind.case === "head"
        ? ["head", Number(e.kind.value.sequence)]
        : [e.kind.case ?? "none", Number(e.sequence)];
    };

    async function open(storedChat: () => bigint, blocked: string[] = []) {
      const hub = new RoomHub(
        ROOM,
        bus,
        async () => history()[0]!,
        (err) => {
          throw err;
        },
        [],
        async () => storedChat(),
      );
      await hub.ready;
      const listener = new Listener(1, users[3], undefined, Date.now());
      listener.blocked = new Set(blocked);
      hub.add(listener);
      const abort = new AbortController();
      const messages = listener.messages(abort.signal) as AsyncGenerator<JoinResponse>;
      const take = async (n: number) => {
        const got: JoinResponse[] = [];
        for (let i = 0; i < n; i++) got.push((await messages.next()).value as JoinResponse);
        return got.map(said);
      };
      return {
        hub,
        take,
        close: async () => {
          abort.abort();
          await hub.close();
        },
      };
    }

    it("a new listener gets the room's chat head after the state; events go out in sequence order whatever order they came in", async () => {
      const room = await open(() => 3n);
      expect(await room.take(2)).toEqual([["state"], ["head", 3]]);
      await chatEvent(5);
      await chatEvent(4);
      await chatEvent(6);
      expect(await room.take(3)).toEqual([
        ["created", 4],
        ["created", 5],
        ["created", 6],
      ]);
      // 7 is lost: 8 goes out after a moment anyway (the client sees the hole and reloads).
      await chatEvent(8);
      expect(await room.take(1)).toEqual([["created", 8]]);
      expect(room.hub.chatSequence).toBe(8n);
      await room.close();
    });

    it("a listener who blocked the sender gets the change's sequence alone", async () => {
      const room = await open(() => 0n, [users[1]!]);
      expect(await room.take(2)).toEqual([["state"], ["head", 0]]);
      await chatEvent(1, users[1]);
      await chatEvent(2, users[2]);
      expect(await room.take(2)).toEqual([
        ["none", 1],
        ["created", 2],
      ]);
      await room.close();
    });

    it("when the stored chat stays ahead of what arrived for a check, every listener is told where it is", async () => {
      const room = await open(() => 2n);
      expect(await room.take(2)).toEqual([["state"], ["head", 2]]);
      // Ahead at one check: maybe on their way. They arrive: nothing to say.
      room.hub.checkChat(4n);
      await chatEvent(3);
      await chatEvent(4);
      expect(await room.take(2)).toEqual([
        ["created", 3],
        ["created", 4],
      ]);
      room.hub.checkChat(4n);
      // Ahead at two checks running (5 and 6 lost, as while NATS was down): the head goes out.
      room.hub.checkChat(6n);
      room.hub.checkChat(6n);
      expect(await room.take(1)).toEqual([["head", 6]]);
      expect(room.hub.chatSequence).toBe(6n);
      // Told once: caught up, the next checks say nothing; the next event follows on.
      room.hub.checkChat(6n);
      await chatEvent(7);
      expect(await room.take(1)).toEqual([["created", 7]]);
      await room.close();
    });
  });
});
