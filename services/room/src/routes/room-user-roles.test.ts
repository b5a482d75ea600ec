import { randomUUID } from "node:crypto";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OutboxMessage } from "@tt/kit";
import type { ServiceHarness } from "@tt/kit/testing";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { RoomUserRoleService } from "@tt/proto/tt/room/v1/room_user_role_service_pb";
import { RoomUserRole } from "../modules/rooms/room-user-role.entity.ts";
import { account, roomOf, startRoomHarness, type Account } from "../testing/room-harness.ts";
import { refusalParts } from "../testing/refusal.ts";

let h: ServiceHarness;
let owner: Account;
let coOwner: Account;
let moderator: Account;
let user: Account;
let roomId: string;

const roles = (token: string) => h.client(RoomUserRoleService, { token });

beforeAll(async () => {
  h = await startRoomHarness();
  [owner, coOwner, moderator, user] = await Promise.all([account(h), account(h), account(h), account(h)]);
  roomId = (await roomOf(h, owner)).uuid;
  await roles(owner.token).grantRoomRole({ roomId, userId: coOwner.uuid, role: "coOwner" });
  await roles(coOwner.token).grantRoomRole({ roomId, userId: moderator.uuid, role: "moderator" });
});
afterAll(() => h?.close());

describe("granting and removing roles", () => {
  it("applies the rank rule", async () => {
    const target = await account(h);
    expect(await refusalParts(roles(user.token).grantRoomRole({ roomId, userId: target.uuid, role: "dj" }))).toEqual({
      code: Code.PermissionDenied,
      message: "Insufficient room role",
    });
    expect(
      await refusalParts(roles(moderator.token).grantRoomRole({ roomId, userId: target.uuid, role: "moderator" })),
    ).toMatchObject({ code: Code.PermissionDenied });
    expect(
      await refusalParts(roles(moderator.token).grantRoomRole({ roomId, userId: coOwner.uuid, role: "banned" })),
    ).toMatchObject({ code: Code.PermissionDenied });
    expect(
      await refusalParts(roles(coOwner.token).grantRoomRole({ roomId, userId: owner.uuid, role: "banned" })),
    ).toMatchObject({ code: Code.PermissionDenied });
    const dj = await roles(moderator.token).grantRoomRole({ roomId, userId: target.uuid, role: "dj" });
    expect(dj.role).toMatchObject({ roomUuid: roomId, userUuid: target.uuid, role: "dj", grantedBy: moderator.uuid });
    await roles(moderator.token).removeRoomRole({ roomId, userId: target.uuid, role: "dj" });
    expect(
      await refusalParts(roles(moderator.token).removeRoomRole({ roomId, userId: target.uuid, role: "dj" })),
    ).toEqual({
      code: Code.NotFound,
      message: "Role not found",
    });
    const subjects = (await h.orm.em.fork().find(OutboxMessage, {})).map((e) => e.subject);
    expect(subjects).toEqual(expect.arrayContaining(["tt.room.role.granted", "tt.room.role.removed"]));
  });

  it("refuses an unknown user, a past expiry and a role that cannot be granted", async () => {
    expect(await refusalParts(roles(owner.token).grantRoomRole({ roomId, userId: randomUUID(), role: "dj" }))).toEqual({
      code: Code.NotFound,
      message: "User not found",
    });
    const target = await account(h);
    const past = timestampFromDate(new Date(Date.now() - 60_000));
    expect(
      await refusalParts(
        roles(owner.token).grantRoomRole({ roomId, userId: target.uuid, role: "dj", expiresAt: past }),
      ),
    ).toEqual({ code: Code.InvalidArgument, message: "expiresAt must be in the future" });
    expect(
      await refusalParts(roles(owner.token).grantRoomRole({ roomId, userId: target.uuid, role: "owner" })),
    ).toMatchObject({
      code: Code.InvalidArgument,
    });
    expect(
      await refusalParts(roles(owner.token).grantRoomRole({ roomId, userId: target.uuid, role: "king" })),
    ).toMatchObject({
      code: Code.InvalidArgument,
      message: expect.stringContaining("role"),
    });
  });

  it("gives an expired grant no effect", async () => {
    const target = await account(h);
    const soon = new Date(Date.now() + 60_000);
    await roles(owner.token).grantRoomRole({
      roomId,
      userId: target.uuid,
      role: "chatDisabled",
      expiresAt: timestampFromDate(soon),
    });
    const join = () => h.client(RoomService, { token: target.token }).joinRoom({ id: roomId });
    expect((await join()).permissions!.canChat).toBe(false);
    // The grant's time passes (moved into the past in the database: no waiting).
    await h.orm.em
      .fork()
      .nativeUpdate(RoomUserRole, { userId: target.uuid }, { expiresAt: new Date(Date.now() - 1000) });
    expect((await join()).permissions!.canChat).toBe(true);
    expect((await roles(target.token).getUserRoomRoles({ roomId, userId: target.uuid })).roles).toEqual(["user"]);
  });

  it("lets a user give up their own dj role but not a restriction", async () => {
    const target = await account(h);
    await roles(owner.token).grantRoomRole({ roomId, userId: target.uuid, role: "dj" });
    await roles(owner.token).grantRoomRole({ roomId, userId: target.uuid, role: "djDisabled" });
    await roles(target.token).removeRoomRole({ roomId, userId: target.uuid, role: "dj" });
    expect(
      await refusalParts(roles(target.token).removeRoomRole({ roomId, userId: target.uuid, role: "djDisabled" })),
    ).toEqual({
      code: Code.PermissionDenied,
      message: "Insufficient room role",
    });
  });
});

describe("reading roles", () => {
  it("lists the moderator list to anyone and the restrictive roles to moderators only", async () => {
    const banned = await account(h);
    await roles(moderator.token).grantRoomRole({ roomId, userId: banned.uuid, role: "banned" });
    const seen = await roles(user.token).listRoomRoles({ roomId });
    expect(seen.roles[0]).toMatchObject({ role: "owner", userUuid: owner.uuid });
    expect(seen.roles.map((r) => r.role)).not.toContain("banned");
    expect(
      (await roles(moderator.token).listRoomRoles({ roomId, role: "banned" })).roles.map((r) => r.userUuid),
    ).toContain(banned.uuid);
    expect(await refusalParts(roles(user.token).listRoomRoles({ roomId, role: "banned" }))).toMatchObject({
      code: Code.PermissionDenied,
    });
    const page = await roles(moderator.token).listRoomRoles({ roomId, limit: 1, offset: 1 });
    expect(page.roles).toHaveLength(1);
    expect(page.total).toBeGreaterThanOrEqual(3);
  });

  it("shows a user's roles to themself and moderators, not to other users", async () => {
    const mine = await roles(coOwner.token).getUserRoomRoles({ roomId, userId: coOwner.uuid });
    expect(mine.roles).toEqual(["coOwner", "user"]);
    await expect(roles(moderator.token).getUserRoomRoles({ roomId, userId: coOwner.uuid })).resolves.toBeDefined();
    expect(await refusalParts(roles(user.token).getUserRoomRoles({ roomId, userId: coOwner.uuid }))).toMatchObject({
      code: Code.PermissionDenied,
    });
  });

  it("answers the no-dancefloor list: banned and kicked users among those asked", async () => {
    const kicked = await account(h);
    const fine = await account(h);
    await roles(moderator.token).kickUserFromRoom({ roomId, userId: kicked.uuid });
    const res = await roles(user.token).listNoDancefloorUsers({ roomId, userIds: [kicked.uuid, fine.uuid] });
    expect(res.userIds).toEqual([kicked.uuid]);
  });
});

describe("kicks and the owner", () => {
  it("kicks until a time, refusing an end in the past and too far ahead", async () => {
    const target = await account(h);
    const until = new Date(Date.now() + 10 * 60_000);
    const res = await roles(moderator.token).kickUserFromRoom({
      roomId,
      userId: target.uuid,
      until: timestampFromDate(until),
    });
    expect(res.role).toMatchObject({ role: "kicked", userUuid: target.uuid });
    expect(
      await refusalParts(
        roles(moderator.token).kickUserFromRoom({
          roomId,
          userId: target.uuid,
          until: timestampFromDate(new Date(Date.now() - 1000)),
        }),
      ),
    ).toEqual({ code: Code.InvalidArgument, message: "until must be in the future" });
    expect(
      await refusalParts(
        roles(moderator.token).kickUserFromRoom({
          roomId,
          userId: target.uuid,
          until: timestampFromDate(new Date(Date.now() + 40 * 86_400_000)),
        }),
      ),
    ).toMatchObject({ code: Code.InvalidArgument });
    expect(await refusalParts(roles(user.token).kickUserFromRoom({ roomId, userId: target.uuid }))).toMatchObject({
      code: Code.PermissionDenied,
    });
    const subjects = (await h.orm.em.fork().find(OutboxMessage, {})).map((e) => e.subject);
    expect(subjects).toContain("tt.room.user.kicked");
  });

  it("changes the owner only by the owner; the former owner stays a co-owner", async () => {
    const first = await account(h);
    const second = await account(h);
    const room = await roomOf(h, first);
    expect(
      await refusalParts(roles(second.token).changeRoomOwner({ roomId: room.uuid, userId: second.uuid })),
    ).toMatchObject({ code: Code.PermissionDenied });
    const res = await roles(first.token).changeRoomOwner({ roomId: room.uuid, userId: second.uuid });
    expect(res.room!.ownerUuid).toBe(second.uuid);
    expect((await roles(first.token).getUserRoomRoles({ roomId: room.uuid, userId: first.uuid })).roles).toEqual([
      "coOwner",
      "user",
    ]);
    expect(
      await refusalParts(roles(second.token).changeRoomOwner({ roomId: room.uuid, userId: randomUUID() })),
    ).toEqual({
      code: Code.NotFound,
      message: "User not found",
    });
  });
});

describe("chat sync", () => {
  it("syncs the room's chat group with its roles and lets members join it", async () => {
    const res = await roles(owner.token).syncChatRoles({ id: roomId });
    expect(res).toMatchObject({ group: roomId, admins: 2, moderators: 1 });
    expect(await roles(user.token).joinChat({ id: roomId })).toEqual(
      expect.objectContaining({ group: roomId, scope: "participant" }),
    );
    expect(await refusalParts(roles(user.token).syncChatRoles({ id: roomId }))).toMatchObject({
      code: Code.PermissionDenied,
    });
  });
});
