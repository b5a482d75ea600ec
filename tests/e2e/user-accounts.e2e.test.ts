// The accounts area over REST through the gateway (all-in-one): every path's success and each documented
// error, with a real SMTP server and a Discord stand-in on 127.0.0.1 in place of the outside world.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  resetCodeOf,
  startFakeDiscord,
  startFakeSmtp,
  type FakeDiscord,
  type FakeSmtp,
} from "@tt/user-service/testing/accounts";
import { startTestPlatform, u, type Answer, type CallOptions, type TestPlatform } from "./support/platform.ts";

let platform: TestPlatform;
let smtp: FakeSmtp;
let discord: FakeDiscord;
let admin: string;
const call = (method: string, path: string, opts?: CallOptions) => platform.call(method, path, opts);

beforeAll(async () => {
  smtp = await startFakeSmtp();
  discord = await startFakeDiscord();
  platform = await startTestPlatform({
    env: {
      ...smtp.env,
      ...discord.env,
      WEB_BASE_URL: "https://tt.example",
      PASSWORD_RESET_ATTEMPTS_PER_CLIENT_PER_HOUR: "12",
    },
  });
  admin = await platform.adminToken();
});

afterAll(async () => {
  await platform?.close();
  await smtp?.close();
  await discord?.server.close();
});

/** Status and message of an error answer, in the gateway's REST error shape. */
function failure(res: Answer) {
  return { status: res.status, message: res.body.message };
}

const email = () => `${randomUUID()}@example.test`;

describe("admin", () => {
  it("GET /admin/users/{id}: the account; 404 when unknown", async () => {
    const { user } = await platform.signUp();
    const res = await call("GET", u(`/admin/users/${user.uuid}`), { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uuid: user.uuid, email: user.email, hasPassword: true });
    expect((await call("GET", u(`/admin/users/${randomUUID()}`), { token: admin })).status).toBe(404);
    const { token } = await platform.signUp();
    expect((await call("GET", u(`/admin/users/${user.uuid}`), { token })).status).toBe(401);
  });

  it("POST /users/admin/sign-up: 200; 400 when e-mail or password is missing; 403 when taken", async () => {
    const address = email();
    const res = await call("POST", u("/users/admin/sign-up"), {
      token: admin,
      body: { email: address, password: "staff-password", role: "staff" },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email: address, role: "staff" });
    expect(failure(await call("POST", u("/users/admin/sign-up"), { token: admin, body: { email: email() } }))).toEqual({
      status: 400,
      message: "email or password missing in request",
    });
    expect(
      failure(
        await call("POST", u("/users/admin/sign-up"), {
          token: admin,
          body: { email: address, password: "staff-password" },
        }),
      ),
    ).toEqual({ status: 403, message: "this email is already registered" });
  });

  it("POST /users/change-password-admin: 200 and the old sessions end; 404 when unknown", async () => {
    const { user, token } = await platform.signUp();
    const res = await call("POST", u("/users/change-password-admin"), {
      token: admin,
      body: { uuid: user.uuid, newPassword: "admin-chosen-1" },
    });
    expect(res.status).toBe(200);
    expect((await call("GET", u("/auth/session"), { token })).status).toBe(401);
    await platform.login(user.email, "admin-chosen-1");
    const missing = await call("POST", u("/users/change-password-admin"), {
      token: admin,
      body: { uuid: randomUUID(), newPassword: "admin-chosen-1" },
    });
    expect(missing.status).toBe(404);
  });
});

describe("magic links", () => {
  it("GET /auth/magic-link then POST /auth/validate-magic-link signs in once; 400 for path and plan; 401 reused", async () => {
    const { user, token } = await platform.signUp();
    const made = await call("GET", u("/auth/magic-link?path=%2Frooms%2Fjazz"), { token });
    expect(made.status).toBe(200);
    const secret = made.body.shortLivedToken as string;
    expect(made.body.link).toBe(`https://tt.example/magic-link/${secret}/%2Frooms%2Fjazz`);
    expect((await call("GET", u("/auth/magic-link?path=%2Fa&plan=gold"), { token })).status).toBe(400);

    const res = await call("POST", u("/auth/validate-magic-link"), { body: { token: secret } });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ uuid: user.uuid });
    const session = await call("GET", u("/auth/session"), {
      token: (res.body.accessToken as { token: string }).token,
    });
    expect(session.body).toMatchObject({ user: { uuid: user.uuid } });
    expect((await call("POST", u("/auth/validate-magic-link"), { body: { token: secret } })).status).toBe(401);
  });
});

describe("passwords", () => {
  it("POST /users/forgot-password and /users/reset-password: 200 alike, code by mail, 403 when used; 429 too often", async () => {
    const { user, token } = await platform.signUp();
    const unknown = await call("POST", u("/users/forgot-password"), { body: { email: email() } });
    const known = await call("POST", u("/users/forgot-password"), { body: { email: user.email } });
    expect(unknown).toMatchObject({ status: 200, body: {} });
    expect(known).toMatchObject({ status: 200, body: {} });
    const code = resetCodeOf(await smtp.next(user.email));

    const reset = (c: string) =>
      call("POST", u("/users/reset-password"), { body: { email: user.email, code: c, newPassword: "reset-pass-1" } });
    expect(failure(await reset("wrong"))).toEqual({ status: 403, message: "can not reset password" });
    const res = await reset(code);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ uuid: user.uuid });
    expect((await call("GET", u("/auth/session"), { token })).status).toBe(401);
    expect(failure(await reset(code))).toEqual({ status: 403, message: "can not reset password" });
    expect((await call("POST", u("/users/forgot-password"), { body: { email: user.email } })).status).toBe(429);
  });

  it("issue 9 defect 6: reset-password tries from one address end in 429 with retry-after", async () => {
    // Every call of this suite comes from 127.0.0.1, which has a budget of 12 tries an hour here; the other
    // tests may have spent some of it, so count until the refusal instead of assuming the first try is ours.
    const statuses: number[] = [];
    let refused: Answer | undefined;
    for (let i = 0; i < 13 && !refused; i++) {
      const res = await call("POST", u("/users/reset-password"), {
        body: { email: email(), code: randomUUID(), newPassword: "reset-pass-1" },
      });
      if (res.status === 429) refused = res;
      else statuses.push(res.status);
    }
    expect(new Set(statuses)).toEqual(new Set(statuses.length ? [403] : []));
    expect(refused && failure(refused)).toEqual({
      status: 429,
      message: "too many password reset attempts, try again later",
    });
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("POST /users/set-password: 200 for a Discord account; 403 when it has one; 401 without a real address", async () => {
    const du = { id: "e2e-1", username: "e2e-setter", email: `setter-${randomUUID()}@example.test`, verified: true };
    const signedIn = await call("POST", u("/auth/discord-auth"), { body: { code: discord.codeFor(du) } });
    expect(signedIn.status).toBe(200);
    const token = (signedIn.body.accessToken as { token: string }).token;
    const res = await call("POST", u("/users/set-password"), { token, body: { password: "first-password" } });
    expect(res.status).toBe(200);
    await platform.login(du.email, "first-password");
    const again = await call("POST", u("/users/set-password"), {
      token: (res.body.accessToken as { token: string }).token,
      body: { password: "second-password" },
    });
    expect(again.status).toBe(403);

    const noAddress = await call("POST", u("/auth/discord-auth"), {
      body: { code: discord.codeFor({ id: "e2e-2", username: "no-mail" }) },
    });
    const res2 = await call("POST", u("/users/set-password"), {
      token: (noAddress.body.accessToken as { token: string }).token,
      body: { password: "first-password" },
    });
    expect(failure(res2)).toEqual({ status: 401, message: "email address not verified" });
  });
});

describe("Discord", () => {
  it("POST /auth/discord-auth: creates then signs in; 400 for neither; 401 refused; 403 address taken", async () => {
    const du = { id: "e2e-3", username: "disco", email: `disco-${randomUUID()}@example.test`, verified: true };
    const first = await call("POST", u("/auth/discord-auth"), {
      body: { code: discord.codeFor(du), redirectUri: "https://tt.example/cb" },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ created: true, user: { email: du.email } });
    const second = await call("POST", u("/auth/discord-auth"), {
      body: { discordAccessToken: `at-${discord.codeFor(du)}` },
    });
    expect(second.body).toMatchObject({ created: false, user: { uuid: (first.body.user as { uuid: string }).uuid } });

    expect((await call("POST", u("/auth/discord-auth"), { body: {} })).status).toBe(400);
    expect((await call("POST", u("/auth/discord-auth"), { body: { code: "refused" } })).status).toBe(401);
    const { user } = await platform.signUp();
    const taken = await call("POST", u("/auth/discord-auth"), {
      body: { code: discord.codeFor({ id: "e2e-4", username: "taken", email: user.email, verified: true }) },
    });
    expect(failure(taken)).toEqual({ status: 403, message: "this email is already registered" });
  });

  it("POST /auth/exchange-code: Discord's token; 401 refused", async () => {
    const code = discord.codeFor({ id: "e2e-5", username: "activity" });
    const res = await call("POST", u("/auth/exchange-code"), { body: { code } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ accessToken: `at-${code}` });
    expect((await call("POST", u("/auth/exchange-code"), { body: { code } })).status).toBe(401);
  });

  it("POST /auth/link-discord: links; 409 when another account has it; 401 refused", async () => {
    const a = await platform.signUp();
    const du = { id: "e2e-6", username: "linked" };
    const res = await call("POST", u("/auth/link-discord"), { token: a.token, body: { code: discord.codeFor(du) } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user: { uuid: a.user.uuid, socials: { discord: "linked" } } });
    const b = await platform.signUp();
    expect(
      (await call("POST", u("/auth/link-discord"), { token: b.token, body: { code: discord.codeFor(du) } })).status,
    ).toBe(409);
    expect((await call("POST", u("/auth/link-discord"), { token: b.token, body: { code: "refused" } })).status).toBe(
      401,
    );
  });
});

describe("bots", () => {
  it("POST /users/sign-up-bot and GET /users/bot-token: owner and bot renew; 403 stranger; 404 no bot", async () => {
    const owner = await platform.signUp();
    const made = await call("POST", u("/users/sign-up-bot"), { token: owner.token, body: { nickname: "Robo DJ" } });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({
      user: { role: "bot", ownerUuid: owner.user.uuid },
      accessToken: { tokenType: "bot" },
    });
    const botUuid = (made.body.user as { uuid: string }).uuid;
    const botToken = (made.body.accessToken as { token: string }).token;

    const byOwner = await call("GET", u(`/users/bot-token?uuid=${botUuid}`), { token: owner.token });
    expect(byOwner).toMatchObject({ status: 200, body: { accessToken: { tokenType: "bot" } } });
    const bySelf = await call("GET", u("/users/bot-token"), { token: botToken });
    expect(bySelf.status).toBe(200);
    const session = await call("GET", u("/auth/session"), {
      token: (bySelf.body.accessToken as { token: string }).token,
    });
    expect(session.body).toMatchObject({ tokenType: "bot", user: { uuid: botUuid } });

    const stranger = await platform.signUp();
    expect((await call("GET", u(`/users/bot-token?uuid=${botUuid}`), { token: stranger.token })).status).toBe(403);
    expect((await call("GET", u(`/users/bot-token?uuid=${randomUUID()}`), { token: owner.token })).status).toBe(404);
  });
});

describe("vouchers", () => {
  it("POST /vouchers: created; 400 unknown capability; 409 taken code", async () => {
    const res = await call("POST", u("/vouchers"), { token: admin, body: { code: "E2E-CREATE", badges: ["JQBX"] } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: "E2E-CREATE", status: "PENDING", badges: ["JQBX"] });
    expect((await call("POST", u("/vouchers"), { token: admin, body: { capabilities: ["fly"] } })).status).toBe(400);
    expect((await call("POST", u("/vouchers"), { token: admin, body: { code: "e2e-create" } })).status).toBe(409);
  });

  it("GET /vouchers: the admin list", async () => {
    await call("POST", u("/vouchers"), { token: admin, body: { code: "E2E-LISTED" } });
    const res = await call("GET", u("/vouchers?filter=code||$eq||E2E-LISTED"), { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 1, total: 1, data: [{ code: "E2E-LISTED", status: "PENDING" }] });
    expect((await call("GET", u("/vouchers?filter=secret||$eq||x"), { token: admin })).status).toBe(400);
  });

  it("PATCH /vouchers/redeem and DELETE /vouchers/{id}: redeemed once; 400, 404, 403 (redeemed, revoked)", async () => {
    const made = await call("POST", u("/vouchers"), { token: admin, body: { capabilities: ["uploadMusic"] } });
    const code = made.body.code as string;
    const { user, token } = await platform.signUp();
    const redeemed = await call("PATCH", u("/vouchers/redeem"), { token, body: { code } });
    expect(redeemed).toMatchObject({ status: 200, body: { status: "REDEEMED", redeemedByUuid: user.uuid } });
    expect(failure(await call("PATCH", u("/vouchers/redeem"), { token, body: { code } }))).toEqual({
      status: 403,
      message: "voucher can not be redeemed",
    });
    expect(failure(await call("PATCH", u("/vouchers/redeem"), { token, body: { code: "" } }))).toEqual({
      status: 400,
      message: "voucher code missing in request",
    });
    expect((await call("PATCH", u("/vouchers/redeem"), { token, body: { code: "NO-SUCH" } })).status).toBe(404);
    expect((await call("DELETE", u(`/vouchers/${made.body.id as string}`), { token: admin })).status).toBe(403);

    const other = await call("POST", u("/vouchers"), { token: admin, body: {} });
    const revoked = await call("DELETE", u(`/vouchers/${other.body.id as string}`), { token: admin });
    expect(revoked).toMatchObject({ status: 200, body: { status: "REVOKED" } });
    expect((await call("PATCH", u("/vouchers/redeem"), { token, body: { code: other.body.code } })).status).toBe(403);
    expect((await call("DELETE", u(`/vouchers/${randomUUID()}`), { token: admin })).status).toBe(404);
  });

  it("POST /users/voucher-sign-up: 200; 400 missing credentials or code; 403 taken or spent; 404 unknown", async () => {
    const made = await call("POST", u("/vouchers"), { token: admin, body: { badges: ["PLATINUM"] } });
    const code = made.body.code as string;
    const address = email();
    const signUp = (body: Record<string, unknown>) => call("POST", u("/users/voucher-sign-up"), { body });
    const res = await signUp({ email: address, password: "voucher-pass-1", voucherCode: code });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      user: { email: address, badges: ["PLATINUM"] },
      accessToken: { tokenType: "user" },
    });

    expect(failure(await signUp({ email: email(), voucherCode: code }))).toEqual({
      status: 400,
      message: "email or password missing in request",
    });
    expect(failure(await signUp({ email: email(), password: "voucher-pass-1" }))).toEqual({
      status: 400,
      message: "voucher code missing in request",
    });
    expect(failure(await signUp({ email: address, password: "voucher-pass-1", voucherCode: code }))).toEqual({
      status: 403,
      message: "this email is already registered",
    });
    expect((await signUp({ email: email(), password: "voucher-pass-1", voucherCode: code })).status).toBe(403);
    expect((await signUp({ email: email(), password: "voucher-pass-1", voucherCode: "NO-SUCH" })).status).toBe(404);
  });
});
