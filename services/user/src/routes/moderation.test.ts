import { randomUUID } from "node:crypto";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { fromBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { eventDeclaration, type Identity } from "@tt/kit";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { UserBan } from "../modules/moderation/ban.entity.ts";
import { sweepExpiredBans } from "../modules/moderation/ban-sweeper.ts";
import {
  RolesChangedSchema,
  UserBannedSchema,
  UserDeletedSchema,
  UserKickedSchema,
  UserUnbannedSchema,
  type UserUnbanned,
} from "@tt/proto/tt/user/v1/events_pb";
import { RANK_TOO_LOW, ROLE_ABOVE_OWN } from "../modules/moderation/ranks.ts";
import { ACCOUNT_BANNED, ACCOUNT_DEACTIVATED, accountBannedUntil } from "../modules/moderation/sign-in-guard.ts";
import { Session } from "../modules/sessions/session.entity.ts";
import { User } from "../modules/users/user.entity.ts";
import { Code, connectErrorOf } from "../testing/expect-connect-error.ts";
import { createUserHarness, type UserHarness } from "../testing/user-harness.ts";
import { BAN_END_MISSING, BAN_END_NOT_IN_FUTURE, BAN_END_TOO_FAR } from "./moderation-bans.ts";
import { COMMENT_EMPTY, COMMENT_TOO_LONG } from "./moderation-comments.ts";
import { NO_PENDING_DEACTIVATION } from "./moderation-deactivation.ts";
import { ALREADY_HAS_ROLE, BOT_ROLE_FIXED, UNKNOWN_CAPABILITY, UNKNOWN_ROLE } from "./moderation-roles.ts";
import { PROFILE_NOT_FOUND } from "../modules/profile-data/profile-rules.ts";

let h: UserHarness;

beforeAll(async () => {
  h = await createUserHarness(inject("databaseUrl"));
});

afterAll(async () => {
  await h?.close();
});

const PASSWORD = "correct horse battery";

interface Account {
  uuid: string;
  email: string;
  identity: Identity;
}

/** A fresh account with `role` (set in the database, as an admin tool would) and a token carrying it. */
async function account(role = "user", nickname = ""): Promise<Account> {
  const email = `${randomUUID()}@example.org`;
  const res = await h.rpc.signUp({ email, password: PASSWORD, nickname }, h.ctx("signUp"));
  const uuid = res.user!.uuid;
  if (role !== "user") await h.orm.em.fork().nativeUpdate(User, { id: uuid }, { role });
  return { uuid, email, identity: await signIn(email) };
}

async function signIn(email: string): Promise<Identity> {
  const res = await h.rpc.login({ email, password: PASSWORD }, h.ctx("login"));
  return h.identityOf(res.accessToken!.token);
}

const loginError = (email: string) => connectErrorOf(h.rpc.login({ email, password: PASSWORD }, h.ctx("login")));

async function liveSessions(uuid: string): Promise<Session[]> {
  return h.orm.em.fork().find(Session, { user: uuid, revokedAt: null });
}

/** Resolves with the first event on `subject` about `uuid`; subscribe before acting. */
async function nextEvent<D extends DescMessage>(schema: D, uuid: string) {
  let received!: (event: MessageShape<D>) => void;
  const event = new Promise<MessageShape<D>>((resolve) => (received = resolve));
  const sub = await h.bus.subscribe(eventDeclaration(schema).subject, (msg) => {
    const payload = fromBinary(schema, msg.data);
    if ((payload as { uuid?: string }).uuid === uuid) received(payload);
  });
  return { event: event.finally(() => sub.unsubscribe()) };
}

describe("BanUser", () => {
  it("bans, revokes every session at once, announces it and refuses sign-in", async () => {
    const mod = await account("moderator");
    const target = await account();
    expect((await liveSessions(target.uuid)).length).toBe(2);
    const { event } = await nextEvent(UserBannedSchema, target.uuid);

    const res = await h.rpc.banUser({ uuid: target.uuid, reason: " spam " }, h.ctx("banUser", mod.identity));
    expect(res.user?.ban).toMatchObject({ reason: "spam", bannedByUuid: mod.uuid });
    expect(res.user?.ban?.endsAt).toBeUndefined();
    expect(await liveSessions(target.uuid)).toEqual([]);
    expect(h.revocations.isRevoked(target.identity.sessionId)).toBe(true);
    await expect(event).resolves.toMatchObject({ uuid: target.uuid, reason: "spam", bannedByUuid: mod.uuid });
    await expect(loginError(target.email)).resolves.toEqual({ code: Code.Unauthenticated, message: ACCOUNT_BANNED });
  });

  it("refuses accounts at or above the caller's rank, unknown users and demoted callers", async () => {
    const mod = await account("moderator");
    for (const role of ["moderator", "globalModerator", "admin"]) {
      const other = await account(role);
      await expect(
        connectErrorOf(h.rpc.banUser({ uuid: other.uuid }, h.ctx("banUser", mod.identity))),
      ).resolves.toEqual({ code: Code.PermissionDenied, message: RANK_TOO_LOW });
    }
    await expect(connectErrorOf(h.rpc.banUser({ uuid: mod.uuid }, h.ctx("banUser", mod.identity)))).resolves.toEqual({
      code: Code.PermissionDenied,
      message: RANK_TOO_LOW,
    });
    for (const uuid of [randomUUID(), "not-a-uuid"]) {
      await expect(connectErrorOf(h.rpc.banUser({ uuid }, h.ctx("banUser", mod.identity)))).resolves.toEqual({
        code: Code.NotFound,
        message: PROFILE_NOT_FOUND,
      });
    }
    const target = await account();
    await h.orm.em.fork().nativeUpdate(User, { id: mod.uuid }, { role: "user" });
    await expect(
      connectErrorOf(h.rpc.banUser({ uuid: target.uuid }, h.ctx("banUser", mod.identity))),
    ).resolves.toMatchObject({ code: Code.Unauthenticated });
  });

  it("lets a superUser (whom every access option admits) act on an admin", async () => {
    const superUser = await account("superUser");
    const admin = await account("admin");
    const res = await h.rpc.banUser({ uuid: admin.uuid }, h.ctx("banUser", superUser.identity));
    expect(res.user?.ban?.bannedByUuid).toBe(superUser.uuid);
  });

  it("refuses a reason longer than 1000 characters", async () => {
    const mod = await account("moderator");
    const target = await account();
    await expect(
      connectErrorOf(h.rpc.banUser({ uuid: target.uuid, reason: "x".repeat(1001) }, h.ctx("banUser", mod.identity))),
    ).resolves.toEqual({ code: Code.InvalidArgument, message: "reason must be at most 1000 characters" });
  });
});

describe("TemporaryBanUser", () => {
  it("bans until the end and refuses sign-in with the end", async () => {
    const mod = await account("globalModerator");
    const target = await account();
    const before = Date.now();
    const res = await h.rpc.temporaryBanUser(
      { uuid: target.uuid, reason: "cool off", end: { case: "duration", value: { seconds: 3600n } } },
      h.ctx("temporaryBanUser", mod.identity),
    );
    const endsAt = timestampDate(res.user!.ban!.endsAt!);
    expect(endsAt.getTime()).toBeGreaterThanOrEqual(before + 3600_000);
    expect(endsAt.getTime()).toBeLessThanOrEqual(Date.now() + 3600_000);
    expect(await liveSessions(target.uuid)).toEqual([]);
    await expect(loginError(target.email)).resolves.toEqual({
      code: Code.Unauthenticated,
      message: accountBannedUntil(endsAt),
    });
  });

  it("accepts an end time and refuses a missing, past or too distant end", async () => {
    const mod = await account("moderator");
    const target = await account();
    const until = new Date(Date.now() + 86_400_000);
    const res = await h.rpc.temporaryBanUser(
      { uuid: target.uuid, end: { case: "until", value: timestampFromDate(until) } },
      h.ctx("temporaryBanUser", mod.identity),
    );
    expect(timestampDate(res.user!.ban!.endsAt!).getTime()).toBe(until.getTime());
    const cases = [
      [{ case: undefined }, BAN_END_MISSING],
      [{ case: "duration", value: { seconds: 0n } }, BAN_END_NOT_IN_FUTURE],
      [{ case: "until", value: timestampFromDate(new Date(Date.now() - 1000)) }, BAN_END_NOT_IN_FUTURE],
      [{ case: "duration", value: { seconds: 366n * 86_400n } }, BAN_END_TOO_FAR],
    ] as const;
    for (const [end, message] of cases) {
      await expect(
        connectErrorOf(h.rpc.temporaryBanUser({ uuid: target.uuid, end }, h.ctx("temporaryBanUser", mod.identity))),
      ).resolves.toEqual({ code: Code.InvalidArgument, message });
    }
  });

  it("ends by itself: expired at read time, then swept with tt.user.user.unbanned", async () => {
    const mod = await account("moderator");
    const target = await account();
    await h.rpc.temporaryBanUser(
      { uuid: target.uuid, end: { case: "duration", value: { seconds: 60n } } },
      h.ctx("temporaryBanUser", mod.identity),
    );
    // The clock cannot be moved inside PostgreSQL, so the end is moved into the past instead.
    await h.orm.em.fork().nativeUpdate(UserBan, { user: target.uuid }, { endsAt: new Date(Date.now() - 1000) });
    await expect(signIn(target.email)).resolves.toMatchObject({ subject: target.uuid });
    const { event } = await nextEvent(UserUnbannedSchema, target.uuid);
    // The instance's own sweeper may get there first; either way the ban ends once, announced.
    await sweepExpiredBans(h.orm);
    await expect(event).resolves.toMatchObject({ uuid: target.uuid, expired: true, unbannedByUuid: "" });
    expect(await h.orm.em.fork().count(UserBan, { user: target.uuid })).toBe(0);
  });

  it("is swept by the background sweeper of a running instance (BAN_SWEEP_INTERVAL_MS)", async () => {
    const fast = await createUserHarness(inject("databaseUrl"), { BAN_SWEEP_INTERVAL_MS: "20" });
    try {
      const signUp = await fast.rpc.signUp({ email: "swept@example.org", password: PASSWORD }, fast.ctx("signUp"));
      const uuid = signUp.user!.uuid;
      let received!: (event: UserUnbanned) => void;
      const event = new Promise<UserUnbanned>((resolve) => (received = resolve));
      const sub = await fast.bus.subscribe(eventDeclaration(UserUnbannedSchema).subject, (msg) => {
        received(fromBinary(UserUnbannedSchema, msg.data));
      });
      const moderator = await fast.rpc.signUp({ email: "sweeper@example.org", password: PASSWORD }, fast.ctx("signUp"));
      await fast.orm.em.fork().nativeUpdate(User, { id: moderator.user!.uuid }, { role: "moderator" });
      const login = await fast.rpc.login({ email: "sweeper@example.org", password: PASSWORD }, fast.ctx("login"));
      const identity = await fast.identityOf(login.accessToken!.token);
      // A temporary ban, ended behind the service's back: the sweeper create() started removes and announces it.
      await fast.rpc.temporaryBanUser(
        { uuid, end: { case: "duration", value: { seconds: 60n } } },
        fast.ctx("temporaryBanUser", identity),
      );
      await fast.orm.em.fork().nativeUpdate(UserBan, { user: uuid }, { endsAt: new Date(Date.now() - 1000) });
      await expect(event).resolves.toMatchObject({ uuid, expired: true });
      await sub.unsubscribe();
      expect(await fast.orm.em.fork().count(UserBan, { user: uuid })).toBe(0);
    } finally {
      await fast.close();
    }
  });
});

describe("UnbanUser", () => {
  it("lifts a ban, announces it and lets the user sign in; an account without a ban is unchanged", async () => {
    const mod = await account("staff");
    const target = await account();
    await h.rpc.banUser({ uuid: target.uuid }, h.ctx("banUser", mod.identity));
    const { event } = await nextEvent(UserUnbannedSchema, target.uuid);
    const res = await h.rpc.unbanUser({ uuid: target.uuid }, h.ctx("unbanUser", mod.identity));
    expect(res.user?.ban).toBeUndefined();
    await expect(event).resolves.toMatchObject({ uuid: target.uuid, unbannedByUuid: mod.uuid, expired: false });
    await expect(signIn(target.email)).resolves.toMatchObject({ subject: target.uuid });

    const again = await h.rpc.unbanUser({ uuid: target.uuid }, h.ctx("unbanUser", mod.identity));
    expect(again.user?.uuid).toBe(target.uuid);
    expect(again.user?.ban).toBeUndefined();
  });
});

describe("KickUser", () => {
  it("ends every session and announces the kick; the account may sign in again", async () => {
    const mod = await account("moderator");
    const target = await account();
    const { event } = await nextEvent(UserKickedSchema, target.uuid);
    await h.rpc.kickUser({ uuid: target.uuid, reason: "flooding" }, h.ctx("kickUser", mod.identity));
    expect(await liveSessions(target.uuid)).toEqual([]);
    expect(h.revocations.isRevoked(target.identity.sessionId)).toBe(true);
    await expect(event).resolves.toMatchObject({ uuid: target.uuid, reason: "flooding", kickedByUuid: mod.uuid });
    await expect(signIn(target.email)).resolves.toMatchObject({ subject: target.uuid });
  });

  it("refuses a target of equal rank", async () => {
    const mod = await account("moderator");
    const other = await account("moderator");
    await expect(
      connectErrorOf(h.rpc.kickUser({ uuid: other.uuid }, h.ctx("kickUser", mod.identity))),
    ).resolves.toEqual({ code: Code.PermissionDenied, message: RANK_TOO_LOW });
  });
});

describe("AddRole", () => {
  it("sets the role, revokes the target's sessions so no token keeps the old role, and announces it", async () => {
    const mod = await account("globalModerator");
    const target = await account();
    const { event } = await nextEvent(RolesChangedSchema, target.uuid);
    const res = await h.rpc.addRole({ uuid: target.uuid, role: "moderator" }, h.ctx("addRole", mod.identity));
    expect(res.user?.role).toBe("moderator");
    expect(await liveSessions(target.uuid)).toEqual([]);
    await expect(event).resolves.toMatchObject({ role: "moderator", previousRole: "user", changedByUuid: mod.uuid });
    await expect(signIn(target.email)).resolves.toMatchObject({ role: "moderator" });
  });

  it("answers the documented errors and keeps roles below the caller's", async () => {
    const mod = await account("moderator");
    const target = await account();
    const err = (uuid: string, role: string, who = mod) =>
      connectErrorOf(h.rpc.addRole({ uuid, role }, h.ctx("addRole", who.identity)));
    await expect(err(target.uuid, "emperor")).resolves.toEqual({ code: Code.InvalidArgument, message: UNKNOWN_ROLE });
    await expect(err(target.uuid, "superUser")).resolves.toEqual({ code: Code.InvalidArgument, message: UNKNOWN_ROLE });
    await expect(err(target.uuid, "user")).resolves.toEqual({ code: Code.PermissionDenied, message: ALREADY_HAS_ROLE });
    await expect(err(randomUUID(), "promoter")).resolves.toEqual({ code: Code.NotFound, message: PROFILE_NOT_FOUND });
    await expect(err(target.uuid, "moderator")).resolves.toEqual({
      code: Code.PermissionDenied,
      message: ROLE_ABOVE_OWN,
    });
    const bot = await account("bot");
    await expect(err(bot.uuid, "promoter")).resolves.toEqual({
      code: Code.FailedPrecondition,
      message: BOT_ROLE_FIXED,
    });
    await expect(
      h.rpc.addRole({ uuid: target.uuid, role: "promoter" }, h.ctx("addRole", mod.identity)),
    ).resolves.toMatchObject({ user: { role: "promoter" } });

    const admin = await account("admin");
    const staff = await account();
    await expect(
      h.rpc.addRole({ uuid: staff.uuid, role: "admin" }, h.ctx("addRole", admin.identity)),
    ).resolves.toMatchObject({ user: { role: "admin" } });
    await expect(err(staff.uuid, "user", admin)).resolves.toEqual({
      code: Code.PermissionDenied,
      message: RANK_TOO_LOW,
    });
  });
});

describe("AddGlobalModeratorRole", () => {
  it("lets callers above moderator give it, and refuses moderators and accounts that have it", async () => {
    const gm = await account("globalModerator");
    const mod = await account("moderator");
    const target = await account();
    await expect(
      connectErrorOf(
        h.rpc.addGlobalModeratorRole({ uuid: target.uuid }, h.ctx("addGlobalModeratorRole", mod.identity)),
      ),
    ).resolves.toEqual({ code: Code.PermissionDenied, message: ROLE_ABOVE_OWN });
    const res = await h.rpc.addGlobalModeratorRole({ uuid: target.uuid }, h.ctx("addGlobalModeratorRole", gm.identity));
    expect(res.user?.role).toBe("globalModerator");
    await expect(
      connectErrorOf(h.rpc.addGlobalModeratorRole({ uuid: target.uuid }, h.ctx("addGlobalModeratorRole", gm.identity))),
    ).resolves.toEqual({ code: Code.PermissionDenied, message: ALREADY_HAS_ROLE });
    await expect(
      connectErrorOf(
        h.rpc.addGlobalModeratorRole({ uuid: randomUUID() }, h.ctx("addGlobalModeratorRole", gm.identity)),
      ),
    ).resolves.toEqual({ code: Code.NotFound, message: PROFILE_NOT_FOUND });
  });
});

describe("capabilities", () => {
  it("adds and removes capabilities with the documented errors", async () => {
    const mod = await account("moderator");
    const target = await account();
    const add = (capability: string, id = target.uuid) =>
      h.rpc.addCapability({ id, capability }, h.ctx("addCapability", mod.identity));
    const remove = (capability: string, id = target.uuid) =>
      h.rpc.removeCapability({ id, capability }, h.ctx("removeCapability", mod.identity));

    const { event } = await nextEvent(RolesChangedSchema, target.uuid);
    await expect(add("uploadMusic")).resolves.toMatchObject({ capabilities: ["uploadMusic"] });
    await expect(event).resolves.toMatchObject({ role: "user", capabilities: ["uploadMusic"] });
    await expect(add("promoteRoom")).resolves.toMatchObject({ capabilities: ["uploadMusic", "promoteRoom"] });
    await expect(connectErrorOf(add("uploadMusic"))).resolves.toEqual({
      code: Code.PermissionDenied,
      message: "this user already has this role",
    });
    await expect(connectErrorOf(add("flying"))).resolves.toEqual({
      code: Code.InvalidArgument,
      message: UNKNOWN_CAPABILITY,
    });
    await expect(connectErrorOf(add("uploadMusic", randomUUID()))).resolves.toEqual({
      code: Code.NotFound,
      message: PROFILE_NOT_FOUND,
    });
    await expect(remove("uploadMusic")).resolves.toMatchObject({ capabilities: ["promoteRoom"] });
    await expect(remove("uploadMusic")).resolves.toMatchObject({ capabilities: ["promoteRoom"] });
    await expect(connectErrorOf(remove("flying"))).resolves.toMatchObject({ code: Code.InvalidArgument });
    await expect(connectErrorOf(remove("promoteRoom", randomUUID()))).resolves.toMatchObject({ code: Code.NotFound });
    const stored = await h.orm.em.fork().findOneOrFail(User, { id: target.uuid });
    expect(stored.capabilities).toEqual(["promoteRoom"]);
  });
});

describe("moderation comments", () => {
  it("records notes and lists them newest first", async () => {
    const mod = await account("moderator");
    const target = await account();
    const first = await h.rpc.createModerationComment(
      { userUuid: target.uuid, comment: "first warning" },
      h.ctx("createModerationComment", mod.identity),
    );
    expect(first.comment).toMatchObject({ userUuid: target.uuid, authorUuid: mod.uuid, comment: "first warning" });
    await h.rpc.createModerationComment(
      { userUuid: target.uuid, comment: "second warning" },
      h.ctx("createModerationComment", mod.identity),
    );
    const list = await h.rpc.listModerationComments({ id: target.uuid }, h.ctx("listModerationComments", mod.identity));
    expect(list.comments.map((c) => c.comment)).toEqual(["second warning", "first warning"]);
  });

  it("refuses empty and long comments and unknown users", async () => {
    const mod = await account("moderator");
    const target = await account();
    const err = (userUuid: string, comment: string) =>
      connectErrorOf(
        h.rpc.createModerationComment({ userUuid, comment }, h.ctx("createModerationComment", mod.identity)),
      );
    await expect(err(target.uuid, "  ")).resolves.toEqual({ code: Code.InvalidArgument, message: COMMENT_EMPTY });
    await expect(err(target.uuid, "x".repeat(2001))).resolves.toEqual({
      code: Code.InvalidArgument,
      message: COMMENT_TOO_LONG,
    });
    await expect(err(randomUUID(), "note")).resolves.toEqual({ code: Code.NotFound, message: PROFILE_NOT_FOUND });
    await expect(
      connectErrorOf(h.rpc.listModerationComments({ id: "nope" }, h.ctx("listModerationComments", mod.identity))),
    ).resolves.toEqual({ code: Code.NotFound, message: PROFILE_NOT_FOUND });
  });
});

describe("deactivation", () => {
  it("request, list, deactivate (sessions revoked, sign-in refused, announced), reactivate", async () => {
    const staff = await account("staff");
    const target = await account("user", "Leaving Larry");
    const first = await h.rpc.requestDeactivation(
      { reason: "moving on" },
      h.ctx("requestDeactivation", target.identity),
    );
    expect(first.request).toMatchObject({ uuid: target.uuid, email: target.email, nickname: "Leaving Larry" });
    const again = await h.rpc.requestDeactivation({ reason: "other" }, h.ctx("requestDeactivation", target.identity));
    expect(again.request).toEqual(first.request);

    const list = await h.rpc.listDeactivationRequests({}, h.ctx("listDeactivationRequests", staff.identity));
    expect(list.requests.find((r) => r.uuid === target.uuid)).toMatchObject({ reason: "moving on" });

    const { event } = await nextEvent(UserDeletedSchema, target.uuid);
    const res = await h.rpc.deactivateUser({ id: target.uuid }, h.ctx("deactivateUser", staff.identity));
    expect(res.user?.deactivatedAt).toBeDefined();
    expect(res.user?.deactivationRequestedAt).toBeUndefined();
    await expect(event).resolves.toMatchObject({ uuid: target.uuid, deactivatedByUuid: staff.uuid });
    expect(await liveSessions(target.uuid)).toEqual([]);
    await expect(loginError(target.email)).resolves.toEqual({
      code: Code.Unauthenticated,
      message: ACCOUNT_DEACTIVATED,
    });
    const after = await h.rpc.listDeactivationRequests({}, h.ctx("listDeactivationRequests", staff.identity));
    expect(after.requests.map((r) => r.uuid)).not.toContain(target.uuid);

    const reactivated = await h.rpc.reactivateUser({ id: target.uuid }, h.ctx("reactivateUser", staff.identity));
    expect(reactivated.user?.deactivatedAt).toBeUndefined();
    await expect(signIn(target.email)).resolves.toMatchObject({ subject: target.uuid });
    const unchanged = await h.rpc.reactivateUser({ id: target.uuid }, h.ctx("reactivateUser", staff.identity));
    expect(unchanged.user?.deactivatedAt).toBeUndefined();
  });

  it("cancels a pending request, 404 when there is none", async () => {
    const mod = await account("moderator");
    const staff = await account("staff");
    const target = await account();
    await h.rpc.requestDeactivation({}, h.ctx("requestDeactivation", target.identity));
    await h.rpc.cancelRequestedDeactivation({ uuid: target.uuid }, h.ctx("cancelRequestedDeactivation", mod.identity));
    const list = await h.rpc.listDeactivationRequests({}, h.ctx("listDeactivationRequests", staff.identity));
    expect(list.requests.map((r) => r.uuid)).not.toContain(target.uuid);
    await expect(
      connectErrorOf(
        h.rpc.cancelRequestedDeactivation({ uuid: target.uuid }, h.ctx("cancelRequestedDeactivation", mod.identity)),
      ),
    ).resolves.toEqual({ code: Code.NotFound, message: NO_PENDING_DEACTIVATION });
    await expect(
      connectErrorOf(
        h.rpc.cancelRequestedDeactivation({ uuid: randomUUID() }, h.ctx("cancelRequestedDeactivation", mod.identity)),
      ),
    ).resolves.toEqual({ code: Code.NotFound, message: PROFILE_NOT_FOUND });
  });

  it("refuses staff acting on an admin, unknown users and long reasons", async () => {
    const staff = await account("staff");
    const admin = await account("admin");
    await expect(
      connectErrorOf(h.rpc.deactivateUser({ id: admin.uuid }, h.ctx("deactivateUser", staff.identity))),
    ).resolves.toEqual({ code: Code.PermissionDenied, message: RANK_TOO_LOW });
    await expect(
      connectErrorOf(h.rpc.deactivateUser({ id: randomUUID() }, h.ctx("deactivateUser", staff.identity))),
    ).resolves.toEqual({ code: Code.NotFound, message: PROFILE_NOT_FOUND });
    await expect(
      connectErrorOf(h.rpc.reactivateUser({ id: randomUUID() }, h.ctx("reactivateUser", staff.identity))),
    ).resolves.toEqual({ code: Code.NotFound, message: PROFILE_NOT_FOUND });
    const user = await account();
    await expect(
      connectErrorOf(
        h.rpc.requestDeactivation({ reason: "x".repeat(1001) }, h.ctx("requestDeactivation", user.identity)),
      ),
    ).resolves.toEqual({ code: Code.InvalidArgument, message: "reason must be at most 1000 characters" });
  });
});
