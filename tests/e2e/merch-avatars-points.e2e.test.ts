// Avatars, seasons, points and rankings through the gateway (issue 15), and the authorization matrix of the merch
// paths: admin paths refuse users and anonymous callers with 401, service paths refuse users, the documented
// literal segments win over their {slug} / {accountId} siblings.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedPlatform, type TestPlatform } from "./support/platform.ts";

const m = (path: string) => `/api/merch-service${path}`;

let platform: TestPlatform;
let admin: string;
let user: { token: string; uuid: string };

beforeAll(async () => {
  platform = await sharedPlatform();
  admin = await platform.adminToken();
  const signed = await platform.signUp();
  user = { token: signed.token, uuid: signed.user.uuid };
});

describe("authorization matrix", () => {
  const ADMIN_ONLY: Array<[string, string, unknown?]> = [
    ["GET", "/admin/avatars"],
    ["GET", "/admin/avatars/some-slug"],
    ["DELETE", "/admin/avatars/some-slug"],
    ["POST", "/avatars", { slug: "x" }],
    ["PATCH", "/avatars/some-slug", {}],
    ["DELETE", "/avatars/some-slug"],
    ["DELETE", `/avatar-assignment/${randomUUID()}`],
    ["POST", "/points/season/admin/handle-points", { userUuid: randomUUID(), points: 1 }],
    ["POST", `/points/backfill-achieved-avatars/${randomUUID()}`, {}],
    ["GET", "/admin/ranking-status"],
    ["GET", `/admin/ranking-status/${randomUUID()}`],
    ["GET", "/admin/ranking-status-lifetime"],
    ["GET", `/admin/ranking-status-lifetime/${randomUUID()}`],
    ["GET", "/admin/seasons"],
    ["GET", `/admin/seasons/${randomUUID()}`],
    ["DELETE", `/admin/seasons/${randomUUID()}`],
    ["POST", "/points/season", { seasonName: "x", seasonStart: new Date().toISOString() }],
    ["PATCH", `/points/season/${randomUUID()}`, {}],
    ["DELETE", `/points/season/${randomUUID()}`],
    ["POST", "/custom-fields", { userUuid: randomUUID(), key: "k" }],
    ["DELETE", `/custom-fields?userUuid=${randomUUID()}&key=k`],
    ["POST", "/sentry-testing", {}],
    ["POST", "/api/v1/consumables", { name: "x", tokenCost: 1 }],
    ["PATCH", `/api/v1/consumables/${randomUUID()}`, {}],
    ["DELETE", `/api/v1/consumables/${randomUUID()}`],
    ["POST", "/api/v1/token-bundles", { productId: "p", tokens: 1 }],
    ["PATCH", `/api/v1/token-bundles/${randomUUID()}`, {}],
    ["POST", `/api/v1/token-bundles/${randomUUID()}`, {}],
    ["GET", "/api/v1/token-ledger/check"],
  ];

  it.each(ADMIN_ONLY)("%s %s: 401 for a user and for nobody", async (method, path, body) => {
    expect((await platform.call(method, m(path), { token: user.token, body })).status).toBe(401);
    expect((await platform.call(method, m(path), { body })).status).toBe(401);
  });

  it("service-only paths refuse users; a service token passes", async () => {
    const award = { userUuid: user.uuid, points: 1, eventId: randomUUID() };
    expect((await platform.call("POST", m("/points/service"), { token: user.token, body: award })).status).toBe(401);
    expect((await platform.call("GET", m("/service/avatar/none"), { token: user.token })).status).toBe(401);
    const service = await platform.serviceToken("room");
    expect((await platform.call("POST", m("/points/service"), { token: service, body: award })).status).toBe(200);
  });

  it("own-account paths need a user; public lists need nothing", async () => {
    expect((await platform.call("GET", m("/api/v1/token-accounts/self"))).status).toBe(401);
    expect((await platform.call("POST", m("/api/v1/consumable-purchases"), { body: {} })).status).toBe(401);
    expect((await platform.call("GET", m("/api/v1/consumables"))).status).toBe(200);
    expect((await platform.call("GET", m("/api/v1/token-bundles"))).status).toBe(200);
    expect((await platform.call("GET", m("/all-avatars"))).status).toBe(200);
  });
});

describe("avatars, seasons and points", () => {
  it("seasons, points once per event, the current ranking and the leaderboard with take and skip", async () => {
    const season = await platform.call("POST", m("/points/season"), {
      token: admin,
      body: { seasonName: `S-${randomUUID().slice(0, 6)}`, seasonStart: new Date(Date.now() - 60_000).toISOString() },
    });
    expect(season.status).toBe(200);
    const current = await platform.call("GET", m("/seasons/current"));
    expect(current.body).toMatchObject({ id: season.body.id });
    const before = await platform.call("GET", m("/points/current-ranking-status"), { token: user.token });
    expect(before.body).toMatchObject({ hasCurrentRankingStatus: false });
    const eventId = randomUUID();
    const service = await platform.serviceToken("room");
    const award = () =>
      platform.call("POST", m("/points/service"), {
        token: service,
        body: { userUuid: user.uuid, points: 7, eventId },
      });
    expect((await award()).body).toMatchObject({ applied: true });
    expect((await award()).body).toMatchObject({ applied: false });
    const after = await platform.call("GET", m("/points/current-ranking-status"), { token: user.token });
    expect(after.body).toMatchObject({ hasCurrentRankingStatus: true, rankingStatus: { balance: 7, rank: 1 } });
    const board = await platform.call("GET", m("/points/season-ranking?take=1&skip=0"));
    expect(board.body).toMatchObject({ take: 1, skip: 0 });
    expect((await platform.call("GET", m("/points/season-ranking?take=500"))).status).toBe(400);
    const sum = await platform.call("GET", m(`/points/ranking-status/sum/${user.uuid}`), { token: user.token });
    expect(Number(sum.body.sum)).toBeGreaterThanOrEqual(7);
    const byName = await platform.call("GET", m(`/points/season-ranking/${season.body.seasonName as string}`));
    expect(byName.status).toBe(200);
    const admins = await platform.call("GET", m(`/admin/ranking-status?userUuid=${user.uuid}&limit=5`), {
      token: admin,
    });
    expect(admins).toMatchObject({ status: 200, body: { total: 1 } });
  });

  it("avatars: created by an admin, listed, literal /avatars/subscriber wins over /avatars/{slug}", async () => {
    const slug = `cat-${randomUUID().slice(0, 8)}`;
    expect((await platform.call("POST", m("/avatars"), { token: admin, body: { slug, name: "Cat" } })).status).toBe(
      200,
    );
    const mine = await platform.call("GET", m("/avatars"), { token: user.token });
    expect((mine.body.avatars as Array<{ slug: string }>).map((a) => a.slug)).toContain(slug);
    const sub = await platform.call("GET", m("/avatars/subscriber"), { token: user.token });
    expect(sub).toMatchObject({ status: 200, body: { subscriber: false } });
    const allowed = await platform.call("GET", m(`/avatars/${slug}/${user.uuid}`), { token: user.token });
    expect(allowed.body).toMatchObject({ allowed: true });
    const form = new FormData();
    form.set("slug", `${slug}-img`);
    form.set("image", new Blob([Buffer.from("not an image")], { type: "image/png" }), "x.png");
    const bad = await platform.call("POST", m("/avatars"), { token: admin, form });
    expect(bad).toMatchObject({ status: 400, body: { message: "image must be a JPEG, PNG, WebP or GIF image" } });
    expect((await platform.call("GET", m("/avatars/nope-nope"), { token: user.token })).status).toBe(404);
  });
});
