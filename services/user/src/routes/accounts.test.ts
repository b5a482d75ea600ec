import { ConnectError } from "@connectrpc/connect";
import { randomUUID } from "node:crypto";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { fromBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { eventDeclaration, type Identity } from "@tt/kit";
import { UserUpdatedSchema, VoucherRedeemedSchema } from "@tt/proto/tt/user/v1/events_pb";
import { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  EMAIL_ALREADY_REGISTERED,
  MISSING_CREDENTIALS,
  PASSWORD_IS_ACCOUNT_NAME,
  PASSWORD_ONE_CHARACTER,
  PASSWORD_TOO_COMMON,
} from "../account-rules.ts";
import { AccountToken } from "../modules/accounts/account-token.entity.ts";
import { DiscordLink } from "../modules/accounts/discord-link.entity.ts";
import { NO_PASSWORD_HASH } from "../modules/accounts/no-password.ts";
import {
  resetCodeOf,
  startFakeDiscord,
  startFakeSmtp,
  type FakeDiscord,
  type FakeSmtp,
} from "../modules/accounts/testing/fakes.ts";
import { Voucher } from "../modules/accounts/voucher.entity.ts";
import {
  VOUCHER_CODE_MISSING,
  VOUCHER_CODE_TAKEN,
  VOUCHER_NOT_FOUND,
  VOUCHER_NOT_REDEEMABLE,
  VOUCHER_REDEEMED,
} from "../modules/accounts/voucher-rules.ts";
import { Session } from "../modules/sessions/session.entity.ts";
import { User } from "../modules/users/user.entity.ts";
import { passwordHashesComputed, verifyPassword } from "../passwords.ts";
import { Code, connectErrorOf } from "../testing/expect-connect-error.ts";
import { createUserHarness, type UserHarness } from "../testing/user-harness.ts";
import { ADMIN_SIGN_UP_ROLES } from "./accounts-admin.ts";
import { BOT_NOT_FOUND, NOT_BOT_OWNER } from "./accounts-bots.ts";
import { CODE_OR_TOKEN, DISCORD_LINKED_ELSEWHERE } from "./accounts-discord.ts";
import { MAGIC_LINK_INVALID, PATH_AND_PLAN, PATH_INVALID } from "./accounts-magic-links.ts";
import {
  CANNOT_RESET_PASSWORD,
  EMAIL_NOT_VERIFIED,
  PASSWORD_ALREADY_SET,
  RESET_ATTEMPTS_TOO_MANY,
  RESET_TOO_OFTEN,
} from "./accounts-passwords.ts";
import { USER_NOT_FOUND } from "./accounts-shared.ts";
import { INCORRECT_CREDENTIALS } from "./auth.ts";

const ADMIN = { email: "admin@example.test", password: "admin-password-1" };
let h: UserHarness;
let dev: UserHarness;
let smtp: FakeSmtp;
let discord: FakeDiscord;
let admin: Identity;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  discord = await startFakeDiscord();
  h = await createUserHarness(inject("databaseUrl"), {
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    WEB_BASE_URL: "https://tt.example/",
    PASSWORD_RESET_ATTEMPTS_PER_CODE: "3",
    PASSWORD_RESET_ATTEMPTS_PER_CLIENT_PER_HOUR: "5",
    ...smtp.env,
    ...discord.env,
  });
  // No credentials at all: Discord answers "not configured".
  dev = await createUserHarness(inject("databaseUrl"), { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  admin = await login(ADMIN.email, ADMIN.password);
});

afterAll(async () => {
  await h?.close();
  await dev?.close();
  await smtp?.close();
  await discord?.server.close();
});

async function login(email: string, password: string): Promise<Identity> {
  const res = await h.rpc.login({ email, password }, h.ctx("login"));
  return h.identityOf(res.accessToken!.token);
}

async function signUp(email = `${randomUUID()}@example.test`, password = "correct-horse-1") {
  const res = await h.rpc.signUp({ email, password }, h.ctx("signUp"));
  return { user: res.user!, identity: await h.identityOf(res.accessToken!.token), email, password };
}

const em = () => h.orm.em.fork();

describe("AdminGetUser", () => {
  it("answers the account with its profile and whether it has a password", async () => {
    const { user } = await signUp();
    const res = await h.rpc.adminGetUser({ id: user.uuid }, h.ctx("adminGetUser", admin));
    expect(res.user).toMatchObject({ uuid: user.uuid, email: user.email, role: "user", hasPassword: true });
    expect(res.user?.profile?.nickname).toBe(user.email.split("@")[0]);
  });

  it("404 for an unknown uuid, 400 for something that is not a uuid", async () => {
    expect(await connectErrorOf(h.rpc.adminGetUser({ id: randomUUID() }, h.ctx("adminGetUser", admin)))).toEqual({
      code: Code.NotFound,
      message: USER_NOT_FOUND,
    });
    // The uuid rule is declared on the field and enforced by the host's input-rules interceptor: through it.
    const client = h.service.client(AccountService, { token: await h.service.tokens.user("admin") });
    for (const id of ["x'; drop", ""]) {
      expect(await connectErrorOf(client.adminGetUser({ id }))).toEqual({
        code: Code.InvalidArgument,
        message: id === "" ? "id missing in request" : "id must be a uuid",
      });
    }
  });

  it("issue 10: the roles an admin may give are the declared `in` rule of AdminSignUpRequest.role", async () => {
    expect(ADMIN_SIGN_UP_ROLES).toEqual(["globalModerator", "admin", "moderator", "staff", "promoter", "user", "bot"]);
    const client = h.service.client(AccountService, { token: await h.service.tokens.user("admin") });
    expect(
      await connectErrorOf(
        client.adminSignUp({ email: "su@example.test", password: "long enough", role: "superUser" }),
      ),
    ).toEqual({
      code: Code.InvalidArgument,
      message: `role must be one of ${ADMIN_SIGN_UP_ROLES.join(", ")}`,
    });
  });
});

describe("AdminSignUp", () => {
  it("creates the account with the given role and does not sign anyone in", async () => {
    const email = `staff-${randomUUID()}@example.test`;
    const res = await h.rpc.adminSignUp(
      { email, password: "staff-password", role: "moderator", nickname: "Mod" },
      h.ctx("adminSignUp", admin),
    );
    expect(res.user).toMatchObject({ email, role: "moderator", hasPassword: true });
    expect(res.user?.emails).toMatchObject([{ email, primary: true, status: "CREATED_BY_ADMIN", type: "personal" }]);
    expect(await em().count(Session, { user: res.user!.uuid })).toBe(0);
    const identity = await login(email, "staff-password");
    expect(identity.role).toBe("moderator");
  });

  it("400 without e-mail or password, 400 for superUser, 403 for a taken address", async () => {
    const ctx = () => h.ctx("adminSignUp", admin);
    expect(await connectErrorOf(h.rpc.adminSignUp({ email: "a@example.test" }, ctx()))).toEqual({
      code: Code.InvalidArgument,
      message: MISSING_CREDENTIALS,
    });
    expect(ADMIN_SIGN_UP_ROLES).not.toContain("superUser");
    const su = await connectErrorOf(
      h.rpc.adminSignUp({ email: "su@example.test", password: "long enough", role: "superUser" }, ctx()),
    );
    expect(su.code).toBe(Code.InvalidArgument);
    expect(await connectErrorOf(h.rpc.adminSignUp({ email: ADMIN.email, password: "long enough" }, ctx()))).toEqual({
      code: Code.PermissionDenied,
      message: EMAIL_ALREADY_REGISTERED,
    });
  });
});

describe("AdminChangePassword", () => {
  it("sets the password and revokes every session of the account", async () => {
    const { user, identity, email, password } = await signUp();
    await h.rpc.adminChangePassword(
      { uuid: user.uuid, newPassword: "set-by-admin" },
      h.ctx("adminChangePassword", admin),
    );
    expect(h.revocations.isRevoked(identity.sessionId)).toBe(true);
    expect((await connectErrorOf(login(email, password))).message).toBe(INCORRECT_CREDENTIALS);
    expect((await login(email, "set-by-admin")).subject).toBe(user.uuid);
  });

  it("404 for an unknown account", async () => {
    const err = await connectErrorOf(
      h.rpc.adminChangePassword(
        { uuid: randomUUID(), newPassword: "long enough" },
        h.ctx("adminChangePassword", admin),
      ),
    );
    expect(err).toEqual({ code: Code.NotFound, message: USER_NOT_FOUND });
  });
});

describe("weak passwords", () => {
  it("issue 9 defect 7: every way of setting a password refuses a common one with 400 and says why", async () => {
    const weak = { code: Code.InvalidArgument, message: PASSWORD_TOO_COMMON };
    const fresh = () => `weak-${randomUUID()}@example.test`;
    expect(await connectErrorOf(h.rpc.signUp({ email: fresh(), password: "password" }, h.ctx("signUp")))).toEqual(weak);
    expect(
      await connectErrorOf(
        h.rpc.voucherSignUp({ email: fresh(), password: "12345678", voucherCode: "ANY" }, h.ctx("voucherSignUp")),
      ),
    ).toEqual(weak);
    expect(
      await connectErrorOf(h.rpc.adminSignUp({ email: fresh(), password: "iloveyou" }, h.ctx("adminSignUp", admin))),
    ).toEqual(weak);
    const { user, identity, password } = await signUp();
    expect(
      await connectErrorOf(
        h.rpc.adminChangePassword({ uuid: user.uuid, newPassword: "qwertyuiop" }, h.ctx("adminChangePassword", admin)),
      ),
    ).toEqual(weak);
    expect(
      await connectErrorOf(
        h.rpc.changePassword({ password, newPassword: "Password1" }, h.ctx("changePassword", identity)),
      ),
    ).toEqual(weak);
    // One character repeated ("aaaaaaaa" is not on the list) and the account's own address are refused too.
    expect(
      await connectErrorOf(
        h.rpc.changePassword({ password, newPassword: "aaaaaaaa" }, h.ctx("changePassword", identity)),
      ),
    ).toEqual({ code: Code.InvalidArgument, message: PASSWORD_ONE_CHARACTER });
    expect(
      await connectErrorOf(
        h.rpc.changePassword({ password, newPassword: user.email.toUpperCase() }, h.ctx("changePassword", identity)),
      ),
    ).toEqual({ code: Code.InvalidArgument, message: PASSWORD_IS_ACCOUNT_NAME });
    // Reset: before the code is even looked at (accounts.test's defect 6 tests check the rest of the order).
    expect(
      await connectErrorOf(
        h.rpc.resetPassword({ email: user.email, code: "any", newPassword: "football" }, h.ctx("resetPassword")),
      ),
    ).toEqual(weak);
    // Set: a Discord account with a verified address giving itself its first password.
    const du = { id: "1090", username: "weakling", email: `weakling-${randomUUID()}@example.test`, verified: true };
    const discordUser = await h.identityOf(
      // The activity's way (a Discord access token), so the Discord tests' token-endpoint records stay theirs.
      (await h.rpc.discordAuth({ discordAccessToken: `at-${discord.codeFor(du)}` }, h.ctx("discordAuth"))).accessToken!
        .token,
    );
    expect(
      await connectErrorOf(h.rpc.setPassword({ password: "sunshine" }, h.ctx("setPassword", discordUser))),
    ).toEqual(weak);
    // None of them changed anything: the old password still works.
    expect((await login(user.email, password)).subject).toBe(user.uuid);
  });
});

describe("magic links", () => {
  it("links to the path through the web app and signs the owner in once", async () => {
    const { user, identity } = await signUp();
    const made = await h.rpc.createMagicLink({ path: "/rooms/my room" }, h.ctx("createMagicLink", identity));
    expect(made.link).toBe(
      `https://tt.example/magic-link/${made.shortLivedToken}/${encodeURIComponent("/rooms/my room")}`,
    );
    const ttl = timestampDate(made.expiresAt!).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(290_000);
    expect(ttl).toBeLessThanOrEqual(300_000);
    const stored = await em().findOneOrFail(AccountToken, { user: user.uuid, purpose: "magic-link" });
    expect(stored.tokenHash).not.toBe(made.shortLivedToken);

    const res = await h.rpc.validateMagicLink({ token: made.shortLivedToken }, h.ctx("validateMagicLink"));
    expect(res.user?.uuid).toBe(user.uuid);
    const signedIn = await h.identityOf(res.accessToken!.token);
    expect(signedIn).toMatchObject({ subject: user.uuid, tokenType: "user" });
    expect(signedIn.sessionId).not.toBe(identity.sessionId);

    expect(
      await connectErrorOf(h.rpc.validateMagicLink({ token: made.shortLivedToken }, h.ctx("validateMagicLink"))),
    ).toEqual({ code: Code.Unauthenticated, message: MAGIC_LINK_INVALID });
  });

  it("two validations racing for one token: exactly one signs in", async () => {
    const { identity } = await signUp();
    const made = await h.rpc.createMagicLink({}, h.ctx("createMagicLink", identity));
    const results = await Promise.allSettled([
      h.rpc.validateMagicLink({ token: made.shortLivedToken }, h.ctx("validateMagicLink")),
      h.rpc.validateMagicLink({ token: made.shortLivedToken }, h.ctx("validateMagicLink")),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
  });

  it("uses the subscribe-plan form for a plan; refuses both, bad paths and expired tokens", async () => {
    const { identity } = await signUp();
    const ctx = () => h.ctx("createMagicLink", identity);
    const plan = await h.rpc.createMagicLink({ plan: "gold/yearly" }, ctx());
    expect(plan.link).toBe(`https://tt.example/magic-link/${plan.shortLivedToken}/subscribe-plan/gold%2Fyearly`);
    expect(await connectErrorOf(h.rpc.createMagicLink({ path: "/a", plan: "b" }, ctx()))).toEqual({
      code: Code.InvalidArgument,
      message: PATH_AND_PLAN,
    });
    expect(await connectErrorOf(h.rpc.createMagicLink({ path: "//evil.example" }, ctx()))).toEqual({
      code: Code.InvalidArgument,
      message: PATH_INVALID,
    });

    const expiring = await h.rpc.createMagicLink({}, ctx());
    expect(expiring.link.endsWith("/%2F")).toBe(true);
    await em().nativeUpdate(
      AccountToken,
      { user: identity.subject, purpose: "magic-link", usedAt: null },
      { expiresAt: new Date(Date.now() - 1000) },
    );
    expect(
      (await connectErrorOf(h.rpc.validateMagicLink({ token: expiring.shortLivedToken }, h.ctx("validateMagicLink"))))
        .code,
    ).toBe(Code.Unauthenticated);
  });
});

describe("forgot and reset password", () => {
  it("puts the code into the dev outbox when no mail server is configured", async () => {
    const email = `dev-${randomUUID()}@example.test`;
    await dev.rpc.signUp({ email, password: "dev-password-1" }, dev.ctx("signUp"));
    await dev.rpc.forgotPassword({ email }, dev.ctx("forgotPassword"));
    const devAdmin = await dev.identityOf((await dev.rpc.login(ADMIN, dev.ctx("login"))).accessToken!.token);
    // The send is not awaited by the call (timing must not tell registered addresses apart): wait for it.
    await expect
      .poll(async () => (await dev.rpc.listDevOutbox({ to: email }, dev.ctx("listDevOutbox", devAdmin))).messages)
      .toHaveLength(1);
    const [message] = (await dev.rpc.listDevOutbox({ to: email }, dev.ctx("listDevOutbox", devAdmin))).messages;
    expect(message?.body).toMatch(/enter the code [A-Za-z0-9_-]{43}/);
  });

  it("mails a code only to a registered address, answering alike; the code resets once and signs in", async () => {
    const { user, identity, email } = await signUp();
    const unknown = `nobody-${randomUUID()}@example.test`;
    expect(await h.rpc.forgotPassword({ email: unknown }, h.ctx("forgotPassword"))).toEqual(
      await h.rpc.forgotPassword({ email: email.toUpperCase() }, h.ctx("forgotPassword")),
    );
    const mail = await smtp.next(email);
    expect(smtp.received.some((m) => m.to.includes(unknown))).toBe(false);
    const code = resetCodeOf(mail);
    expect(mail.data).toContain(`https://tt.example/reset-password?email=${encodeURIComponent(email)}&code=${code}`);

    const res = await h.rpc.resetPassword({ email, code, newPassword: "brand-new-pass" }, h.ctx("resetPassword"));
    expect(res.user?.uuid).toBe(user.uuid);
    expect((await h.identityOf(res.accessToken!.token)).subject).toBe(user.uuid);
    expect(h.revocations.isRevoked(identity.sessionId)).toBe(true);
    const stored = await em().findOneOrFail(User, { id: user.uuid }, { populate: ["passwordHash"] });
    expect(await verifyPassword(stored.passwordHash, "brand-new-pass")).toBe(true);

    expect(
      await connectErrorOf(h.rpc.resetPassword({ email, code, newPassword: "another-pass" }, h.ctx("resetPassword"))),
    ).toEqual({ code: Code.PermissionDenied, message: CANNOT_RESET_PASSWORD });
  });

  it("403 for a wrong code, another address's code and an expired code; 429 when asked too often", async () => {
    const { email } = await signUp();
    const other = await signUp();
    await h.rpc.forgotPassword({ email }, h.ctx("forgotPassword"));
    const code = resetCodeOf(await smtp.next(email));
    const reset = (e: string, c: string) =>
      connectErrorOf(h.rpc.resetPassword({ email: e, code: c, newPassword: "whatever-1" }, h.ctx("resetPassword")));
    expect(await reset(email, "x".repeat(43))).toEqual({ code: Code.PermissionDenied, message: CANNOT_RESET_PASSWORD });
    expect(await reset(other.email, code)).toEqual({ code: Code.PermissionDenied, message: CANNOT_RESET_PASSWORD });
    expect(await reset("", "")).toEqual({ code: Code.PermissionDenied, message: CANNOT_RESET_PASSWORD });

    expect(await connectErrorOf(h.rpc.forgotPassword({ email }, h.ctx("forgotPassword")))).toEqual({
      code: Code.ResourceExhausted,
      message: RESET_TOO_OFTEN,
    });
    await em().nativeUpdate(AccountToken, { purpose: "reset", usedAt: null }, { expiresAt: new Date(Date.now() - 1) });
    expect(await reset(email, code)).toEqual({ code: Code.PermissionDenied, message: CANNOT_RESET_PASSWORD });
  });

  it("issue 9 defect 6: a wrong, unknown or misaddressed code costs no argon2 hash; the right one costs one", async () => {
    const { email } = await signUp();
    const other = await signUp();
    await h.rpc.forgotPassword({ email }, h.ctx("forgotPassword"));
    const code = resetCodeOf(await smtp.next(email));
    const reset = (e: string, c: string, ip: string) =>
      h.rpc.resetPassword(
        { email: e, code: c, newPassword: "a fresh passphrase" },
        h.ctx("resetPassword", undefined, { "x-forwarded-for": ip }),
      );
    const before = passwordHashesComputed();
    for (const [e, c] of [
      [email, "x".repeat(43)],
      [email, "not even a code"],
      // Each code may be tried three times in all (right or wrong): this is the first of the right one.
      [other.email, code],
      [`nobody-${randomUUID()}@example.test`, "x".repeat(43)],
    ] as const) {
      expect(await connectErrorOf(reset(e, c, "192.0.2.10"))).toEqual({
        code: Code.PermissionDenied,
        message: CANNOT_RESET_PASSWORD,
      });
    }
    // A weak new password is refused before anything is hashed, and leaves the code usable.
    expect(
      (await connectErrorOf(h.rpc.resetPassword({ email, code, newPassword: "password1" }, h.ctx("resetPassword"))))
        .code,
    ).toBe(Code.InvalidArgument);
    expect(passwordHashesComputed()).toBe(before);
    await expect(reset(email, code, "192.0.2.11")).resolves.toMatchObject({ user: { email } });
    expect(passwordHashesComputed()).toBe(before + 1);
  });

  it("issue 9 defect 6: reset tries are throttled per client address and per code (429 with retry-after)", async () => {
    const reset = (c: string, ip: string) => {
      const call = h.rpc.resetPassword(
        { email: "someone@example.test", code: c, newPassword: "a fresh passphrase" },
        h.ctx("resetPassword", undefined, { "x-forwarded-for": ip }),
      );
      return call.then(
        () => {
          throw new Error("expected the reset to fail");
        },
        (err: unknown) => {
          if (!(err instanceof ConnectError)) throw err;
          return { code: err.code, message: err.rawMessage, retryAfter: Number(err.metadata.get("retry-after") ?? 0) };
        },
      );
    };
    // One address, a different code each time: five tries, then 429 whatever the code.
    for (let i = 0; i < 5; i++) expect((await reset(randomUUID(), "192.0.2.20")).code).toBe(Code.PermissionDenied);
    const refused = await reset(randomUUID(), "192.0.2.20");
    expect(refused).toMatchObject({ code: Code.ResourceExhausted, message: RESET_ATTEMPTS_TOO_MANY });
    expect(refused.retryAfter).toBeGreaterThan(0);
    expect(refused.retryAfter).toBeLessThanOrEqual(3600);
    // One code from many addresses: three tries, then 429.
    const code = randomUUID();
    for (let i = 0; i < 3; i++) expect((await reset(code, `192.0.2.${30 + i}`)).code).toBe(Code.PermissionDenied);
    expect(await reset(code, "192.0.2.40")).toMatchObject({
      code: Code.ResourceExhausted,
      message: RESET_ATTEMPTS_TOO_MANY,
    });
  });
});

describe("Discord", () => {
  it("creates the account on first sign-in with a verified e-mail, signs it in afterwards", async () => {
    const du = { id: "1001", username: "ann", global_name: "Ann", email: "Ann.D@example.test", verified: true };
    const first = await h.rpc.discordAuth(
      { code: discord.codeFor(du), redirectUri: "https://tt.example/discord" },
      h.ctx("discordAuth"),
    );
    expect(first.created).toBe(true);
    expect(first.user).toMatchObject({ email: "ann.d@example.test", hasPassword: false });
    expect(first.user?.emails).toMatchObject([{ email: "ann.d@example.test", type: "discord", status: "VERIFIED" }]);
    expect(first.user?.socials?.discord).toBe("ann");
    expect(first.user?.profile?.nickname).toBe("Ann");
    const tokenCall = discord.server.requests.find((r) => r.path === "/api/v10/oauth2/token");
    expect(tokenCall?.form).toMatchObject({ client_id: "tt-client", redirect_uri: "https://tt.example/discord" });

    // The activity's way: a Discord access token instead of a code.
    const again = await h.rpc.discordAuth({ discordAccessToken: `at-${discord.codeFor(du)}` }, h.ctx("discordAuth"));
    expect(again).toMatchObject({ created: false, user: { uuid: first.user!.uuid } });
  });

  it("refuses unverified clashes, bad input and refused codes", async () => {
    const { email } = await signUp();
    const clash = { id: "1002", username: "clash", email, verified: true };
    expect(await connectErrorOf(h.rpc.discordAuth({ code: discord.codeFor(clash) }, h.ctx("discordAuth")))).toEqual({
      code: Code.PermissionDenied,
      message: EMAIL_ALREADY_REGISTERED,
    });
    expect(await connectErrorOf(h.rpc.discordAuth({}, h.ctx("discordAuth")))).toEqual({
      code: Code.InvalidArgument,
      message: CODE_OR_TOKEN,
    });
    expect((await connectErrorOf(h.rpc.discordAuth({ code: "nope" }, h.ctx("discordAuth")))).code).toBe(
      Code.Unauthenticated,
    );
    // An unverified Discord address is not taken over: the account gets a reserved one.
    const unverified = { id: "1003", username: "unv", email: "unv@example.test", verified: false };
    const res = await h.rpc.discordAuth({ code: discord.codeFor(unverified) }, h.ctx("discordAuth"));
    expect(res.user?.email).toBe("discord-1003@discord.invalid");
    // ...so it cannot get a password until it has a real address.
    const identity = await h.identityOf(res.accessToken!.token);
    expect(
      await connectErrorOf(h.rpc.setPassword({ password: "long enough" }, h.ctx("setPassword", identity))),
    ).toEqual({ code: Code.Unauthenticated, message: EMAIL_NOT_VERIFIED });
  });

  it("exchanges an activity code for Discord's token", async () => {
    const code = discord.codeFor({ id: "1004", username: "act" });
    const res = await h.rpc.exchangeDiscordCode({ code }, h.ctx("exchangeDiscordCode"));
    expect(res).toMatchObject({ accessToken: `at-${code}`, scope: "identify email" });
    expect((await connectErrorOf(h.rpc.exchangeDiscordCode({ code }, h.ctx("exchangeDiscordCode")))).code).toBe(
      Code.Unauthenticated,
    );
  });

  it("links Discord to the caller; 409 when it is another account's", async () => {
    const { user, identity } = await signUp();
    const du = { id: "1005", username: "linker", email: "Linker@discord.example", verified: true };
    const res = await h.rpc.linkDiscord({ code: discord.codeFor(du) }, h.ctx("linkDiscord", identity));
    expect(res.user?.socials?.discord).toBe("linker");
    expect(res.user?.profile?.socials?.discord).toBe("linker");
    expect(res.user?.email).toBe(user.email);
    expect(res.user?.emails.map((e) => [e.email, e.type, e.status, e.primary])).toContainEqual([
      "linker@discord.example",
      "discord",
      "VERIFIED",
      false,
    ]);
    const viewed = await h.rpc.adminGetUser({ id: user.uuid }, h.ctx("adminGetUser", admin));
    expect(viewed.user?.socials?.discord).toBe("linker");
    expect((await em().findOneOrFail(DiscordLink, { discordId: "1005" })).user.id).toBe(user.uuid);
    const signedIn = await h.rpc.discordAuth({ code: discord.codeFor(du) }, h.ctx("discordAuth"));
    expect(signedIn).toMatchObject({ created: false, user: { uuid: user.uuid } });

    const other = await signUp();
    expect(
      await connectErrorOf(h.rpc.linkDiscord({ code: discord.codeFor(du) }, h.ctx("linkDiscord", other.identity))),
    ).toEqual({ code: Code.AlreadyExists, message: DISCORD_LINKED_ELSEWHERE });
  });

  it("a phone account (the contact area's no-password marker) counts as having no password", async () => {
    const { user } = await signUp();
    await em().nativeUpdate(User, { id: user.uuid }, { passwordHash: NO_PASSWORD_HASH });
    const res = await h.rpc.adminGetUser({ id: user.uuid }, h.ctx("adminGetUser", admin));
    expect(res.user?.hasPassword).toBe(false);
  });

  it("says Discord is not configured when it is not", async () => {
    const err = await connectErrorOf(dev.rpc.discordAuth({ code: "c" }, dev.ctx("discordAuth")));
    expect(err.code).toBe(Code.FailedPrecondition);
  });
});

describe("SetPassword", () => {
  it("gives a password to a Discord account once, revoking its other sessions", async () => {
    const du = { id: "2001", username: "setter", email: "setter@example.test", verified: true };
    const first = await h.rpc.discordAuth({ code: discord.codeFor(du) }, h.ctx("discordAuth"));
    const second = await h.rpc.discordAuth({ code: discord.codeFor(du) }, h.ctx("discordAuth"));
    const me = await h.identityOf(second.accessToken!.token);
    const other = await h.identityOf(first.accessToken!.token);
    const res = await h.rpc.setPassword({ password: "now-with-password" }, h.ctx("setPassword", me));
    expect((await h.identityOf(res.accessToken!.token)).sessionId).toBe(me.sessionId);
    expect(h.revocations.isRevoked(other.sessionId)).toBe(true);
    expect((await login("setter@example.test", "now-with-password")).subject).toBe(me.subject);
    expect(await connectErrorOf(h.rpc.setPassword({ password: "again-password" }, h.ctx("setPassword", me)))).toEqual({
      code: Code.PermissionDenied,
      message: PASSWORD_ALREADY_SET,
    });
  });
});

describe("bots", () => {
  it("creates a bot owned by the caller with a bot token; owner and bot renew it, nobody else", async () => {
    const owner = await signUp();
    const res = await h.rpc.signUpBot({ nickname: "DJ Bot", avatarId: "robot" }, h.ctx("signUpBot", owner.identity));
    expect(res.user).toMatchObject({ role: "bot", ownerUuid: owner.user.uuid, hasPassword: false });
    expect(res.user?.profile).toMatchObject({ nickname: "DJ Bot", avatarId: "robot" });
    const bot = await h.identityOf(res.accessToken!.token);
    expect(bot).toMatchObject({ tokenType: "bot", role: "bot", subject: res.user!.uuid });

    const byOwner = await h.rpc.getBotToken({ uuid: bot.subject }, h.ctx("getBotToken", owner.identity));
    expect((await h.identityOf(byOwner.accessToken!.token)).subject).toBe(bot.subject);
    const bySelf = await h.rpc.getBotToken({}, h.ctx("getBotToken", bot));
    expect(await h.identityOf(bySelf.accessToken!.token)).toMatchObject({ tokenType: "bot", subject: bot.subject });

    const stranger = await signUp();
    expect(
      await connectErrorOf(h.rpc.getBotToken({ uuid: bot.subject }, h.ctx("getBotToken", stranger.identity))),
    ).toEqual({ code: Code.PermissionDenied, message: NOT_BOT_OWNER });
    expect(
      await connectErrorOf(h.rpc.getBotToken({ uuid: owner.user.uuid }, h.ctx("getBotToken", owner.identity))),
    ).toEqual({ code: Code.NotFound, message: BOT_NOT_FOUND });
    expect((await connectErrorOf(h.rpc.signUpBot({ nickname: " " }, h.ctx("signUpBot", owner.identity)))).code).toBe(
      Code.InvalidArgument,
    );
  });
});

describe("vouchers", () => {
  const create = (init: Parameters<UserHarness["rpc"]["createVoucher"]>[0]) =>
    h.rpc.createVoucher(init, h.ctx("createVoucher", admin));

  it("PENDING → REDEEMED once, granting what it carries", async () => {
    const made = await create({ capabilities: ["uploadMusic"], badges: ["VERIFIED", "VERIFIED"], note: "for Ann" });
    expect(made.voucher).toMatchObject({ status: "PENDING", badges: ["VERIFIED"], createdByUuid: admin.subject });
    expect(made.voucher!.code).toMatch(/^[A-HJ-NP-Z2-9]{12}$/);
    const { user, identity } = await signUp();
    const redeemed = await h.rpc.redeemVoucher(
      { code: made.voucher!.code.toLowerCase() },
      h.ctx("redeemVoucher", identity),
    );
    expect(redeemed.voucher).toMatchObject({ status: "REDEEMED", redeemedByUuid: user.uuid });
    expect(await em().findOneOrFail(User, { id: user.uuid })).toMatchObject({
      capabilities: ["uploadMusic"],
      badges: ["VERIFIED"],
    });
    expect(
      await connectErrorOf(h.rpc.redeemVoucher({ code: made.voucher!.code }, h.ctx("redeemVoucher", identity))),
    ).toEqual({ code: Code.PermissionDenied, message: VOUCHER_NOT_REDEEMABLE });
    expect(await connectErrorOf(h.rpc.revokeVoucher({ id: made.voucher!.id }, h.ctx("revokeVoucher", admin)))).toEqual({
      code: Code.PermissionDenied,
      message: VOUCHER_REDEEMED,
    });
  });

  it("two redemptions racing for one code: exactly one wins", async () => {
    const made = await create({ badges: ["JQBX"] });
    const a = await signUp();
    const b = await signUp();
    const results = await Promise.allSettled([
      h.rpc.redeemVoucher({ code: made.voucher!.code }, h.ctx("redeemVoucher", a.identity)),
      h.rpc.redeemVoucher({ code: made.voucher!.code }, h.ctx("redeemVoucher", b.identity)),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const granted = await em().find(User, { id: { $in: [a.user.uuid, b.user.uuid] }, badges: { $contains: ["JQBX"] } });
    expect(granted).toHaveLength(1);
  });

  it("PENDING → REVOKED, after which it cannot be redeemed; expired vouchers neither", async () => {
    const made = await create({ code: "revoke-me-1" });
    expect(made.voucher?.code).toBe("REVOKE-ME-1");
    const revoked = await h.rpc.revokeVoucher({ id: made.voucher!.id }, h.ctx("revokeVoucher", admin));
    expect(revoked.voucher?.status).toBe("REVOKED");
    const again = await h.rpc.revokeVoucher({ id: made.voucher!.id }, h.ctx("revokeVoucher", admin));
    expect(again.voucher?.revokedAt).toEqual(revoked.voucher?.revokedAt);
    const { identity } = await signUp();
    expect(
      (await connectErrorOf(h.rpc.redeemVoucher({ code: "REVOKE-ME-1" }, h.ctx("redeemVoucher", identity)))).code,
    ).toBe(Code.PermissionDenied);

    const expiring = await create({ expiresAt: timestampFromDate(new Date(Date.now() + 60_000)) });
    await em().nativeUpdate(Voucher, { id: expiring.voucher!.id }, { expiresAt: new Date(Date.now() - 1) });
    expect(
      (await connectErrorOf(h.rpc.redeemVoucher({ code: expiring.voucher!.code }, h.ctx("redeemVoucher", identity))))
        .code,
    ).toBe(Code.PermissionDenied);
  });

  it("refuses bad input and taken codes; 404 for unknown ones", async () => {
    expect((await connectErrorOf(create({ capabilities: ["fly"] }))).code).toBe(Code.InvalidArgument);
    expect((await connectErrorOf(create({ badges: ["GOLD"] }))).code).toBe(Code.InvalidArgument);
    expect((await connectErrorOf(create({ expiresAt: timestampFromDate(new Date(Date.now() - 1000)) }))).code).toBe(
      Code.InvalidArgument,
    );
    await create({ code: "TAKEN-CODE" });
    expect(await connectErrorOf(create({ code: "taken-code" }))).toEqual({
      code: Code.AlreadyExists,
      message: VOUCHER_CODE_TAKEN,
    });
    const { identity } = await signUp();
    expect(await connectErrorOf(h.rpc.redeemVoucher({ code: "" }, h.ctx("redeemVoucher", identity)))).toEqual({
      code: Code.InvalidArgument,
      message: VOUCHER_CODE_MISSING,
    });
    expect(
      await connectErrorOf(h.rpc.redeemVoucher({ code: "NO-SUCH-CODE" }, h.ctx("redeemVoucher", identity))),
    ).toEqual({ code: Code.NotFound, message: VOUCHER_NOT_FOUND });
    expect((await connectErrorOf(h.rpc.revokeVoucher({ id: randomUUID() }, h.ctx("revokeVoucher", admin)))).code).toBe(
      Code.NotFound,
    );
    // Not a uuid: the field's declared rule, enforced by the host's input-rules interceptor.
    const client = h.service.client(AccountService, { token: await h.service.tokens.user("admin") });
    expect(await connectErrorOf(client.revokeVoucher({ id: "VOUCHER-1" }))).toEqual({
      code: Code.InvalidArgument,
      message: "id must be a uuid",
    });
  });

  it("announces a redemption on tt.user.voucher.redeemed and the new grants on tt.user.user.updated", async () => {
    const made = await create({ badges: ["STAFF"] });
    const { user, identity } = await signUp();
    const subs: { unsubscribe(): Promise<void> }[] = [];
    const seen = async <D extends DescMessage>(schema: D, about: (event: MessageShape<D>) => boolean) => {
      let resolve!: (payload: MessageShape<D>) => void;
      const payload = new Promise<MessageShape<D>>((r) => (resolve = r));
      subs.push(
        await h.bus.subscribe(eventDeclaration(schema).subject, (msg) => {
          const event = fromBinary(schema, msg.data);
          if (about(event)) resolve(event);
        }),
      );
      // Wrapped: an async function returning the promise itself would wait for the event.
      return { payload };
    };
    const { payload: redeemed } = await seen(VoucherRedeemedSchema, (e) => e.redeemedByUuid === user.uuid);
    const { payload: updated } = await seen(UserUpdatedSchema, (e) => e.uuid === user.uuid);
    try {
      await h.rpc.redeemVoucher({ code: made.voucher!.code }, h.ctx("redeemVoucher", identity));
      await expect(redeemed).resolves.toMatchObject({ id: made.voucher!.id, badges: ["STAFF"] });
      await expect(updated).resolves.toMatchObject({ uuid: user.uuid, badges: ["STAFF"] });
    } finally {
      for (const sub of subs) await sub.unsubscribe();
    }
  });

  it("lists vouchers with the admin query language", async () => {
    await create({ code: "LIST-ME-1", note: "listed" });
    const page = await h.rpc.listVouchers(
      { query: { filter: ["code||$eq||LIST-ME-1"], fields: "code,status" } },
      h.ctx("listVouchers", admin),
    );
    expect(page).toMatchObject({ count: 1, total: 1, page: 1, pageCount: 1 });
    expect(page.data[0]).toMatchObject({ code: "LIST-ME-1", status: "PENDING", note: "" });
    expect(
      (await connectErrorOf(h.rpc.listVouchers({ query: { sort: ["secret,ASC"] } }, h.ctx("listVouchers", admin))))
        .code,
    ).toBe(Code.InvalidArgument);
  });

  it("voucher sign-up creates the account and redeems the voucher together", async () => {
    const made = await create({ capabilities: ["promoteRoom"] });
    const email = `v-${randomUUID()}@example.test`;
    const res = await h.rpc.voucherSignUp(
      { email, password: "voucher-pass", voucherCode: made.voucher!.code },
      h.ctx("voucherSignUp"),
    );
    expect(res.user).toMatchObject({ email, capabilities: ["promoteRoom"] });
    expect((await em().findOneOrFail(Voucher, { id: made.voucher!.id })).redeemedByUuid).toBe(res.user!.uuid);

    // A spent voucher: nothing is created.
    const email2 = `v2-${randomUUID()}@example.test`;
    expect(
      await connectErrorOf(
        h.rpc.voucherSignUp(
          { email: email2, password: "voucher-pass", voucherCode: made.voucher!.code },
          h.ctx("voucherSignUp"),
        ),
      ),
    ).toEqual({ code: Code.PermissionDenied, message: VOUCHER_NOT_REDEEMABLE });
    expect(await em().count(User, { email: email2 })).toBe(0);
    // Neither a spent nor an unknown code costs an argon2 hash.
    const hashes = passwordHashesComputed();
    expect(
      (
        await connectErrorOf(
          h.rpc.voucherSignUp(
            { email: email2, password: "voucher-pass", voucherCode: "NO-SUCH-CODE" },
            h.ctx("voucherSignUp"),
          ),
        )
      ).code,
    ).toBe(Code.NotFound);
    expect(passwordHashesComputed()).toBe(hashes);

    const signUpWith = (init: Parameters<UserHarness["rpc"]["voucherSignUp"]>[0]) =>
      connectErrorOf(h.rpc.voucherSignUp(init, h.ctx("voucherSignUp")));
    expect(await signUpWith({ email: email2, voucherCode: "X" })).toEqual({
      code: Code.InvalidArgument,
      message: MISSING_CREDENTIALS,
    });
    expect(await signUpWith({ email: email2, password: "voucher-pass" })).toEqual({
      code: Code.InvalidArgument,
      message: VOUCHER_CODE_MISSING,
    });
    expect(await signUpWith({ email, password: "voucher-pass", voucherCode: "X" })).toEqual({
      code: Code.PermissionDenied,
      message: EMAIL_ALREADY_REGISTERED,
    });
    expect(await signUpWith({ email: email2, password: "voucher-pass", voucherCode: "NO-SUCH" })).toEqual({
      code: Code.NotFound,
      message: VOUCHER_NOT_FOUND,
    });
  });
});
