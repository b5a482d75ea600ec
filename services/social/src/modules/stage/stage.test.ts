// The live stage on the real host with the user, room and playlist services alongside (in-process calls, the test
// run's NATS): join streams get the state then patches that rebuild the stage, two DJs rotate on their queues,
// votes star the song, a DJ skips, guests cannot act, a kicked listener's stream gets `kicked` and ends.
import { randomUUID } from "node:crypto";
import { create, fromJson, toBinary, toJson, type JsonValue } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { createServiceHarness, eventually, type ServiceHarness, codeAndMessageOf } from "@tt/kit/testing";
import { playlistServiceDefinition } from "@tt/playlist-service";
import { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { BlockedUserService } from "@tt/proto/tt/room/v1/blocked_user_service_pb";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { AdminService } from "@tt/proto/tt/room/v1/admin_service_pb";
import { RoomUserRoleService } from "@tt/proto/tt/room/v1/room_user_role_service_pb";
import { ChatEventSchema } from "@tt/proto/tt/social/v1/chat_pb";
import { ChatService } from "@tt/proto/tt/social/v1/chat_service_pb";
import { RoomActivityKind, StageSchema, type Stage } from "@tt/proto/tt/social/v1/stage_pb";
import { StageService, type JoinResponse } from "@tt/proto/tt/social/v1/stage_service_pb";
import { roomServiceDefinition } from "@tt/room-service";
import { userServiceDefinition } from "@tt/user-service";
import { signUpAccount } from "@tt/user-service/testing/sign-up";
import { applyPatch } from "rfc6902";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { socialServiceDefinition } from "../../index.ts";
import { chatRoomSubject, chatUserSubject } from "../../subjects.ts";

let h: ServiceHarness;

beforeAll(async () => {
  h = await createServiceHarness(socialServiceDefinition, {
    alongside: [userServiceDefinition, playlistServiceDefinition, roomServiceDefinition],
    env: { SOCIAL_DJ_GRACE_MS: "1500", SOCIAL_LEASE_TTL_MS: "1000", SOCIAL_PRESENCE_INTERVAL_MS: "200" },
  });
}, 120_000);
afterAll(() => h?.close());

const account = () => signUpAccount(h);

async function queueSongs(token: string, seconds: number[]): Promise<void> {
  await h.client(CrateService, { token }).addQueueSongs({
    songs: seconds.map((duration, i) => ({
      trackName: `Stage ${i} ${randomUUID().slice(0, 6)}`,
      artistName: "Stage Test",
      duration,
      musicProviders: { spotify: `sp-${randomUUID()}` },
    })),
  });
}

/** A join stream read in the background: every message, and the stage rebuilt from the state and the patches. */
function watch(token: string, room: string) {
  const abort = new AbortController();
  const messages: JoinResponse[] = [];
  let json: JsonValue | null = null;
  let version = -1n;
  const waiters: (() => void)[] = [];
  const done = (async () => {
    try {
      for await (const m of h.client(StageService, { token }).join({ room }, { signal: abort.signal })) {
        messages.push(m);
        if (m.kind.case === "state") {
          json = toJson(StageSchema, m.kind.value);
          version = m.kind.value.version;
        } else if (m.kind.case === "patch") {
          expect(m.kind.value.version).toBe(version + 1n);
          expect(applyPatch(json, JSON.parse(m.kind.value.operations)).every((e) => e === null)).toBe(true);
          version = m.kind.value.version;
        }
        for (const w of waiters.splice(0)) w();
      }
    } catch (err) {
      if (!abort.signal.aborted) throw err;
    }
  })();
  const stage = (): Stage => fromJson(StageSchema, json!);
  return {
    messages,
    stage,
    done,
    close: () => abort.abort(),
    /** Waits until the rebuilt stage satisfies `test` (every message re-checks it). */
    async until(test: (s: Stage) => boolean, timeoutMs = 30_000): Promise<Stage> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (json !== null && test(stage())) return stage();
        if (Date.now() > deadline) throw new Error(`timed out; stage: ${JSON.stringify(json)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
  };
}

describe("the live stage", () => {
  it("streams state then patches; two DJs rotate; votes, skip, guests and kicks", async () => {
    const owner = await account();
    const dj2 = await account();
    const listener = await account();
    const room = (
      await h.client(RoomService, { token: owner.token }).createRoom({ name: `Stage ${randomUUID()}`, numberOfDjs: 2 })
    ).room!;
    await queueSongs(owner.token, [3, 3]);
    await queueSongs(dj2.token, [30]);

    const ownerStream = watch(owner.token, room.slug);
    const dj2Stream = watch(dj2.token, room.uuid);
    const listenerStream = watch(listener.token, room.uuid);
    const guestStream = watch(await h.tokens.guest(), room.uuid);
    await listenerStream.until((s) => (s.listeners?.users ?? 0) >= 3 && (s.listeners?.guests ?? 0) >= 1);

    const stage = (token: string) => h.client(StageService, { token });
    await stage(owner.token).takeSeat({ room: room.uuid });
    expect(await codeAndMessageOf(stage(owner.token).takeSeat({ room: room.uuid }))).toEqual([
      Code.AlreadyExists,
      "Already in a DJ seat",
    ]);
    const first = await listenerStream.until((s) => s.play?.djUuid === owner.uuid);
    expect(first.seats.map((s) => s.userUuid)).toEqual([owner.uuid]);
    await stage(dj2.token).takeSeat({ room: room.uuid });
    expect(await codeAndMessageOf(stage(listener.token).takeSeat({ room: room.uuid }))).toEqual([
      Code.Aborted,
      "No free DJ seat",
    ]);

    // Votes: one per listener, changeable, not on your own play; a like stars the song.
    await stage(listener.token).dislike({ room: room.uuid, playId: first.play!.playId });
    const liked = await stage(listener.token).like({ room: room.uuid });
    expect([liked.stage!.votes!.likes, liked.stage!.votes!.dislikes]).toEqual([1, 0]);
    expect(await codeAndMessageOf(stage(owner.token).like({ room: room.uuid }))).toEqual([
      Code.PermissionDenied,
      "You cannot vote on your own song",
    ]);
    const likes = await h.client(CrateService, { token: listener.token }).listLikesSongs({});
    expect(likes.songs.map((s) => s.songId)).toEqual([first.play!.song!.songId]);
    expect((await codeAndMessageOf(stage(await h.tokens.guest()).like({ room: room.uuid })))[0]).toBe(
      Code.Unauthenticated,
    );

    // The owner's 3-second song ends; dj2 plays next and the owner goes to the back of the booth.
    const second = await listenerStream.until((s) => s.play?.djUuid === dj2.uuid);
    expect(second.seats.map((s) => s.userUuid)).toEqual([dj2.uuid, owner.uuid]);
    expect(second.votes?.likes ?? 0).toBe(0);
    // dj2 skips their own song: the owner's second song plays.
    expect(await codeAndMessageOf(stage(owner.token).skipSong({ room: room.uuid }))).toEqual([
      Code.PermissionDenied,
      "Only the DJ can skip their song",
    ]);
    await stage(dj2.token).skipSong({ room: room.uuid, playId: second.play!.playId });
    const third = await listenerStream.until((s) => s.play?.djUuid === owner.uuid);
    expect(third.play!.playId).not.toBe(first.play!.playId);

    // Every stream rebuilt the same stage as the snapshot.
    const snapshot = (await stage(owner.token).getStage({ room: room.slug })).stage!;
    for (const s of [ownerStream, dj2Stream, listenerStream, guestStream]) {
      const seen = await s.until((x) => x.version === snapshot.version || x.version > snapshot.version);
      if (seen.version === snapshot.version) expect(toJson(StageSchema, seen)).toEqual(toJson(StageSchema, snapshot));
    }

    // The owner kicks the listener: their stream gets `kicked` and ends.
    await h.client(RoomUserRoleService, { token: owner.token }).kickUserFromRoom({
      roomId: room.uuid,
      userId: listener.uuid,
      until: timestampFromDate(new Date(Date.now() + 60_000)),
    });
    await listenerStream.done;
    const last = listenerStream.messages.at(-1)!;
    expect(last.kind.case).toBe("kicked");
    expect(last.kind.value).toMatchObject({ room: room.uuid, by: owner.uuid, reason: "kicked" });
    const rejoin = await codeAndMessageOf(
      stage(listener.token).join({ room: room.uuid })[Symbol.asyncIterator]().next(),
    );
    expect(rejoin[0]).toBe(Code.PermissionDenied);
    expect(rejoin[1]).toMatch(/^You are kicked from this room until \d{4}-/);
    // The kick forgot the listener's admission: their votes are refused at once.
    expect((await codeAndMessageOf(stage(listener.token).like({ room: room.uuid })))[1]).toMatch(
      /^You are kicked from this room/,
    );

    // Leaving the seat while playing ends the play; the next DJ (dj2) plays.
    await stage(owner.token).leaveSeat({ room: room.uuid });
    await ownerStream.until((s) => s.play?.djUuid === dj2.uuid && s.seats.length === 1);

    for (const s of [ownerStream, dj2Stream, guestStream]) s.close();
    await Promise.all([ownerStream.done, dj2Stream.done, guestStream.done]);
    expect(create(StageSchema, {}).version).toBe(0n);
  }, 120_000);

  it("a DJ who lost the stream steps down after the grace period; settings follow the room; a deleted room resets", async () => {
    const owner = await account();
    const room = (
      await h.client(RoomService, { token: owner.token }).createRoom({ name: `Grace ${randomUUID()}`, numberOfDjs: 3 })
    ).room!;
    const djStream = watch(owner.token, room.uuid);
    await djStream.until((s) => (s.listeners?.users ?? 0) === 1);
    const taken = (await h.client(StageService, { token: owner.token }).takeSeat({ room: room.uuid })).stage!;
    // An empty queue: the DJ steps down at once and the booth stays silent.
    await djStream.until((s) => s.version > taken.version && s.seats.length === 0 && !s.play);

    await queueSongs(owner.token, [60]);
    await h.client(StageService, { token: owner.token }).takeSeat({ room: room.uuid });
    await djStream.until((s) => s.play?.djUuid === owner.uuid);
    const other = await account();
    const otherStream = watch(other.token, room.uuid);
    await otherStream.until((s) => s.play?.djUuid === owner.uuid);
    djStream.close();
    await djStream.done;
    const away = await otherStream.until((s) => s.seats[0]?.awaySince !== undefined);
    expect(away.seats[0]!.userUuid).toBe(owner.uuid);
    await otherStream.until((s) => s.seats.length === 0 && !s.play);

    await h.client(RoomService, { token: owner.token }).setDjSeats({ id: room.uuid, numberOfDjs: 7 });
    await otherStream.until((s) => s.room?.numberOfDjs === 7);

    // The room's look rides on the stage: a design change in the settings is patched onto every open join stream.
    expect(room.design).not.toBe("YACHT");
    await h.client(RoomService, { token: owner.token }).updateRoom({ id: room.uuid, design: "YACHT" });
    const redesigned = await otherStream.until((s) => s.room?.design === "YACHT");
    expect(redesigned.room?.numberOfDjs).toBe(7);
    expect(redesigned.room?.posterUrl).toBe(room.posterUrl);

    // The live switch is the room's "on air" label
    // (docs/decisions/0227-the-live-switch-islive-is-the-rooms-on-air-label.md): a new room is not live and its booth
    // plays all the same; switching it on or off only shows in the stage's room, the booth and the play are untouched.
    expect(room.isLive).toBe(false);
    await queueSongs(other.token, [60]);
    await h.client(StageService, { token: other.token }).takeSeat({ room: room.uuid });
    const playing = await otherStream.until((s) => s.play?.djUuid === other.uuid && s.room?.isLive === false);
    await h.client(RoomService, { token: owner.token }).setLiveState({ id: room.uuid, isLive: true });
    const onAir = await otherStream.until((s) => s.room?.isLive === true);
    expect(onAir.play?.playId).toBe(playing.play!.playId);
    await h.client(RoomService, { token: owner.token }).setLiveState({ id: room.uuid, isLive: false });
    const offAir = await otherStream.until((s) => s.room?.isLive === false);
    expect(offAir.play?.playId).toBe(playing.play!.playId);
    expect(offAir.seats.map((s) => s.userUuid)).toEqual([other.uuid]);

    await h.client(RoomService, { token: owner.token }).deleteRoom({ id: room.uuid });
    await otherStream.done;
    expect(otherStream.messages.at(-1)?.kind).toMatchObject({ case: "reset", value: { room: room.uuid } });
  }, 120_000);

  it("forwards the room's chat and the caller's own chat events on the join stream", async () => {
    const owner = await account();
    const room = (await h.client(RoomService, { token: owner.token }).createRoom({ name: `Chat ${randomUUID()}` }))
      .room!;
    const stream = watch(owner.token, room.uuid);
    const guestStream = watch(await h.tokens.guest(), room.uuid);
    await stream.until((s) => (s.listeners?.users ?? 0) === 1 && (s.listeners?.guests ?? 0) === 1);
    const event = (message: string) =>
      toBinary(
        ChatEventSchema,
        create(ChatEventSchema, { kind: { case: "created", value: { message, roomUuid: room.uuid } } }),
      );
    await h.bus.publish(chatRoomSubject(room.uuid), event("to the room"));
    await h.bus.publish(chatUserSubject(owner.uuid), event("to the owner"));
    const chats = async (w: ReturnType<typeof watch>, n: number) => {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const seen = w.messages.flatMap((m) =>
          m.kind.case === "chat" && m.kind.value.kind.case === "created" ? [m.kind.value.kind.value.message] : [],
        );
        if (seen.length >= n || Date.now() > deadline) return seen;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    expect((await chats(stream, 2)).sort()).toEqual(["to the owner", "to the room"]);
    expect(await chats(guestStream, 1)).toEqual(["to the room"]);
    stream.close();
    guestStream.close();
    await Promise.all([stream.done, guestStream.done]);
  });

  it("listeners joining together each miss the room chat of those they blocked (blocks read together)", async () => {
    const owner = await account();
    const [sender, blocker, other] = [await account(), await account(), await account()];
    await h.client(BlockedUserService, { token: blocker.token }).blockUser({ blockedUserId: sender.uuid });
    const refusal = await eventually("the block to reach the chat", () =>
      h
        .client(ChatService, { token: sender.token })
        .sendDirectMessage({ user: blocker.uuid, message: { uuid: randomUUID(), message: "hi" } })
        .then(
          () => undefined,
          (err: unknown) => ConnectError.from(err).rawMessage,
        ),
    );
    expect(refusal).toBe("you cannot message this user");
    const room = (await h.client(RoomService, { token: owner.token }).createRoom({ name: `Blocks ${randomUUID()}` }))
      .room!;
    // Joined together: their blocks are read together (one statement when their joins arrive in one turn).
    const [blocking, seeing] = [watch(blocker.token, room.uuid), watch(other.token, room.uuid)];
    await blocking.until((s) => (s.listeners?.users ?? 0) === 2);
    await seeing.until((s) => (s.listeners?.users ?? 0) === 2);
    const said = (message: string, userUuid: string) =>
      toBinary(
        ChatEventSchema,
        create(ChatEventSchema, { kind: { case: "created", value: { message, userUuid, roomUuid: room.uuid } } }),
      );
    await h.bus.publish(chatRoomSubject(room.uuid), said("from the blocked one", sender.uuid));
    await h.bus.publish(chatRoomSubject(room.uuid), said("from the owner", owner.uuid));
    const chats = (w: ReturnType<typeof watch>) =>
      w.messages.flatMap((m) =>
        m.kind.case === "chat" && m.kind.value.kind.case === "created" ? [m.kind.value.kind.value.message] : [],
      );
    // The owner's message was sent last: once it is there, the blocked one's was kept from the blocker.
    expect(
      await eventually(
        "both chats at the other listener",
        () => chats(seeing),
        (c) => c.length === 2,
      ),
    ).toEqual(["from the blocked one", "from the owner"]);
    expect(
      await eventually(
        "the owner's chat at the blocker",
        () => chats(blocking),
        (c) => c.length > 0,
      ),
    ).toEqual(["from the owner"]);
    blocking.close();
    seeing.close();
    await Promise.all([blocking.done, seeing.done]);
  });

  it("admits to a private room's stage only members and the guest password; actions need the admission", async () => {
    const owner = await account();
    const dj = await account();
    const stranger = await account();
    const room = (
      await h
        .client(RoomService, { token: owner.token })
        .createRoom({ name: `Private ${randomUUID()}`, type: "PRIVATE" })
    ).room!;
    await h
      .client(RoomUserRoleService, { token: owner.token })
      .grantRoomRole({ roomId: room.uuid, userId: dj.uuid, role: "dj" });
    const stage = (token: string) => h.client(StageService, { token });
    const firstMessage = (token: string, guestPassword = "") =>
      stage(token).join({ room: room.uuid, guestPassword })[Symbol.asyncIterator]().next();

    // Refused before any message, with the room service's reason.
    expect(await codeAndMessageOf(firstMessage(stranger.token))).toEqual([
      Code.PermissionDenied,
      "This room is private",
    ]);
    const guest = await h.tokens.guest();
    expect(await codeAndMessageOf(firstMessage(guest))).toEqual([Code.PermissionDenied, "This room is private"]);
    expect(await codeAndMessageOf(firstMessage(guest, "not-the-password"))).toEqual([
      Code.PermissionDenied,
      "Wrong guest password",
    ]);
    // Reads and actions of a stranger are refused too.
    expect(await codeAndMessageOf(stage(stranger.token).getStage({ room: room.uuid }))).toEqual([
      Code.PermissionDenied,
      "This room is private",
    ]);
    expect(await codeAndMessageOf(stage(stranger.token).listListeners({ room: room.uuid }))).toEqual([
      Code.PermissionDenied,
      "This room is private",
    ]);
    expect(await codeAndMessageOf(stage(stranger.token).takeSeat({ room: room.uuid }))).toEqual([
      Code.PermissionDenied,
      "This room is private",
    ]);
    expect(await codeAndMessageOf(stage(stranger.token).like({ room: room.uuid }))).toEqual([
      Code.PermissionDenied,
      "This room is private",
    ]);

    // Members enter and act.
    const djStream = watch(dj.token, room.uuid);
    await djStream.until((s) => (s.listeners?.users ?? 0) === 1);
    await queueSongs(dj.token, [60]);
    await stage(dj.token).takeSeat({ room: room.uuid });
    await djStream.until((s) => s.play?.djUuid === dj.uuid);
    expect((await stage(owner.token).getStage({ room: room.slug })).stage!.play?.djUuid).toBe(dj.uuid);

    // A guest with the password enters, reads while the stream is open, and still may not act.
    const password = `pw-${randomUUID()}`;
    const admin = await h.tokens.user("admin");
    await h.client(AdminService, { token: admin }).setGuestPassword({ roomId: room.uuid, password });
    const abort = new AbortController();
    const guestStream = stage(guest).join({ room: room.uuid, guestPassword: password }, { signal: abort.signal });
    const it = guestStream[Symbol.asyncIterator]();
    expect((await it.next()).value?.kind.case).toBe("state");
    expect((await stage(guest).getStage({ room: room.uuid })).stage!.play?.djUuid).toBe(dj.uuid);
    expect((await codeAndMessageOf(stage(guest).like({ room: room.uuid })))[0]).toBe(Code.Unauthenticated);
    abort.abort();
    await it.return?.(undefined).catch(() => undefined);
    djStream.close();
    await djStream.done;
  }, 120_000);

  it("answers each of many joins of one room at once with its own admission (asked together, issue 29)", async () => {
    const owner = await account();
    const banned = await account();
    const users = [await account(), await account(), await account()];
    const room = (await h.client(RoomService, { token: owner.token }).createRoom({ name: `Crowd ${randomUUID()}` }))
      .room!;
    await h
      .client(RoomUserRoleService, { token: owner.token })
      .grantRoomRole({ roomId: room.uuid, userId: banned.uuid, role: "banned" });
    const abort = new AbortController();
    const tokens = [
      users[0]!.token,
      banned.token,
      await h.tokens.guest(),
      users[1]!.token,
      owner.token,
      await h.tokens.guest(),
      users[2]!.token,
    ];
    const firsts = await Promise.allSettled(
      tokens.map(async (token) => {
        const stream = h.client(StageService, { token }).join({ room: room.uuid }, { signal: abort.signal });
        const it = stream[Symbol.asyncIterator]();
        return (await it.next()).value?.kind.case;
      }),
    );
    abort.abort();
    expect(firsts.map((f) => (f.status === "fulfilled" ? f.value : ConnectError.from(f.reason).rawMessage))).toEqual([
      "state",
      "You are banned from this room",
      "state",
      "state",
      "state",
      "state",
      "state",
    ]);
  });

  it("routes direct-message events to every open stream of their user only (one subscription per instance)", async () => {
    const owner = await account();
    const friend = await account();
    const room = (await h.client(RoomService, { token: owner.token }).createRoom({ name: `DM ${randomUUID()}` })).room!;
    const a = watch(owner.token, room.uuid);
    const b = watch(owner.token, room.uuid);
    const c = watch(friend.token, room.uuid);
    await c.until((s) => (s.listeners?.users ?? 0) === 2);
    await h.bus.publish(
      chatUserSubject(owner.uuid),
      toBinary(
        ChatEventSchema,
        create(ChatEventSchema, { kind: { case: "created", value: { message: "just for the owner" } } }),
      ),
    );
    await h.bus.publish(
      chatUserSubject(friend.uuid),
      toBinary(
        ChatEventSchema,
        create(ChatEventSchema, { kind: { case: "created", value: { message: "for friend" } } }),
      ),
    );
    const chats = (w: ReturnType<typeof watch>) =>
      w.messages.flatMap((m) =>
        m.kind.case === "chat" && m.kind.value.kind.case === "created" ? [m.kind.value.kind.value.message] : [],
      );
    const deadline = Date.now() + 15_000;
    while ((chats(a).length < 1 || chats(b).length < 1 || chats(c).length < 1) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(chats(a)).toEqual(["just for the owner"]);
    expect(chats(b)).toEqual(["just for the owner"]);
    expect(chats(c)).toEqual(["for friend"]);
    for (const w of [a, b, c]) w.close();
    await Promise.all([a.done, b.done, c.done]);
  });

  it("plays a song longer than a Node timer can hold without an overflowing timer", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on("warning", onWarning);
    try {
      const owner = await account();
      const room = (await h.client(RoomService, { token: owner.token }).createRoom({ name: `Long ${randomUUID()}` }))
        .room!;
      // About 11,400 years: 3.6e14 ms, the figure the fuzz run's warning named.
      await queueSongs(owner.token, [3.6e11]);
      const stream = watch(owner.token, room.uuid);
      await stream.until((s) => (s.listeners?.users ?? 0) === 1);
      await h.client(StageService, { token: owner.token }).takeSeat({ room: room.uuid });
      await stream.until((s) => s.play?.djUuid === owner.uuid);
      // Another listener: the driver evaluates the room again (presence) after it armed the song's timer.
      const second = watch(await h.tokens.guest(), room.uuid);
      await stream.until((s) => (s.listeners?.guests ?? 0) === 1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.startsWith("TimeoutOverflowWarning"))).toEqual([]);
      expect(stream.stage().play?.djUuid).toBe(owner.uuid);
      for (const w of [stream, second]) w.close();
      await Promise.all([stream.done, second.done]);
    } finally {
      process.off("warning", onWarning);
    }
  }, 120_000);

  it("vote-skip waits for three listeners besides the DJ and announces the skip to the room and the DJ", async () => {
    const dj = await account();
    const [l1, l2, l3] = [await account(), await account(), await account()];
    const room = (await h.client(RoomService, { token: dj.token }).createRoom({ name: `Skip ${randomUUID()}` })).room!;
    await queueSongs(dj.token, [300, 300]);
    const stage = (token: string) => h.client(StageService, { token });
    const djStream = watch(dj.token, room.uuid);
    const s1 = watch(l1.token, room.uuid);
    await s1.until((s) => (s.listeners?.users ?? 0) >= 2);
    await stage(dj.token).takeSeat({ room: room.uuid });
    const alone = await s1.until((s) => s.play?.djUuid === dj.uuid);
    expect(alone.voteSkip).toMatchObject({ enabled: true, active: false, minListeners: 3 });
    // One listener alone with the DJ: a dislike is counted and the song plays on.
    const disliked = await stage(l1.token).dislike({ room: room.uuid, playId: alone.play!.playId });
    expect(disliked.stage!.play?.playId).toBe(alone.play!.playId);
    expect(disliked.stage!.voteSkip!.dislikes).toBe(1);

    const s2 = watch(l2.token, room.uuid);
    const s3 = watch(l3.token, room.uuid);
    const full = await s3.until((s) => (s.listeners?.users ?? 0) >= 4 && s.voteSkip?.active === true);
    expect(full.voteSkip!.threshold).toBe(2);
    expect(full.play?.playId).toBe(alone.play!.playId);
    await stage(l2.token).dislike({ room: room.uuid, playId: alone.play!.playId });
    await s3.until((s) => s.play?.playId !== alone.play!.playId);

    const skipAnnounced = (messages: JoinResponse[]) =>
      messages.find((m) => m.kind.case === "activity" && m.kind.value.kind === RoomActivityKind.VOTE_SKIPPED);
    for (const stream of [djStream, s3, s1]) {
      await stream.until(() => skipAnnounced(stream.messages) !== undefined);
      const m = skipAnnounced(stream.messages)!;
      expect(m.kind.value).toMatchObject({ userUuid: dj.uuid, dislikes: 2, threshold: 2, likes: 0 });
    }
    // The DJ taking the seat was announced too.
    expect(
      s1.messages.some((m) => m.kind.case === "activity" && m.kind.value.kind === RoomActivityKind.SEAT_TAKEN),
    ).toBe(true);
    for (const stream of [djStream, s1, s2, s3]) stream.close();
    await Promise.all([djStream.done, s1.done, s2.done, s3.done]);
  });

  it('lists the public rooms a user is in now (a profile\'s "in <room> now"), never a private one', async () => {
    const owner = await account();
    const listener = await account();
    const rooms = h.client(RoomService, { token: owner.token });
    const open = (await rooms.createRoom({ name: `Open ${randomUUID()}` })).room!;
    const hidden = (await rooms.createRoom({ name: `Hidden ${randomUUID()}`, type: "PRIVATE" })).room!;
    await h
      .client(RoomUserRoleService, { token: owner.token })
      .grantRoomRole({ roomId: hidden.uuid, userId: listener.uuid, role: "dj" });
    const guest = await h.tokens.guest();
    const ask = (token: string) => h.client(StageService, { token }).listUserRooms({ user: listener.uuid });
    expect((await ask(guest)).rooms).toEqual([]);

    const inOpen = watch(listener.token, open.uuid);
    const inHidden = watch(listener.token, hidden.uuid);
    await inOpen.until((s) => (s.listeners?.users ?? 0) === 1);
    await inHidden.until((s) => (s.listeners?.users ?? 0) === 1);
    // Presence is written across instances a moment after the join: asked until it shows.
    await expect
      .poll(async () => (await ask(guest)).rooms.map((r) => r.roomUuid), { timeout: 10_000, interval: 100 })
      .toEqual([open.uuid]);
    const [only] = (await ask(owner.token)).rooms;
    expect(only).toMatchObject({ roomUuid: open.uuid, slug: open.slug, name: open.name });
    expect(only!.joinedAt).toBeDefined();
    // The private room is left out even for the user themself: the list is the same for every caller.
    expect((await ask(listener.token)).rooms.map((r) => r.roomUuid)).toEqual([open.uuid]);

    inOpen.close();
    await inOpen.done;
    await expect.poll(async () => (await ask(guest)).rooms, { timeout: 20_000, interval: 100 }).toEqual([]);
    inHidden.close();
    await inHidden.done;

    expect(await codeAndMessageOf(h.client(StageService, { token: guest }).listUserRooms({ user: "nobody" }))).toEqual([
      Code.InvalidArgument,
      expect.stringContaining("user"),
    ]);
  });

  it("lists the public rooms live now with their listeners, DJs and song, never a private one", async () => {
    const owner = await account();
    const rooms = h.client(RoomService, { token: owner.token });
    const open = (await rooms.createRoom({ name: `Live ${randomUUID()}` })).room!;
    const hidden = (await rooms.createRoom({ name: `Hidden ${randomUUID()}`, type: "PRIVATE" })).room!;
    const guest = await h.tokens.guest();
    const live = h.client(StageService, { token: guest });
    const asked = async () => (await live.listLiveRooms({ roomUuids: [open.uuid, hidden.uuid] })).rooms;
    expect(await asked()).toEqual([]);

    await queueSongs(owner.token, [600]);
    const inOpen = watch(owner.token, open.uuid);
    const inHidden = watch(owner.token, hidden.uuid);
    await inOpen.until((s) => (s.listeners?.users ?? 0) === 1);
    await inHidden.until((s) => (s.listeners?.users ?? 0) === 1);
    await h.client(StageService, { token: owner.token }).takeSeat({ room: open.uuid });
    await inOpen.until((s) => s.play !== undefined);

    const [only, ...rest] = await asked();
    expect(rest).toEqual([]);
    expect(only!.room).toMatchObject({ uuid: open.uuid, slug: open.slug, name: open.name });
    expect(only!.listeners).toMatchObject({ users: 1, guests: 0 });
    expect(only!.djUuids).toEqual([owner.uuid]);
    expect(only!.play?.song?.artistName).toBe("Stage Test");
    // The whole list is a scan made at most every few seconds: the room shows once the scan is that recent.
    await expect
      .poll(async () => (await live.listLiveRooms({})).rooms.map((r) => r.room!.uuid), {
        timeout: 15_000,
        interval: 250,
      })
      .toContain(open.uuid);
    expect((await live.listLiveRooms({ limit: 50 })).rooms.map((r) => r.room!.uuid)).not.toContain(hidden.uuid);

    inOpen.close();
    inHidden.close();
    await Promise.all([inOpen.done, inHidden.done]);
    expect(await codeAndMessageOf(live.listLiveRooms({ limit: 51 }))).toEqual([
      Code.InvalidArgument,
      expect.stringContaining("limit"),
    ]);
    expect(await codeAndMessageOf(live.listLiveRooms({ roomUuids: ["nobody"] }))).toEqual([
      Code.InvalidArgument,
      expect.stringContaining("roomUuids"),
    ]);
  });

  it("answers the clock and refuses unknown rooms", async () => {
    const res = await h.client(StageService).getClock({ clientTime: timestampFromDate(new Date()) });
    expect(res.receiveTime).toBeDefined();
    expect(res.clientTime).toBeDefined();
    const token = await h.tokens.user();
    expect(await codeAndMessageOf(h.client(StageService, { token }).getStage({ room: "no-such-room" }))).toEqual([
      Code.NotFound,
      "Room not found",
    ]);
  });
});
