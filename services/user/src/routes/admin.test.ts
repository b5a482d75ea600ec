import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { UserBan } from "../modules/moderation/ban.entity.ts";
import { Deactivation } from "../modules/moderation/deactivation.entity.ts";
import { User } from "../modules/users/user.entity.ts";
import { Code, connectErrorOf } from "../testing/expect-connect-error.ts";
import { createUserHarness, type UserHarness } from "../testing/user-harness.ts";

let h: UserHarness;
let admin: Awaited<ReturnType<UserHarness["identityOf"]>>;

beforeAll(async () => {
  h = await createUserHarness(inject("databaseUrl"), {
    ADMIN_EMAIL: "admin@example.org",
    ADMIN_PASSWORD: "admin password",
  });
  for (let i = 1; i <= 5; i++) {
    await h.rpc.signUp({ email: `listed${i}@example.org`, password: "long enough" }, h.ctx("signUp"));
  }
  const em = h.orm.em.fork();
  await em.nativeUpdate(User, { email: "listed3@example.org" }, { role: "moderator" });
  const login = await h.rpc.login({ email: "admin@example.org", password: "admin password" }, h.ctx("login"));
  admin = await h.identityOf(login.accessToken!.token);
});

afterAll(async () => {
  await h?.close();
});

describe("AdminListUsers", () => {
  it("lists every account, oldest first, with the page numbers", async () => {
    const res = await h.rpc.adminListUsers({}, h.ctx("adminListUsers", admin));
    expect(res.total).toBe(6);
    expect(res).toMatchObject({ count: 6, page: 1, pageCount: 1 });
    expect(res.data.map((u) => u.email)).toEqual([
      "admin@example.org",
      ...[1, 2, 3, 4, 5].map((i) => `listed${i}@example.org`),
    ]);
  });

  it("pages with limit and page, and with limit and offset", async () => {
    const second = await h.rpc.adminListUsers({ query: { limit: 2, page: 2 } }, h.ctx("adminListUsers", admin));
    expect(second).toMatchObject({ count: 2, total: 6, page: 2, pageCount: 3 });
    expect(second.data.map((u) => u.email)).toEqual(["listed2@example.org", "listed3@example.org"]);
    const byOffset = await h.rpc.adminListUsers({ query: { limit: 2, offset: 4 } }, h.ctx("adminListUsers", admin));
    expect(byOffset).toMatchObject({ count: 2, page: 3 });
  });

  it("filters, sorts and narrows the fields", async () => {
    const res = await h.rpc.adminListUsers(
      { query: { filter: ["role||$ne||admin"], sort: ["email,DESC"], fields: "email" } },
      h.ctx("adminListUsers", admin),
    );
    expect(res.total).toBe(5);
    expect(res.data[0]).toMatchObject({ email: "listed5@example.org", role: "" });
    expect(res.data[0]?.uuid).not.toBe("");
    const moderators = await h.rpc.adminListUsers(
      { query: { s: '{"role":"moderator"}' } },
      h.ctx("adminListUsers", admin),
    );
    expect(moderators.data.map((u) => u.email)).toEqual(["listed3@example.org"]);
  });

  it("answers 400 naming the parameter for a field outside the allow-list", async () => {
    const error = await connectErrorOf(
      h.rpc.adminListUsers({ query: { filter: ["passwordHash||$eq||x"] } }, h.ctx("adminListUsers", admin)),
    );
    expect(error.code).toBe(Code.InvalidArgument);
    expect(error.message).toMatch(/^filter: /);
  });

  it("finds accounts by their profile's nickname, with the rest of the query, and refuses what it cannot answer", async () => {
    const ask = (query: { filter?: string[]; or?: string[]; sort?: string[] }) =>
      h.rpc.adminListUsers({ query }, h.ctx("adminListUsers", admin));
    const emails = async (query: { filter?: string[]; or?: string[]; sort?: string[] }) =>
      (await ask(query)).data.map((u) => u.email);
    // Sign-up gave each account the local part of its e-mail as nickname ("listed2").
    expect(await emails({ filter: ["nickname||$contL||STED2"] })).toEqual(["listed2@example.org"]);
    expect(await emails({ filter: ["nickname||$startsL||listed", "role||$eq||moderator"] })).toEqual([
      "listed3@example.org",
    ]);
    expect(await emails({ filter: ["nickname||$eq||admin"] })).toEqual(["admin@example.org"]);
    // Wildcards match literally; the page's total counts only the matches.
    expect((await ask({ filter: ["nickname||$contL||%"] })).total).toBe(0);
    const listed = await ask({ filter: ["nickname||$starts||listed"], sort: ["email,DESC"] });
    expect(listed.total).toBe(5);
    expect(listed.data[0]?.email).toBe("listed5@example.org");

    expect(await connectErrorOf(ask({ filter: ["nickname||$gt||a"] }))).toMatchObject({
      code: Code.InvalidArgument,
      message: "filter: nickname takes $eq, $eqL, $cont, $contL, $starts, $startsL, not $gt",
    });
    expect(await connectErrorOf(ask({ filter: ["nickname||$cont||a"], or: ["role||$eq||admin"] }))).toMatchObject({
      code: Code.InvalidArgument,
      message: "filter: nickname cannot be combined with or",
    });
  });

  it("shows each row's active ban with its end and reason, and its deactivation request and deactivation", async () => {
    const em = h.orm.em.fork();
    const [one, two, four] = await Promise.all(
      [1, 2, 4].map((i) => em.findOneOrFail(User, { email: `listed${i}@example.org` })),
    );
    const endsAt = new Date(Date.now() + 3_600_000);
    const requestedAt = new Date("2026-11-01T10:00:00Z");
    em.create(UserBan, { user: one!, reason: "spam", bannedBy: null, createdAt: new Date(), endsAt });
    // An expired temporary ban the sweeper has not removed yet is no ban.
    em.create(UserBan, { user: two!, reason: "old", bannedBy: null, createdAt: new Date(), endsAt: new Date(1000) });
    em.create(Deactivation, { user: four!, reason: "", requestedAt, deactivatedAt: null, deactivatedBy: null });
    await em.flush();
    try {
      const res = await h.rpc.adminListUsers(
        { query: { filter: ["email||$contL||listed"] } },
        h.ctx("adminListUsers", admin),
      );
      const byEmail = new Map(res.data.map((u) => [u.email, u]));
      const banned = byEmail.get("listed1@example.org");
      expect(banned?.ban?.reason).toBe("spam");
      expect(timestampDate(banned!.ban!.endsAt!).getTime()).toBe(endsAt.getTime());
      expect(byEmail.get("listed2@example.org")?.ban).toBeUndefined();
      expect(timestampDate(byEmail.get("listed4@example.org")!.deactivationRequestedAt!).getTime()).toBe(
        requestedAt.getTime(),
      );
      expect(byEmail.get("listed4@example.org")?.deactivatedAt).toBeUndefined();
      expect(byEmail.get("listed5@example.org")?.ban).toBeUndefined();
      expect(byEmail.get("listed5@example.org")?.deactivationRequestedAt).toBeUndefined();
    } finally {
      await em.nativeDelete(UserBan, { user: { $in: [one!.id, two!.id] } });
      await em.nativeDelete(Deactivation, { user: four!.id });
    }
  });
});
