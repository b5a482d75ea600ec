import { randomUUID } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceHarness } from "@tt/kit/testing";
import { AdminService } from "@tt/proto/tt/room/v1/admin_service_pb";
import { RoomUserRoleService } from "@tt/proto/tt/room/v1/room_user_role_service_pb";
import { account, roomOf, startRoomHarness, type Account } from "../testing/room-harness.ts";

let h: ServiceHarness;
let admin: Account;
let owner: Account;

beforeAll(async () => {
  h = await startRoomHarness();
  admin = await account(h, "admin");
  owner = await account(h);
});
afterAll(() => h?.close());

const adminClient = () => h.client(AdminService, { token: admin.token });

describe("admin room and DJ lists", () => {
  it("filters, sorts and pages rooms with the query language", async () => {
    const tag = randomUUID().slice(0, 8);
    await roomOf(h, owner, { name: `Alpha ${tag}` });
    await roomOf(h, owner, { name: `Beta ${tag}`, type: "PRIVATE" });
    const res = await adminClient().adminListRooms({
      query: { filter: [`name||$cont||${tag}`], sort: ["name,DESC"], limit: 1 },
    });
    expect(res).toMatchObject({ count: 1, total: 2, page: 1, pageCount: 2 });
    expect(res.data[0]!.name).toBe(`Beta ${tag}`);
    const priv = await adminClient().adminListRooms({
      query: { filter: [`name||$cont||${tag}`, "type||$eq||PRIVATE"] },
    });
    expect(priv.data.map((r) => r.name)).toEqual([`Beta ${tag}`]);
    await expect(
      adminClient().adminListRooms({ query: { filter: ["guestPasswordHash||$eq||x"] } }),
    ).rejects.toMatchObject({
      code: Code.InvalidArgument,
    });
  });

  it("lists DJ grants and reads one", async () => {
    const room = await roomOf(h, owner);
    const dj = await account(h);
    const grant = await h
      .client(RoomUserRoleService, { token: owner.token })
      .grantRoomRole({ roomId: room.uuid, userId: dj.uuid, role: "dj" });
    const res = await adminClient().adminListDjs({ query: { filter: [`roomUuid||$eq||${room.uuid}`] } });
    expect(res.data.map((d) => d.userUuid)).toEqual([dj.uuid]);
    await expect(adminClient().adminGetDj({ id: grant.role!.id })).resolves.toMatchObject({
      dj: { userUuid: dj.uuid },
    });
    await expect(adminClient().adminGetDj({ id: randomUUID() })).rejects.toMatchObject({ code: Code.NotFound });
  });

  it("reads and updates any room", async () => {
    const room = await roomOf(h, owner);
    await expect(adminClient().adminGetRoom({ id: room.uuid })).resolves.toMatchObject({ room: { uuid: room.uuid } });
    const res = await adminClient().adminUpdateRoom({
      id: room.uuid,
      numberOfDjs: 8,
      promoted: true,
      design: "STADIUM",
    });
    expect(res.room).toMatchObject({ numberOfDjs: 8, promoted: true, design: "STADIUM" });
  });

  it("is for admins only", async () => {
    const err = await h
      .client(AdminService, { token: owner.token })
      .adminListRooms({})
      .catch((e: unknown) => ConnectError.from(e));
    expect(err).toMatchObject({ code: Code.Unauthenticated });
  });
});
