import { randomUUID } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import type { ServiceHarness } from "@tt/kit/testing";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { AdminService } from "@tt/proto/tt/room/v1/admin_service_pb";
import { RoomUserRoleService } from "@tt/proto/tt/room/v1/room_user_role_service_pb";
import { OutboxMessage } from "@tt/kit";
import { account, roomOf, startRoomHarness, type Account } from "../testing/room-harness.ts";
import { refusalParts } from "../testing/refusal.ts";
import { STAGE_ADMISSIONS_MAX } from "./rooms.ts";

let h: ServiceHarness;
let owner: Account;
let other: Account;

beforeAll(async () => {
  h = await startRoomHarness({ ROOM_RECENT_VISITS_KEPT: "3" });
  owner = await account(h);
  other = await account(h);
});
afterAll(() => h?.close());

const rooms = (token?: string) => h.client(RoomService, token ? { token } : {});

describe("creating and reading rooms", () => {
  it("creates a room with the defaults and a slug from its name, announced as created", async () => {
    const name = `Sunday Club ${randomUUID().slice(0, 8)}`;
    const room = (await rooms(owner.token).createRoom({ name })).room!;
    expect(room).toMatchObject({
      name,
      ownerUuid: owner.uuid,
      type: "PUBLIC",
      design: "CLUB",
      djType: "EVERYONE",
      numberOfDjs: 5,
      hasGuestPassword: false,
    });
    expect(room.slug).toBe(name.toLowerCase().replace(/ /g, "-"));
    const events = await h.orm.em.fork().find(OutboxMessage, {});
    expect(events.some((e) => e.subject === "tt.room.room.created")).toBe(true);
    await expect(rooms(other.token).getRoom({ id: room.slug })).resolves.toMatchObject({ room: { uuid: room.uuid } });
    await expect(rooms(other.token).getRoomByUuid({ uuid: room.uuid })).resolves.toMatchObject({
      room: { slug: room.slug },
    });
  });

  it("gives a second room of the same name the next slug", async () => {
    const name = `Twin ${randomUUID().slice(0, 8)}`;
    const a = (await rooms(owner.token).createRoom({ name })).room!;
    const b = (await rooms(other.token).createRoom({ name })).room!;
    expect(b.slug).toBe(`${a.slug}-2`);
  });

  it("creates twenty rooms of one name at once, each with a slug of its own (issue 23: the fifth lost race was a 409)", async () => {
    const name = `Crowd ${randomUUID().slice(0, 8)}`;
    const made = await Promise.all(Array.from({ length: 20 }, () => rooms(owner.token).createRoom({ name })));
    const slugs = made.map((r) => r.room!.slug);
    expect(new Set(slugs).size).toBe(20);
    expect(slugs).toContain(name.toLowerCase().replace(/ /g, "-"));
  });

  it("refuses bad settings with a 400 naming the field", async () => {
    expect(await refusalParts(rooms(owner.token).createRoom({ name: "x", design: "DISCO" }))).toMatchObject({
      code: Code.InvalidArgument,
      message: expect.stringContaining("design"),
    });
    expect(await refusalParts(rooms(owner.token).createRoom({ name: "x", numberOfDjs: 11 }))).toMatchObject({
      code: Code.InvalidArgument,
      message: expect.stringContaining("numberOfDjs"),
    });
    expect(
      await refusalParts(rooms(owner.token).createRoom({ name: "x", externalUrl: "javascript:alert(1)" })),
    ).toMatchObject({
      code: Code.InvalidArgument,
      message: "externalUrl must be an http or https URL",
    });
    expect(await refusalParts(rooms(owner.token).createRoom({ name: "" }))).toMatchObject({
      code: Code.InvalidArgument,
    });
  });

  it("answers 404 for an unknown room", async () => {
    expect(await refusalParts(rooms(owner.token).getRoom({ id: randomUUID() }))).toEqual({
      code: Code.NotFound,
      message: "Room not found",
    });
  });

  it("lists public rooms paged, mine, owned, multiple, private count", async () => {
    const mine = await account(h);
    const pub = await roomOf(h, mine);
    const priv = await roomOf(h, mine, { type: "PRIVATE" });
    const page = await rooms(mine.token).listPublicRooms({ limit: 1, offset: 0 });
    expect(page.rooms).toHaveLength(1);
    expect(page.total).toBeGreaterThanOrEqual(1);
    const all = await rooms(mine.token).listPublicRooms({ limit: 100, search: pub.name });
    expect(all.rooms.map((r) => r.uuid)).toEqual([pub.uuid]);
    expect((await rooms(mine.token).listOwnedRooms({})).rooms.map((r) => r.uuid).sort()).toEqual(
      [pub.uuid, priv.uuid].sort(),
    );
    expect((await rooms(mine.token).listMyRooms({})).total).toBe(2);
    expect((await rooms(other.token).listOwnedRooms({})).rooms.map((r) => r.uuid)).not.toContain(pub.uuid);
    const multi = await rooms(mine.token).listMultipleRooms({ room: [pub.uuid, randomUUID(), priv.uuid] });
    expect(multi.rooms.map((r) => r.uuid)).toEqual([pub.uuid, priv.uuid]);
    expect((await rooms(mine.token).getPrivateRoomCount({})).count).toBeGreaterThanOrEqual(1);
    expect(await refusalParts(rooms(mine.token).listPublicRooms({ limit: 1000 }))).toMatchObject({
      code: Code.InvalidArgument,
      message: "limit must be between 1 and 100",
    });
  });

  it("lists rooms for services with take and skip", async () => {
    const token = await h.tokens.service("live");
    const res = await rooms(token).serviceListRooms({ take: 2, skip: 0 });
    expect(res.rooms.length).toBeLessThanOrEqual(2);
    expect(res.total).toBeGreaterThanOrEqual(res.rooms.length);
  });
});

describe("settings", () => {
  it("renames a room: a new slug, the old one still resolves", async () => {
    const room = await roomOf(h, owner, { name: `Old Name ${randomUUID().slice(0, 6)}` });
    const renamed = (
      await rooms(owner.token).updateRoom({ id: room.uuid, name: `New Name ${randomUUID().slice(0, 6)}` })
    ).room!;
    expect(renamed.slug).not.toBe(room.slug);
    await expect(rooms(other.token).getRoom({ id: room.slug })).resolves.toMatchObject({
      room: { uuid: room.uuid, slug: renamed.slug },
    });
  });

  it("changes each setting through its own call, refused to a plain user", async () => {
    const room = await roomOf(h, owner);
    const c = rooms(owner.token);
    expect((await c.setDjType({ id: room.uuid, djType: "INVITE_ONLY" })).room!.djType).toBe("INVITE_ONLY");
    expect((await c.setDjSeats({ id: room.uuid, numberOfDjs: 3 })).room!.numberOfDjs).toBe(3);
    expect((await c.setLiveState({ id: room.uuid, isLive: true })).room!.isLive).toBe(true);
    expect((await c.setLiveAudio({ id: room.uuid, liveAudio: true })).room!.liveAudio).toBe(true);
    expect((await c.setPinnedMessages({ id: room.uuid, pinnedMessages: ["hi"] })).room!.pinnedMessages).toEqual(["hi"]);
    expect((await c.setExternalUrl({ id: room.uuid, externalUrl: "https://example.com/" })).room!.externalUrl).toBe(
      "https://example.com/",
    );
    expect((await c.linkGuildRoom({ guild: "1234", roomId: room.uuid })).room!.discordGuild).toBe("1234");
    expect((await rooms(other.token).listGuildRooms({ guild: "1234" })).rooms.map((r) => r.uuid)).toContain(room.uuid);
    expect((await c.updateRoomInfrastructure({ id: room.uuid, design: "YACHT" })).room!.design).toBe("YACHT");
    const o = rooms(other.token);
    for (const call of [
      () => o.setDjType({ id: room.uuid, djType: "EVERYONE" }),
      () => o.setDjSeats({ id: room.uuid, numberOfDjs: 2 }),
      () => o.setLiveState({ id: room.uuid, isLive: false }),
      () => o.setLiveAudio({ id: room.uuid, liveAudio: false }),
      () => o.setPinnedMessages({ id: room.uuid, pinnedMessages: [] }),
      () => o.setExternalUrl({ id: room.uuid, externalUrl: "" }),
      () => o.updateRoom({ id: room.uuid, name: "mine now" }),
      () => o.deleteRoom({ id: room.uuid }),
      () => o.clearConversation({ id: room.uuid }),
      () => o.deletePoster({ id: room.uuid }),
    ]) {
      expect(await refusalParts(call())).toEqual({ code: Code.PermissionDenied, message: "Insufficient room role" });
    }
    expect(
      await refusalParts(c.setPinnedMessages({ id: room.uuid, pinnedMessages: Array(11).fill("x") })),
    ).toMatchObject({
      code: Code.InvalidArgument,
    });
    expect(await refusalParts(c.setDjSeats({ id: room.uuid, numberOfDjs: 0 }))).toMatchObject({
      code: Code.InvalidArgument,
    });
  });

  it("counts the live time and answers the room state from what the room service knows", async () => {
    const room = await roomOf(h, owner);
    await rooms(owner.token).setLiveState({ id: room.uuid, isLive: true });
    await rooms(owner.token).setLiveState({ id: room.uuid, isLive: false });
    const res = await rooms(owner.token).clearConversation({ id: room.uuid });
    expect(res.room!.conversationClearedAt).toBeDefined();
    const subjects = (await h.orm.em.fork().find(OutboxMessage, {})).map((e) => e.subject);
    expect(subjects).toContain("tt.room.settings.changed");
    expect(subjects).toContain("tt.room.conversation.cleared");
  });

  it("promotes only with the promoteRoom capability or as staff", async () => {
    const room = await roomOf(h, owner);
    expect(await refusalParts(rooms(owner.token).promoteRoom({ id: room.uuid, promoted: true }))).toEqual({
      code: Code.PermissionDenied,
      message: "promoteRoom capability required",
    });
    const staff = await account(h, "staff");
    const res = await rooms(staff.token).promoteRoom({ id: room.uuid, promoted: true });
    expect(res.room!.promoted).toBe(true);
    expect((await rooms(other.token).listPromotedRooms({})).rooms.map((r) => r.uuid)).toContain(room.uuid);
    const priv = await roomOf(h, owner, { type: "PRIVATE" });
    expect(await refusalParts(rooms(staff.token).promoteRoom({ id: priv.uuid, promoted: true }))).toMatchObject({
      code: Code.InvalidArgument,
    });
  });

  it("keeps a poster in the object store and removes it", async () => {
    const room = await roomOf(h, owner);
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#f00" } })
      .png()
      .toBuffer();
    const res = await rooms(owner.token).uploadPoster({ id: room.uuid, file: { content: new Uint8Array(png) } });
    expect(res.room!.posterUrl).toMatch(/^\/media\/posters\/[0-9a-f-]+\.webp$/);
    expect(
      await refusalParts(
        rooms(owner.token).uploadPoster({ id: room.uuid, file: { content: new Uint8Array([1, 2, 3]) } }),
      ),
    ).toEqual({ code: Code.InvalidArgument, message: "file must be a JPEG, PNG, GIF or WebP image" });
    expect(await refusalParts(rooms(owner.token).uploadPoster({ id: room.uuid }))).toEqual({
      code: Code.InvalidArgument,
      message: "file missing in request",
    });
    expect((await rooms(owner.token).deletePoster({ id: room.uuid })).room!.posterUrl).toBe("");
  });

  it("deletes a room with its roles, announced as deleted", async () => {
    const room = await roomOf(h, owner);
    await rooms(owner.token).deleteRoom({ id: room.uuid });
    expect(await refusalParts(rooms(owner.token).getRoom({ id: room.uuid }))).toMatchObject({ code: Code.NotFound });
    const subjects = (await h.orm.em.fork().find(OutboxMessage, {})).map((e) => e.subject);
    expect(subjects).toContain("tt.room.room.deleted");
  });
});

describe("joining", () => {
  it("answers the room, roles and permissions, and records the visit", async () => {
    const room = await roomOf(h, owner);
    const res = await rooms(other.token).joinRoom({ id: room.slug });
    expect(res).toMatchObject({
      roles: ["user"],
      permissions: { canChat: true, canDj: true, isModerator: false },
      numberOfDjs: 5,
      djType: "EVERYONE",
      liveStage: { status: "pending" },
    });
    expect((await rooms(owner.token).joinRoom({ id: room.uuid })).roles).toEqual(["owner", "user"]);
    const recent = await rooms(other.token).listRecentRooms({});
    expect(recent.rooms[0]!.uuid).toBe(room.uuid);
    const visited = await rooms(other.token).listRecentlyVisitedRooms({});
    expect(visited.rooms[0]!.visitedAt).toBeDefined();
    const users = await rooms(owner.token).listRoomUsers({ id: room.uuid });
    expect(users.source).toBe("room-service");
    expect(users.users.map((u) => u.userUuid).sort()).toEqual([owner.uuid, other.uuid].sort());
  });

  it("lets guests join public rooms, read-only", async () => {
    const room = await roomOf(h, owner);
    const res = await rooms(await h.tokens.guest()).joinRoom({ id: room.uuid });
    expect(res.roles).toEqual(["guest"]);
    expect(res.permissions).toMatchObject({ canChat: false, canDj: false });
  });

  it("refuses banned and kicked users with a clear 403", async () => {
    const room = await roomOf(h, owner);
    const banned = await account(h);
    const kicked = await account(h);
    const roles = h.client(RoomUserRoleService, { token: owner.token });
    await roles.grantRoomRole({ roomId: room.uuid, userId: banned.uuid, role: "banned" });
    await roles.kickUserFromRoom({ roomId: room.uuid, userId: kicked.uuid });
    expect(await refusalParts(rooms(banned.token).joinRoom({ id: room.uuid }))).toEqual({
      code: Code.PermissionDenied,
      message: "You are banned from this room",
    });
    const k = await refusalParts(rooms(kicked.token).joinRoom({ id: room.uuid }));
    expect(k.code).toBe(Code.PermissionDenied);
    expect(k.message).toMatch(/^You are kicked from this room until \d{4}-\d\d-\d\dT/);
  });

  it("keeps private rooms to members and the guest password, which POST /rooms/list matches alone", async () => {
    const room = await roomOf(h, owner, { type: "PRIVATE" });
    const decoy = await roomOf(h, owner, { type: "PRIVATE" });
    expect(await refusalParts(rooms(other.token).joinRoom({ id: room.uuid }))).toEqual({
      code: Code.PermissionDenied,
      message: "This room is private",
    });
    const admin = await account(h, "admin");
    const adminClient = h.client(AdminService, { token: admin.token });
    const password = `pw-${randomUUID()}`;
    const set = await adminClient.setGuestPassword({ roomId: room.uuid, password });
    expect(set.room!.hasGuestPassword).toBe(true);
    await adminClient.setGuestPassword({ roomId: decoy.uuid, password: `other-${randomUUID()}` });
    expect(await refusalParts(rooms(other.token).joinRoom({ id: room.uuid, guestPassword: "wrong-one" }))).toEqual({
      code: Code.PermissionDenied,
      message: "Wrong guest password",
    });
    await expect(rooms(other.token).joinRoom({ id: room.uuid, guestPassword: password })).resolves.toMatchObject({
      room: { uuid: room.uuid },
    });
    const found = await rooms(other.token).listRoomsByPassword({ password });
    expect(found.rooms.map((r) => r.uuid)).toEqual([room.uuid]);
    expect((await rooms(other.token).listRoomsByPassword({ password: "nothing-like-it" })).rooms).toEqual([]);
    await adminClient.removeGuestPassword({ roomId: room.uuid });
    expect((await rooms(other.token).listRoomsByPassword({ password })).rooms).toEqual([]);
    const pub = await roomOf(h, owner);
    expect(await refusalParts(adminClient.setGuestPassword({ roomId: pub.uuid, password: "abcdefgh" }))).toMatchObject({
      code: Code.InvalidArgument,
    });
  });

  /**
   * The admission tests' rooms and people: a public and a private room of `owner`; in the public one a banned user
   * and a user kicked for an hour (until `until`); a DJ of both rooms.
   */
  async function admissionFixture() {
    const service = rooms(await h.tokens.service("social"));
    const pub = await roomOf(h, owner);
    const priv = await roomOf(h, owner, { type: "PRIVATE" });
    const banned = await account(h);
    const kicked = await account(h);
    const dj = await account(h);
    const roles = h.client(RoomUserRoleService, { token: owner.token });
    await roles.grantRoomRole({ roomId: pub.uuid, userId: banned.uuid, role: "banned" });
    const until = new Date(Date.now() + 3_600_000);
    await roles.kickUserFromRoom({ roomId: pub.uuid, userId: kicked.uuid, until: timestampFromDate(until) });
    await roles.grantRoomRole({ roomId: pub.uuid, userId: dj.uuid, role: "dj" });
    await roles.grantRoomRole({ roomId: priv.uuid, userId: dj.uuid, role: "dj" });
    return { service, pub, priv, banned, kicked, dj, until };
  }

  it("admits to the live stage by JoinRoom's rules (AdmitToStage, service tokens only)", async () => {
    const { service, pub, priv, banned, kicked, dj } = await admissionFixture();

    const ok = await service.admitToStage({ room: pub.slug, userUuid: other.uuid });
    expect(ok.room!.uuid).toBe(pub.uuid);
    expect(ok.roles).toEqual(expect.arrayContaining(["user"]));
    expect((await service.admitToStage({ room: pub.uuid })).roles).toEqual(["guest"]);
    expect(await refusalParts(service.admitToStage({ room: pub.uuid, userUuid: banned.uuid }))).toEqual({
      code: Code.PermissionDenied,
      message: "You are banned from this room",
    });
    expect((await refusalParts(service.admitToStage({ room: pub.uuid, userUuid: kicked.uuid }))).message).toMatch(
      /^You are kicked from this room until \d{4}-/,
    );
    expect(await refusalParts(service.admitToStage({ room: priv.uuid, userUuid: other.uuid }))).toEqual({
      code: Code.PermissionDenied,
      message: "This room is private",
    });
    expect(await refusalParts(service.admitToStage({ room: priv.uuid }))).toEqual({
      code: Code.PermissionDenied,
      message: "This room is private",
    });
    expect((await service.admitToStage({ room: priv.uuid, userUuid: dj.uuid })).roles).toContain("dj");
    expect((await service.admitToStage({ room: priv.uuid, userUuid: owner.uuid })).roles).toContain("owner");
    const password = `pw-${randomUUID()}`;
    await h.client(AdminService, { token: (await account(h, "admin")).token }).setGuestPassword({
      roomId: priv.uuid,
      password,
    });
    expect(await refusalParts(service.admitToStage({ room: priv.uuid, guestPassword: "wrong-one" }))).toEqual({
      code: Code.PermissionDenied,
      message: "Wrong guest password",
    });
    await expect(service.admitToStage({ room: priv.uuid, guestPassword: password })).resolves.toMatchObject({
      roles: ["guest"],
    });
    expect(await refusalParts(service.admitToStage({ room: randomUUID(), userUuid: other.uuid }))).toMatchObject({
      code: Code.NotFound,
    });
    expect(await refusalParts(service.admitToStage({ room: pub.uuid, userUuid: "not-a-uuid" }))).toMatchObject({
      code: Code.InvalidArgument,
    });
    // Only services ask.
    expect((await refusalParts(rooms(other.token).admitToStage({ room: pub.uuid, userUuid: other.uuid }))).code).toBe(
      Code.Unauthenticated,
    );
  });

  it("admits many callers of one room in one call, each answered as AdmitToStage answers it (AdmitManyToStage)", async () => {
    const { service, pub, priv, banned, kicked, dj, until } = await admissionFixture();
    const callers = [
      { userUuid: other.uuid },
      { guestSubject: `guest-${randomUUID()}` },
      { userUuid: banned.uuid },
      { userUuid: kicked.uuid },
      { userUuid: dj.uuid.toUpperCase() },
      { userUuid: owner.uuid },
      { userUuid: "not-a-uuid" },
      { userUuid: randomUUID() },
      { userUuid: other.uuid },
      {},
    ];
    /** What AdmitToStage answers the caller, in AdmitManyToStage's shape. */
    const alone = async (room: string, caller: { userUuid?: string; guestSubject?: string }) => {
      try {
        return { roles: (await service.admitToStage({ room, ...caller })).roles, code: "", message: "" };
      } catch (err) {
        const e = ConnectError.from(err);
        return { roles: [], code: codeToString(e.code), message: e.rawMessage };
      }
    };
    const answers = async (room: string) =>
      (await service.admitManyToStage({ room, callers })).admissions.map(({ roles, code, message }) => ({
        roles,
        code,
        message,
      }));

    const many = await answers(pub.slug);
    expect(many).toEqual(await Promise.all(callers.map((c) => alone(pub.uuid, c))));
    expect(many.map((a) => a.code || a.roles.join(","))).toEqual([
      "user",
      "guest",
      "permission_denied",
      "permission_denied",
      expect.stringContaining("dj"),
      expect.stringContaining("owner"),
      "invalid_argument",
      "not_found",
      "user",
      "guest",
    ]);
    expect(many.slice(2, 4).map((a) => a.message)).toEqual([
      "You are banned from this room",
      `You are kicked from this room until ${until.toISOString()}`,
    ]);
    expect(many[7]!.message).toBe("User not found");

    const inPrivate = await answers(priv.uuid);
    expect(inPrivate).toEqual(await Promise.all(callers.map((c) => alone(priv.uuid, c))));
    expect(inPrivate.map((a) => a.message || "admitted")).toEqual([
      "This room is private",
      "This room is private",
      "This room is private",
      "This room is private",
      "admitted",
      "admitted",
      "userUuid must be a uuid",
      "User not found",
      "This room is private",
      "This room is private",
    ]);

    // The whole call: an unknown room, no callers or too many, a caller that is not a service.
    expect(await refusalParts(service.admitManyToStage({ room: randomUUID(), callers }))).toEqual({
      code: Code.NotFound,
      message: "Room not found",
    });
    expect((await refusalParts(service.admitManyToStage({ room: pub.uuid, callers: [] }))).code).toBe(
      Code.InvalidArgument,
    );
    const tooMany = Array.from({ length: STAGE_ADMISSIONS_MAX + 1 }, () => ({ guestSubject: "g" }));
    expect(await refusalParts(service.admitManyToStage({ room: pub.uuid, callers: tooMany }))).toEqual({
      code: Code.InvalidArgument,
      message: `callers must hold 1 to ${STAGE_ADMISSIONS_MAX} callers`,
    });
    expect(
      (await service.admitManyToStage({ room: pub.uuid, callers: tooMany.slice(1) })).admissions.every(
        (a) => a.roles.join() === "guest",
      ),
    ).toBe(true);
    expect((await refusalParts(rooms(other.token).admitManyToStage({ room: pub.uuid, callers }))).code).toBe(
      Code.Unauthenticated,
    );
  });

  it("keeps only the latest visits (ROOM_RECENT_VISITS_KEPT)", async () => {
    const visitor = await account(h);
    for (let i = 0; i < 5; i++) {
      const room = await roomOf(h, owner);
      await rooms(visitor.token).recordRecentRoom({ roomId: room.uuid });
    }
    expect((await rooms(visitor.token).listRecentRooms({})).total).toBe(3);
  });
});

describe("admin per-user calls", () => {
  it("updates and deletes every room a user owns", async () => {
    const someone = await account(h);
    await roomOf(h, someone);
    await roomOf(h, someone);
    const admin = await account(h, "admin");
    const c = rooms(admin.token);
    expect((await c.updateUserRooms({ userId: someone.uuid, type: "PRIVATE" })).count).toBe(2);
    expect((await rooms(someone.token).listOwnedRooms({})).rooms.every((r) => r.type === "PRIVATE")).toBe(true);
    expect((await c.deleteUserRooms({ userId: someone.uuid })).count).toBe(2);
    expect((await rooms(someone.token).listOwnedRooms({})).total).toBe(0);
  });
});
