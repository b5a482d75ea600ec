// The token ledger through the gateway (issue 15): accounts, the admin grant, an account found by its user (issue
// 16), purchases with Idempotency-Key (the header crosses the gateway; a reused key with another body is 422), the
// §8 message, stale views (409), holds and commits, and the ledger check.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedPlatform, type TestPlatform } from "./support/platform.ts";

const m = (path: string) => `/api/merch-service${path}`;

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await sharedPlatform();
  admin = await platform.adminToken();
});

async function fundedUser(tokens: number) {
  const { token, user } = await platform.signUp();
  const created = await platform.call("POST", m("/api/v1/token-accounts"), { token, body: {} });
  expect(created.status).toBe(200);
  const account = created.body as { id: string; balance: number; updatedAt: string };
  if (tokens > 0) {
    const grant = await platform.call("POST", m(`/api/v1/token-accounts/${account.id}/grant`), {
      token: admin,
      body: { tokens, reason: "e2e" },
    });
    expect(grant.status).toBe(200);
  }
  return { token, accountId: account.id, uuid: user.uuid };
}

async function consumable(tokenCost: number) {
  const res = await platform.call("POST", m("/api/v1/consumables"), {
    token: admin,
    body: { name: `sticker ${randomUUID().slice(0, 8)}`, tokenCost },
  });
  expect(res.status).toBe(200);
  return res.body as { id: string; tokenCost: number };
}

describe("merch token ledger through the gateway", () => {
  it("answers the hello check", async () => {
    const res = await platform.call("GET", m("/"));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ service: "merch-service" });
  });

  it("a purchase debits once per Idempotency-Key; the same key with another body is 422", async () => {
    const u = await fundedUser(100);
    const c = await consumable(25);
    const self = await platform.call("GET", m("/api/v1/token-accounts/self"), { token: u.token });
    expect(self.body).toMatchObject({ balance: 100, status: "active" });
    const body = {
      consumableId: c.id,
      tokenCost: 25,
      accountId: u.accountId,
      lastTokenBalance: 100,
      balanceUnmodifiedSince: self.body.updatedAt,
    };
    const key = randomUUID();
    const buy = (b: object) =>
      platform.call("POST", m("/api/v1/consumable-purchases"), {
        token: u.token,
        body: b,
        headers: { "idempotency-key": key },
      });
    const first = await buy(body);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ account: { balance: 75 }, purchase: { tokenCost: 25 } });
    const again = await buy(body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const other = await buy({ ...body, roomUuid: randomUUID() });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({
      statusCode: 422,
      message: "this Idempotency-Key was already used with a different request",
    });
    const after = await platform.call("GET", m("/api/v1/token-accounts/self"), { token: u.token });
    expect(after.body).toMatchObject({ balance: 75 });
    // The view the first purchase was made with is stale now.
    const stale = await platform.call("POST", m("/api/v1/consumable-purchases"), { token: u.token, body });
    expect(stale.status).toBe(409);
    expect(String(stale.body.message)).toContain("balance changed");
  });

  it("refuses another price, too few tokens, and a missing account with the §8 message", async () => {
    const c = await consumable(10);
    const u = await fundedUser(5);
    const price = await platform.call("POST", m("/api/v1/consumable-purchases"), {
      token: u.token,
      body: { consumableId: c.id, tokenCost: 1 },
    });
    expect(price.status).toBe(409);
    const poor = await platform.call("POST", m("/api/v1/consumable-purchases"), {
      token: u.token,
      body: { consumableId: c.id, tokenCost: 10 },
    });
    expect(poor).toMatchObject({ status: 409, body: { message: "not enough tokens" } });
    const { token } = await platform.signUp();
    const none = await platform.call("POST", m("/api/v1/consumable-purchases"), {
      token,
      body: { consumableId: c.id, tokenCost: 10 },
    });
    expect(none.status).toBe(404);
    expect(none.body.message).toBe("We were unable to find your token account. Please try again.");
    const anonymous = await platform.call("POST", m("/api/v1/consumable-purchases"), {
      body: { consumableId: c.id, tokenCost: 10 },
    });
    expect(anonymous.status).toBe(401);
    const bad = await platform.call("POST", m("/api/v1/consumable-purchases"), {
      token,
      body: { consumableId: "x".repeat(40), tokenCost: 10 },
    });
    expect(bad.status).toBe(400);
  });

  it("admins find a user's account by the user (issue 16): 404 without one, 400 for a bad uuid", async () => {
    const u = await fundedUser(3);
    const path = (uuid: string) => m(`/api/v1/token-accounts/user/${uuid}`);
    expect(await platform.call("GET", path(u.uuid), { token: admin })).toMatchObject({
      status: 200,
      body: { id: u.accountId, balance: 3 },
    });
    expect((await platform.call("GET", path(u.uuid), { token: u.token })).status).toBe(401);
    const { user } = await platform.signUp();
    expect(await platform.call("GET", path(user.uuid), { token: admin })).toMatchObject({
      status: 404,
      body: { message: "this user has no token account" },
    });
    expect((await platform.call("GET", path("not-a-uuid"), { token: admin })).status).toBe(400);
  });

  it("holds are committed through POST /api/v1/token-transactions/commit; the ledger check holds", async () => {
    const u = await fundedUser(30);
    const hold = await platform.call("POST", m("/api/v1/token-transactions/hold"), {
      token: u.token,
      body: { tokens: 12 },
    });
    expect(hold.status).toBe(200);
    const holdId = (hold.body as { id: string }).id;
    const commit = await platform.call("POST", m("/api/v1/token-transactions/commit"), {
      token: u.token,
      body: { holdId },
    });
    expect(commit).toMatchObject({ status: 200, body: { type: "commit", holdId } });
    const self = await platform.call("GET", m("/api/v1/token-accounts/self"), { token: u.token });
    expect(self.body.balance).toBe(18);
    const check = await platform.call("GET", m("/api/v1/token-ledger/check"), { token: admin });
    expect(check).toMatchObject({ status: 200, body: { ok: true } });
    const notAdmin = await platform.call("GET", m("/api/v1/token-ledger/check"), { token: u.token });
    expect(notAdmin.status).toBe(401);
  });

  it("token bundles: POST on a bundle deletes it, as documented; lists are at most 32", async () => {
    const created = await platform.call("POST", m("/api/v1/token-bundles"), {
      token: admin,
      body: { productId: `p-${randomUUID()}`, tokens: 500 },
    });
    expect(created.status).toBe(200);
    const id = (created.body as { id: string }).id;
    expect((await platform.call("GET", m(`/api/v1/token-bundles/${id}`))).status).toBe(200);
    expect((await platform.call("GET", m("/api/v1/token-bundles?limit=33"))).status).toBe(400);
    expect((await platform.call("GET", m("/api/v1/token-bundles/count"))).body.count).toBeGreaterThan(0);
    expect((await platform.call("POST", m(`/api/v1/token-bundles/${id}`), { token: admin, body: {} })).status).toBe(
      200,
    );
    expect((await platform.call("GET", m(`/api/v1/token-bundles/${id}`))).status).toBe(404);
  });
});
