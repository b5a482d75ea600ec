// ChatService against real PostgreSQL and NATS, with the user, room and playlist services in the same host (the
// chat asks them who people are, their roles, friends and follows). ChatEvents are read from the bus's subjects.
import { randomUUID } from "node:crypto";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AGGREGATE_ID_HEADER,
  EVENT_ID_HEADER,
  ProcessedEventSchema,
  processedEventsMigration,
  throttleMigration,
  ThrottleWindowSchema,
  type ServiceDefinition,
  type Subscription,
} from "@tt/kit";
import {
  createServiceHarness,
  eventually,
  type FakeServer,
  type ServiceHarness,
  startFakeServer,
  refusalOf,
} from "@tt/kit/testing";
import { ConsumablePurchasedSchema } from "@tt/proto/tt/merch/v1/events_pb";
import { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { BlockedUserService } from "@tt/proto/tt/room/v1/blocked_user_service_pb";
import { DjFanService } from "@tt/proto/tt/room/v1/dj_fan_service_pb";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { RoomUserRoleService } from "@tt/proto/tt/room/v1/room_user_role_service_pb";
import { type ChatEvent, ChatEventSchema } from "@tt/proto/tt/social/v1/chat_pb";
import { ChatService } from "@tt/proto/tt/social/v1/chat_service_pb";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { playlistServiceDefinition } from "@tt/playlist-service";
import { roomServiceDefinition } from "@tt/room-service";
import { userServiceDefinition } from "@tt/user-service";
import { chatRoomSubject, chatUserSubject } from "../subjects.ts";
import { chatEntities, chatMigrations, startChat } from "../modules/chat/index.ts";
import { chatRoutes } from "./chat.ts";
import { fakeSpotifyEnv } from "@tt/playlist-service/testing";

/** The chat alone as a service (the social service's other areas are not needed here). */
const chatDefinition: ServiceDefinition = {
  name: "social",
  services: [ChatService],
  // The chat's limits count in the service's throttle table (kit).
  entities: [...chatEntities, ProcessedEventSchema, ThrottleWindowSchema],
  migrations: [...chatMigrations, processedEventsMigration("social"), throttleMigration("social")],
  async create(deps) {
    const chat = await startChat(deps);
    return { routes: (router) => router.service(ChatService, chatRoutes(chat.context)), close: chat.close };
  },
};

let h: ServiceHarness;
/** Our web app's origin as the chat is configured with it: crate links there become playlist previews. */
const WEB_ORIGIN = "https://tt.example";
/** Spotify as the playlist service sees it: a track with an isrc, or without one ("noisrc…"). */
let spotify: FakeServer;
const subs: Subscription[] = [];

interface Account {
  uuid: string;
  token: string;
}

async function account(role: "user" | "bot" = "user"): Promise<Account> {
  const res = await h
    .client(AuthService)
    .signUp({ email: `${randomUUID()}@example.test`, password: "a-long-password-1" });
  const uuid = res.user!.uuid;
  return { uuid, token: await h.tokens.user(role, uuid) };
}

/** Collects the ChatEvents of a subject. */
async function listen(subject: string): Promise<ChatEvent[]> {
  const seen: ChatEvent[] = [];
  subs.push(await h.bus.subscribe(subject, (m) => void seen.push(fromBinary(ChatEventSchema, m.data))));
  return seen;
}

const chat = (a: Account) => h.client(ChatService, { token: a.token });
const text = (message: string, extra: Record<string, unknown> = {}) => ({ uuid: randomUUID(), message, ...extra });

let owner: Account;
let alice: Account;
let bob: Account;
let roomUuid: string;
let roomSlug: string;

beforeAll(async () => {
  spotify = await startFakeServer((req) => {
    if (req.path === "/api/token") return { status: 200, json: { access_token: "app", expires_in: 3600 } };
    if (req.path.startsWith("/v1/tracks/")) {
      const id = req.path.slice("/v1/tracks/".length);
      return {
        status: 200,
        json: {
          id,
          name: `Song ${id}`,
          duration_ms: 200_000,
          explicit: false,
          artists: [{ id: "artist-1", name: "The Artist" }],
          album: { name: "The Album", release_date: "2020-01-01", images: [{ url: "https://img.test/a.jpg" }] },
          external_ids: id.startsWith("noisrc") ? {} : { isrc: "GBABC2000001" },
          external_urls: { spotify: `https://open.spotify.com/track/${id}` },
        },
      };
    }
    return { status: 404, json: {} };
  });
  h = await createServiceHarness(chatDefinition, {
    alongside: [userServiceDefinition, roomServiceDefinition, playlistServiceDefinition],
    network: false,
    env: {
      ...fakeSpotifyEnv(spotify.url),
      SOCIAL_WEB_ORIGINS: WEB_ORIGIN,
      // This suite polls by sending (a role's expiry); the limits themselves are tests/e2e/rate-limits.e2e.test.ts's.
      SOCIAL_ROOM_MESSAGES_PER_WINDOW: "10000",
    },
  });
  [owner, alice, bob] = await Promise.all([account(), account(), account()]);
  const res = await h.client(RoomService, { token: owner.token }).createRoom({ name: `Chat ${randomUUID()}` });
  roomUuid = res.room!.uuid;
  roomSlug = res.room!.slug;
}, 120_000);

afterAll(async () => {
  await Promise.all(subs.map((s) => s.unsubscribe()));
  await h?.close();
  await spotify?.close();
});

describe("room messages", () => {
  it("are stored, answered with the sender's profile, listed oldest first and announced on the room's subject", async () => {
    const events = await listen(chatRoomSubject(roomUuid));
    const first = await chat(alice).sendRoomMessage({ room: roomSlug, message: text("hello room") });
    expect(first.message).toMatchObject({ message: "hello room", userUuid: alice.uuid, type: "user", roomUuid });
    expect(first.message!.userName).not.toBe("");
    expect(first.message!.avatarId).not.toBe("");
    const second = await chat(bob).sendRoomMessage({ room: roomUuid, message: text("hi alice") });
    expect(second.message!.id).toBeGreaterThan(first.message!.id);

    const guest = h.client(ChatService, { token: await h.tokens.guest() });
    const history = await guest.listRoomMessages({ room: roomSlug });
    const uuids = history.messages.map((m) => m.uuid);
    expect(uuids.indexOf(first.message!.uuid)).toBeLessThan(uuids.indexOf(second.message!.uuid));
    expect(history.roomUuid).toBe(roomUuid);

    const created = await eventually("the created events", async () =>
      events.filter((e) => e.kind.case === "created").length >= 2 ? events : undefined,
    );
    expect(created.map((e) => (e.kind.case === "created" ? e.kind.value.uuid : ""))).toEqual(
      expect.arrayContaining([first.message!.uuid, second.message!.uuid]),
    );
  });

  it("a retried send with the same uuid is stored once; another sender's uuid clash is a 409", async () => {
    const message = text("only once");
    const a = await chat(alice).sendRoomMessage({ room: roomUuid, message });
    const b = await chat(alice).sendRoomMessage({ room: roomUuid, message });
    expect(b.message!.id).toBe(a.message!.id);
    const history = await chat(alice).listRoomMessages({ room: roomUuid });
    expect(history.messages.filter((m) => m.uuid === message.uuid)).toHaveLength(1);
    expect((await refusalOf(chat(bob).sendRoomMessage({ room: roomUuid, message }))).code).toBe(Code.AlreadyExists);
  });

  it("refuses invalid messages with a 400 and guests' sends", async () => {
    const empty = await refusalOf(chat(alice).sendRoomMessage({ room: roomUuid, message: text("  ") }));
    expect(empty.code).toBe(Code.InvalidArgument);
    expect(empty.rawMessage).toBe("a message needs text, or an image and its media type");
    const noMedia = await refusalOf(
      chat(alice).sendRoomMessage({
        room: roomUuid,
        message: { uuid: randomUUID(), imageUrls: ["https://img.example/a.png"] },
      }),
    );
    expect(noMedia.code).toBe(Code.InvalidArgument);
    const notPng = await refusalOf(
      chat(alice).sendRoomMessage({
        room: roomUuid,
        message: {
          uuid: randomUUID(),
          imageBase64: Buffer.from("not an image").toString("base64"),
          media: "image/png",
        },
      }),
    );
    expect(notPng.rawMessage).toBe("imageBase64 is not an image of the given media type");
    const guest = h.client(ChatService, { token: await h.tokens.guest() });
    // The access option names no guest token: the kit's access interceptor refuses it before the handler.
    expect((await refusalOf(guest.sendRoomMessage({ room: roomUuid, message: text("hi") }))).code).toBe(
      Code.Unauthenticated,
    );
    expect((await refusalOf(chat(alice).sendRoomMessage({ room: "no-such-room-x", message: text("hi") }))).code).toBe(
      Code.NotFound,
    );
  });

  it("music links that resolve to a song with an isrc become song cards (002 §5); others stay text", async () => {
    const res = await chat(alice).sendRoomMessage({
      room: roomUuid,
      message: text(
        "listen https://open.spotify.com/track/card1 and https://open.spotify.com/track/noisrc1 and https://example.com/x",
      ),
    });
    expect(res.message!.songs).toHaveLength(1);
    expect(res.message!.songs[0]!.trackInfo).toMatchObject({
      title: "Song card1",
      isrc: "GBABC2000001",
      user: expect.objectContaining({ name: "The Artist" }),
    });
    expect(res.message!.songs[0]!.type).toBe("ChatMusicInfo");
    // A message with a song card is not plain text: not editable.
    expect((await refusalOf(chat(alice).editMessage({ uuid: res.message!.uuid, message: "x" }))).code).toBe(
      Code.PermissionDenied,
    );
  });

  it("a crate link of our web origin becomes a playlist preview, in the answer, the history and the live event", async () => {
    const crates = h.client(CrateService, { token: alice.token });
    const crate = (await crates.createCrate({ crateName: "Friday mix" })).crate!;
    await crates.addCrateSongs({
      crateUuid: crate.crateUuid,
      songs: [1, 2, 3, 4].map((n) => ({
        trackName: `Mix Track ${n}`,
        artistName: "Mix Artist",
        duration: 180,
        musicProviders: { spotify: `mix-${n}-${randomUUID()}` },
        thumbnails: { spotify: `https://img.test/mix-${n}.jpg` },
      })),
    });
    const events = await listen(chatRoomSubject(roomUuid));
    const sent = await chat(alice).sendRoomMessage({
      room: roomUuid,
      message: text(`my crate: ${WEB_ORIGIN}/crates/${crate.crateUuid}.`),
    });
    const aliceName = sent.message!.userName;
    expect(sent.message!.playlist).toMatchObject({
      crateUuid: crate.crateUuid,
      crateName: "Friday mix",
      userUuid: alice.uuid,
      userName: aliceName,
      totalSongs: 4,
      provider: "",
      isCurrentUserPlaylist: true,
    });
    expect(sent.message!.playlist!.thumbnails).toContain("https://img.test/mix-1.jpg");
    expect(sent.message!.playlist!.songs.map((s) => [s.title, s.artist, s.artwork])).toEqual([
      ["Mix Track 1", "Mix Artist", "https://img.test/mix-1.jpg"],
      ["Mix Track 2", "Mix Artist", "https://img.test/mix-2.jpg"],
      ["Mix Track 3", "Mix Artist", "https://img.test/mix-3.jpg"],
    ]);
    // Bob reads it from the history: not his playlist.
    const seen = (await chat(bob).listRoomMessages({ room: roomUuid })).messages.find(
      (m) => m.uuid === sent.message!.uuid,
    );
    expect(seen!.playlist).toMatchObject({
      crateName: "Friday mix",
      userName: aliceName,
      isCurrentUserPlaylist: false,
    });
    const live = await eventually("the created event", async () =>
      events.find((e) => e.kind.case === "created" && e.kind.value.uuid === sent.message!.uuid),
    );
    expect(live.kind.case === "created" && live.kind.value.playlist).toMatchObject({
      crateUuid: crate.crateUuid,
      totalSongs: 4,
      isCurrentUserPlaylist: false,
    });
    // A message with a playlist preview is not plain text: not editable.
    expect((await refusalOf(chat(alice).editMessage({ uuid: sent.message!.uuid, message: "x" }))).code).toBe(
      Code.PermissionDenied,
    );

    // Another origin, a special crate (private to its owner), an unknown crate: the link stays text, the message is sent.
    const queue = (await crates.getQueue({})).crate!;
    for (const link of [
      `https://elsewhere.example/crates/${crate.crateUuid}`,
      `${WEB_ORIGIN}/crates/${queue.crateUuid}`,
      `${WEB_ORIGIN}/crates/${randomUUID()}`,
    ]) {
      const plain = await chat(bob).sendRoomMessage({ room: roomUuid, message: text(`look ${link}`) });
      expect(plain.message!.playlist).toBeUndefined();
      expect(plain.message!.message).toBe(`look ${link}`);
    }
  });

  it("an image with its media type is a valid message without text", async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]).toString("base64");
    const res = await chat(alice).sendRoomMessage({
      room: roomUuid,
      message: { uuid: randomUUID(), imageBase64: png, media: "image/png" },
    });
    expect(res.message).toMatchObject({ imageBase64: png, media: "image/png", message: "" });
  });

  it("edits only the sender's latest plain-text message within 20 seconds", async () => {
    const events = await listen(chatRoomSubject(roomUuid));
    const sent = await chat(alice).sendRoomMessage({ room: roomUuid, message: text("typo") });
    const edited = await chat(alice).editMessage({ uuid: sent.message!.uuid, message: "fixed" });
    expect(edited.message).toMatchObject({ message: "fixed", uuid: sent.message!.uuid });
    expect(edited.message!.editedAt).toBeDefined();
    await eventually("the edited event", async () => events.find((e) => e.kind.case === "edited"));

    expect((await refusalOf(chat(bob).editMessage({ uuid: sent.message!.uuid, message: "mine" }))).code).toBe(
      Code.PermissionDenied,
    );
    await chat(alice).sendRoomMessage({ room: roomUuid, message: text("newer") });
    const notLatest = await refusalOf(chat(alice).editMessage({ uuid: sent.message!.uuid, message: "again" }));
    expect(notLatest.rawMessage).toBe("only your latest plain-text message can be edited within 20 seconds");

    const old = await chat(alice).sendRoomMessage({ room: roomUuid, message: text("old") });
    await h.orm.em
      .fork()
      .execute(`update "social"."chat_message" set "created_at" = now() - interval '21 seconds' where "uuid" = ?`, [
        old.message!.uuid,
      ]);
    expect((await refusalOf(chat(alice).editMessage({ uuid: old.message!.uuid, message: "late" }))).code).toBe(
      Code.PermissionDenied,
    );
  });

  it("toggles reactions and replies with a snapshot of the message answered", async () => {
    const sent = await chat(alice).sendRoomMessage({ room: roomUuid, message: text("react to me") });
    const uuid = sent.message!.uuid;
    const on = await chat(bob).toggleReaction({ uuid, emoji: "🔥" });
    expect(on.added).toBe(true);
    expect(on.message!.reactions["🔥"]!.users.map((u) => u.userUuid)).toEqual([bob.uuid]);
    await chat(alice).toggleReaction({ uuid, emoji: "🔥" });
    const off = await chat(bob).toggleReaction({ uuid, emoji: "🔥" });
    expect(off.added).toBe(false);
    expect(off.message!.reactions["🔥"]!.users.map((u) => u.userUuid)).toEqual([alice.uuid]);

    const reply = await chat(bob).sendRoomMessage({ room: roomUuid, message: text("a reply", { replyTo: uuid }) });
    expect(reply.message!.replies).toEqual([
      expect.objectContaining({ uuid, userUuid: alice.uuid, message: "react to me" }),
    ]);
  });

  it("a reported message is hidden from its reporter only; moderators see the reports", async () => {
    const hidden = await listen(chatUserSubject(bob.uuid));
    const sent = await chat(alice).sendRoomMessage({ room: roomUuid, message: text("rude") });
    const uuid = sent.message!.uuid;
    expect((await chat(bob).reportMessage({ uuid, reason: "rude" })).reportIdentifier).toBe(uuid);
    await chat(bob).reportMessage({ uuid, reason: "twice" });
    expect((await chat(bob).listRoomMessages({ room: roomUuid })).messages.map((m) => m.uuid)).not.toContain(uuid);
    const forOthers = (await chat(alice).listRoomMessages({ room: roomUuid })).messages.find((m) => m.uuid === uuid);
    expect(forOthers?.reportCount).toBe(0);
    const forOwner = (await chat(owner).listRoomMessages({ room: roomUuid })).messages.find((m) => m.uuid === uuid);
    expect(forOwner?.reportCount).toBe(1);
    const reports = await chat(owner).listRoomReports({ room: roomUuid });
    expect(reports.messages.find((r) => r.message!.uuid === uuid)?.reports.map((r) => r.reporterUuid)).toEqual([
      bob.uuid,
    ]);
    expect((await refusalOf(chat(alice).listRoomReports({ room: roomUuid }))).code).toBe(Code.PermissionDenied);
    expect((await refusalOf(chat(alice).reportMessage({ uuid }))).rawMessage).toBe(
      "you cannot report your own message",
    );
    await eventually("the hidden event", async () => hidden.find((e) => e.kind.case === "reportedHidden"));
  });

  it("moderators delete any message of the room, others only their own", async () => {
    const sent = await chat(alice).sendRoomMessage({ room: roomUuid, message: text("delete me") });
    const uuid = sent.message!.uuid;
    expect((await refusalOf(chat(bob).deleteMessage({ uuid }))).rawMessage).toBe("only moderators can delete messages");
    await chat(owner).deleteMessage({ uuid });
    expect((await chat(alice).listRoomMessages({ room: roomUuid })).messages.map((m) => m.uuid)).not.toContain(uuid);
    expect((await refusalOf(chat(owner).deleteMessage({ uuid }))).code).toBe(Code.NotFound);
  });

  it("chatDisabled stops a user's messages while it is in effect; banned users cannot write", async () => {
    const carol = await account();
    const roles = h.client(RoomUserRoleService, { token: owner.token });
    await roles.grantRoomRole({ roomId: roomUuid, userId: carol.uuid, role: "chatDisabled" });
    const off = await refusalOf(chat(carol).sendRoomMessage({ room: roomUuid, message: text("hi") }));
    expect(off.code).toBe(Code.PermissionDenied);
    expect(off.rawMessage).toBe("chat is disabled for you in this room");
    await roles.removeRoomRole({ roomId: roomUuid, userId: carol.uuid, role: "chatDisabled" });
    await chat(carol).sendRoomMessage({ room: roomUuid, message: text("back") });

    // An expiry: the role stops at its end without anyone removing it (002 §4).
    const end = new Date(Date.now() + 1500);
    await roles.grantRoomRole({
      roomId: roomUuid,
      userId: carol.uuid,
      role: "chatDisabled",
      expiresAt: timestampFromDate(end),
    });
    await refusalOf(chat(carol).sendRoomMessage({ room: roomUuid, message: text("too early") }));
    await eventually("the chatDisabled role to expire", () =>
      chat(carol)
        .sendRoomMessage({ room: roomUuid, message: text("after the expiry") })
        .then(
          (r) => r,
          () => undefined,
        ),
    );
    expect(Date.now()).toBeGreaterThanOrEqual(end.getTime());

    await roles.grantRoomRole({ roomId: roomUuid, userId: carol.uuid, role: "banned" });
    expect((await refusalOf(chat(carol).sendRoomMessage({ room: roomUuid, message: text("x") }))).rawMessage).toBe(
      "you are banned from this room",
    );
  });
});

describe("issue 28: the room's chat sequence", () => {
  it("every change of a room's chat takes the room's next number, concurrent sends included; the history answers the latest", async () => {
    const room = (await h.client(RoomService, { token: owner.token }).createRoom({ name: `Seq ${randomUUID()}` }))
      .room!;
    const events = await listen(chatRoomSubject(room.uuid));
    expect((await chat(alice).listRoomMessages({ room: room.uuid })).chatSequence).toBe(0n);
    // Twelve sends at once from two people: each its own request and database connection, as from two instances.
    const sent = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        chat(i % 2 === 0 ? alice : bob).sendRoomMessage({ room: room.uuid, message: text(`burst ${i}`) }),
      ),
    );
    // A retried send stores nothing and takes no number.
    const again = sent[0]!.message!;
    await chat(alice).sendRoomMessage({ room: room.uuid, message: { uuid: again.uuid, message: again.message } });
    const mine = sent.find((s) => s.message!.userUuid === alice.uuid)!.message!;
    await chat(bob).toggleReaction({ uuid: mine.uuid, emoji: "🔥" });
    // Only the sender's latest message can be edited: the one stored last, whatever order the sends arrived in.
    const latest = sent
      .map((s) => s.message!)
      .filter((m) => m.userUuid === alice.uuid)
      .reduce((a, b) => (b.id > a.id ? b : a));
    await chat(alice).editMessage({ uuid: latest.uuid, message: "burst edited" });
    await chat(alice).deleteMessage({ uuid: mine.uuid });
    // A direct message is no room's change: no number.
    const dms = await listen(chatUserSubject(bob.uuid));
    await chat(alice).sendDirectMessage({ user: bob.uuid, message: text("psst") });

    const history = await chat(bob).listRoomMessages({ room: room.uuid });
    expect(history.chatSequence).toBe(15n);
    expect(history.messages).toHaveLength(11);
    const seen = await eventually("the room's 15 events", async () => (events.length >= 15 ? events : undefined));
    expect(seen.map((e) => e.sequence).sort((a, b) => Number(a - b))).toEqual(
      Array.from({ length: 15 }, (_, i) => BigInt(i + 1)),
    );
    const byKind = (kind: string) => seen.filter((e) => e.kind.case === kind).map((e) => e.sequence);
    expect(byKind("created")).toHaveLength(12);
    expect(byKind("reactionsChanged")).toEqual([13n]);
    expect(byKind("edited")).toEqual([14n]);
    expect(byKind("deleted")).toEqual([15n]);
    const dm = await eventually("the direct message's event", async () => dms.find((e) => e.kind.case === "created"));
    expect(dm.sequence).toBe(0n);
  });
});

describe("direct messages", () => {
  it("are delivered to both people, grouped, counted unread until read", async () => {
    const dave = await account();
    const erin = await account();
    const daveEvents = await listen(chatUserSubject(dave.uuid));
    const erinEvents = await listen(chatUserSubject(erin.uuid));
    const sent = await chat(dave).sendDirectMessage({ user: erin.uuid, message: text("psst") });
    expect(sent.message).toMatchObject({ userUuid: dave.uuid, receiverUuid: erin.uuid, roomUuid: "" });
    await chat(dave).sendDirectMessage({ user: erin.uuid, message: text("again") });
    await eventually("both people's events", async () =>
      daveEvents.length >= 2 && erinEvents.length >= 2 ? true : undefined,
    );

    let list = await chat(erin).listConversations({});
    expect(list.conversations).toHaveLength(1);
    expect(list.conversations[0]).toMatchObject({ peerUuid: dave.uuid, group: "OTHERS", unreadCount: 2 });
    expect(list.conversations[0]!.lastMessage!.message).toBe("again");
    expect(list.unread).toEqual({ FRIENDS: 0, OTHERS: 2, UNSET: 0 });

    // Followed DJs count as friends (002 §6).
    await h.client(DjFanService, { token: erin.token }).followDj({ djId: dave.uuid });
    list = await chat(erin).listConversations({ group: "FRIENDS" });
    expect(list.conversations.map((c) => c.peerUuid)).toEqual([dave.uuid]);
    expect(list.unread.FRIENDS).toBe(2);

    await chat(erin).markConversationRead({ user: dave.uuid });
    list = await chat(erin).listConversations({});
    expect(list.conversations[0]!.unreadCount).toBe(0);
    expect((await chat(dave).listConversations({})).conversations[0]!.unreadCount).toBe(0);

    const history = await chat(erin).listDirectMessages({ user: dave.uuid });
    expect(history.messages.map((m) => m.message)).toEqual(["psst", "again"]);
    // A third person sees nothing of it.
    expect((await chat(alice).listDirectMessages({ user: dave.uuid })).messages).toEqual([]);
    expect((await refusalOf(chat(alice).toggleReaction({ uuid: sent.message!.uuid, emoji: "👍" }))).code).toBe(
      Code.NotFound,
    );
  });

  it("a crate link becomes a playlist preview there too; a retried send answers the same message", async () => {
    const hana = await account();
    const ivan = await account();
    const crate = (await h.client(CrateService, { token: ivan.token }).createCrate({ crateName: "Ivan's" })).crate!;
    const message = text(`${WEB_ORIGIN}/crates/${crate.crateUuid}`);
    const sent = await chat(hana).sendDirectMessage({ user: ivan.uuid, message });
    expect(sent.message!.playlist).toMatchObject({
      crateName: "Ivan's",
      userUuid: ivan.uuid,
      totalSongs: 0,
      isCurrentUserPlaylist: false,
    });
    const again = await chat(hana).sendDirectMessage({ user: ivan.uuid, message });
    expect(again.message!.id).toBe(sent.message!.id);
    const read = await chat(ivan).listDirectMessages({ user: hana.uuid });
    expect(read.messages.map((m) => [m.playlist?.crateName, m.playlist?.isCurrentUserPlaylist])).toEqual([
      ["Ivan's", true],
    ]);
  });

  it("are refused between people when one blocked the other, and to oneself", async () => {
    const frank = await account();
    const gina = await account();
    await chat(frank).sendDirectMessage({ user: gina.uuid, message: text("before") });
    await h.client(BlockedUserService, { token: gina.token }).blockUser({ blockedUserId: frank.uuid });
    const err = await eventually("the block to reach the chat", () =>
      chat(frank)
        .sendDirectMessage({ user: gina.uuid, message: text("after") })
        .then(
          () => undefined,
          (e: unknown) => ConnectError.from(e),
        ),
    );
    expect(err.rawMessage).toBe("you cannot message this user");
    expect((await refusalOf(chat(frank).sendDirectMessage({ user: frank.uuid, message: text("me") }))).code).toBe(
      Code.InvalidArgument,
    );
    expect(
      (await refusalOf(chat(frank).sendDirectMessage({ user: randomUUID(), message: text("nobody") }))).rawMessage,
    ).toBe("user not found");
  });
});

describe("events from other services", () => {
  it("a consumable bought in a room appears in its chat once, however often the event comes", async () => {
    const purchaseId = randomUUID();
    const event = create(ConsumablePurchasedSchema, {
      purchaseId,
      roomUuid,
      userUuid: alice.uuid,
      consumableId: "confetti",
      consumableName: "Confetti",
      tokenCost: 5,
      fileUrl: "https://cdn.example/confetti.json",
    });
    for (let i = 0; i < 2; i++) {
      await h.bus.publishDurable("tt.merch.purchase.created", toBinary(ConsumablePurchasedSchema, event), {
        headers: { [EVENT_ID_HEADER]: randomUUID(), [AGGREGATE_ID_HEADER]: purchaseId },
      });
    }
    const found = await eventually("the consumable message", async () => {
      const list = await chat(bob).listRoomMessages({ room: roomUuid });
      const hits = list.messages.filter((m) => m.consumable?.purchaseId === purchaseId);
      return hits.length > 0 ? hits : undefined;
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ type: "room", userUuid: alice.uuid });
    expect(found[0]!.consumable).toMatchObject({ name: "Confetti", tokenCost: 5 });
  });

  it("DELETE /rooms/conversation/{id} clears the room's chat and announces it", async () => {
    const events = await listen(chatRoomSubject(roomUuid));
    await chat(alice).sendRoomMessage({ room: roomUuid, message: text("soon gone") });
    await h.client(RoomService, { token: owner.token }).clearConversation({ id: roomUuid });
    const cleared = await eventually("the cleared event", async () => events.find((e) => e.kind.case === "cleared"));
    // Announced after its commit, with the room's next chat sequence (issue 28).
    const head = (await chat(alice).listRoomMessages({ room: roomUuid })).chatSequence;
    expect(cleared.sequence).toBe(head);
    expect(head).toBeGreaterThan(0n);
    expect((await chat(alice).listRoomMessages({ room: roomUuid })).messages).toEqual([]);
    const after = await chat(alice).sendRoomMessage({ room: roomUuid, message: text("fresh start") });
    expect((await chat(alice).listRoomMessages({ room: roomUuid })).messages.map((m) => m.uuid)).toEqual([
      after.message!.uuid,
    ]);
  });
});
