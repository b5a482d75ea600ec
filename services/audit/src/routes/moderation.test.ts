import { randomUUID } from "node:crypto";
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { EVENT_ID_HEADER, OCCURRED_AT_HEADER, AGGREGATE_ID_HEADER } from "@tt/kit";
import { createServiceHarness, eventually, type ServiceHarness } from "@tt/kit/testing";
import { ModerationService } from "@tt/proto/tt/audit/v1/moderation_service_pb";
import { RoomUserBannedSchema } from "@tt/proto/tt/room/v1/events_pb";
import { RolesChangedSchema, UserBannedSchema } from "@tt/proto/tt/user/v1/events_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditServiceDefinition } from "../index.ts";
import { ModerationAction } from "../modules/moderation/moderation-action.entity.ts";
import { refusal } from "../testing/poll.ts";

let h: ServiceHarness;
let admin: string;

beforeAll(async () => {
  h = await createServiceHarness(auditServiceDefinition);
  admin = await h.tokens.user("admin");
});
afterAll(() => h?.close());

const mod = (token?: string) => h.client(ModerationService, token ? { token } : {});

/** Publishes an event as the publisher's outbox relay does, with `eventId` (no JetStream dedupe: a redelivery). */
async function deliver(subject: string, data: Uint8Array, eventId: string, aggregateId: string) {
  await h.bus.publishDurable(subject, data, {
    headers: {
      [EVENT_ID_HEADER]: eventId,
      [OCCURRED_AT_HEADER]: new Date().toISOString(),
      [AGGREGATE_ID_HEADER]: aggregateId,
    },
  });
}

async function entriesOf(userUuid: string) {
  return h.orm.em.fork().find(ModerationAction, { userUuid }, { orderBy: { createdAt: "ASC" } });
}

describe("moderation actions", () => {
  it("admins create, read, update and delete entries; the fields are checked", async () => {
    const user = randomUUID();
    const created = await mod(admin).createModerationAction({ actionType: "kickUser", userUuid: user, reason: "spam" });
    expect(created.moderationAction).toMatchObject({ actionType: "kickUser", userUuid: user, reason: "spam" });
    const id = created.moderationAction!.id;
    expect(created.moderationAction!.moderatorUuid).toBe((await h.identityOf(admin)).subject);
    expect((await mod(admin).getModerationAction({ id })).moderationAction?.reason).toBe("spam");
    const updated = await mod(admin).updateModerationAction({ id, reason: "flooding" });
    expect(updated.moderationAction?.reason).toBe("flooding");
    await mod(admin).deleteModerationAction({ id });
    expect(await refusal(mod(admin).getModerationAction({ id }))).toEqual({
      code: Code.NotFound,
      message: "moderation action not found",
    });
    expect((await refusal(mod(admin).createModerationAction({ actionType: "hug", userUuid: user }))).code).toBe(
      Code.InvalidArgument,
    );
    expect(
      await refusal(mod(admin).createModerationAction({ actionType: "banUser", userUuid: user, endsAt: "2030-01-01" })),
    ).toEqual({ code: Code.InvalidArgument, message: "endsAt is only for temporaryBan" });
    expect(
      await refusal(mod(admin).createModerationAction({ actionType: "temporaryBan", userUuid: user, endsAt: "soon" })),
    ).toEqual({ code: Code.InvalidArgument, message: "endsAt must be an ISO 8601 date" });
    expect((await refusal(mod(admin).getModerationAction({ id: "nope" }))).code).toBe(Code.InvalidArgument);
  });

  it("bulk create stores all or none", async () => {
    const user = randomUUID();
    const ok = await mod(admin).bulkCreateModerationActions({
      bulk: [
        { actionType: "globalBan", userUuid: user },
        { actionType: "globalUnBan", userUuid: user },
      ],
    });
    expect(ok.data.map((a) => a.actionType)).toEqual(["globalBan", "globalUnBan"]);
    const bad = await refusal(
      mod(admin).bulkCreateModerationActions({
        bulk: [
          { actionType: "globalKick", userUuid: user },
          { actionType: "globalBan", userUuid: user, endsAt: "2030-01-01" },
        ],
      }),
    );
    expect(bad).toEqual({ code: Code.InvalidArgument, message: "bulk[1].endsAt is only for temporaryBan" });
    expect((await entriesOf(user)).length).toBe(2);
    const many = Array.from({ length: 101 }, () => ({ actionType: "kickUser", userUuid: user }));
    expect((await refusal(mod(admin).bulkCreateModerationActions({ bulk: many }))).code).toBe(Code.InvalidArgument);
  });

  it("the admin list filters with the query language", async () => {
    const user = randomUUID();
    await mod(admin).createModerationAction({ actionType: "grantRole", userUuid: user, role: "moderator" });
    await mod(admin).createModerationAction({ actionType: "removeRole", userUuid: user, previousRole: "moderator" });
    const page = await mod(admin).listModerationActions({
      query: { filter: [`userUuid||$eq||${user}`, "actionType||$eq||grantRole"] },
    });
    expect(page.total).toBe(1);
    expect(page.data[0]).toMatchObject({ role: "moderator", userUuid: user });
    expect((await refusal(mod(admin).listModerationActions({ query: { filter: ["secret||$eq||1"] } }))).code).toBe(
      Code.InvalidArgument,
    );
  });

  it("the authorization matrix: staff read, admins and global moderators write, only admins delete", async () => {
    const user = randomUUID();
    const moderator = await h.tokens.user("moderator");
    const globalModerator = await h.tokens.user("globalModerator");
    const plain = await h.tokens.user("user");
    const { moderationAction } = await mod(globalModerator).createModerationAction({
      actionType: "globalKick",
      userUuid: user,
    });
    const id = moderationAction!.id;
    expect((await mod(moderator).getModerationAction({ id })).moderationAction?.id).toBe(id);
    for (const token of [plain, await h.tokens.guest(), undefined]) {
      expect((await refusal(mod(token).listModerationActions({}))).code).toBe(Code.Unauthenticated);
    }
    expect(
      (await refusal(mod(moderator).createModerationAction({ actionType: "kickUser", userUuid: user }))).code,
    ).toBe(Code.Unauthenticated);
    expect((await refusal(mod(globalModerator).deleteModerationAction({ id }))).code).toBe(Code.Unauthenticated);
    await mod(admin).deleteModerationAction({ id });
  });

  it("user actions: a user reads their own, staff anyone's, another user gets 403", async () => {
    const user = randomUUID();
    const self = await h.tokens.user("user", user);
    await mod(admin).createModerationAction({ actionType: "globalKick", userUuid: user });
    expect((await mod(self).getUserActions({ id: user })).total).toBe(1);
    expect((await mod(await h.tokens.user("staff")).getUserActions({ id: user })).data[0]?.actionType).toBe(
      "globalKick",
    );
    expect(await refusal(mod(await h.tokens.user()).getUserActions({ id: user }))).toEqual({
      code: Code.PermissionDenied,
      message: "forbidden",
    });
    expect((await refusal(mod(self).getUserActions({ id: user, limit: 101 }))).message).toBe(
      "limit must be between 1 and 100",
    );
  });
});

describe("moderation events", () => {
  it("a ban from the user service is logged once even when the event is delivered twice", async () => {
    const user = randomUUID();
    const by = randomUUID();
    const eventId = randomUUID();
    const data = toBinary(
      UserBannedSchema,
      create(UserBannedSchema, {
        uuid: user,
        reason: "abuse",
        bannedByUuid: by,
        createdAt: timestampFromDate(new Date()),
      }),
    );
    await deliver("tt.user.user.banned", data, eventId, user);
    await deliver("tt.user.user.banned", data, eventId, user);
    // A later event of the same user proves both deliveries of the first have been handled (in order).
    const roles = toBinary(
      RolesChangedSchema,
      create(RolesChangedSchema, { uuid: user, role: "moderator", previousRole: "user", changedByUuid: by }),
    );
    await deliver("tt.user.roles.changed", roles, randomUUID(), user);
    const rows = await eventually("the ban and the role change", async () => {
      const r = await entriesOf(user);
      return r.length >= 2 && r.some((e) => e.actionType === "grantRole") ? r : undefined;
    });
    await eventually("the ban", async () => {
      const r = await entriesOf(user);
      return r.filter((e) => e.actionType === "globalBan").length === 1 ? r : undefined;
    });
    const bans = (await entriesOf(user)).filter((e) => e.actionType === "globalBan");
    expect(bans).toHaveLength(1);
    expect(bans[0]).toMatchObject({ moderatorUuid: by, reason: "abuse", sourceEventId: eventId });
    expect(rows.find((e) => e.actionType === "grantRole")).toMatchObject({ role: "moderator", previousRole: "user" });
  });

  it("a room ban is logged as banUser with its room", async () => {
    const user = randomUUID();
    const room = randomUUID();
    const data = toBinary(RoomUserBannedSchema, create(RoomUserBannedSchema, { roomUuid: room, userUuid: user }));
    await deliver("tt.room.user.banned", data, randomUUID(), room);
    const [row] = await eventually("the room ban", async () => {
      const r = await entriesOf(user);
      return r.length > 0 ? r : undefined;
    });
    expect(row).toMatchObject({ actionType: "banUser", roomUuid: room });
  });
});
