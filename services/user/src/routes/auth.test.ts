import { createPublicKey } from "node:crypto";
import { create, fromBinary } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import {
  GetGuestTokenRequestSchema,
  GetSessionRequestSchema,
  LoginRequestSchema,
  LogoutRequestSchema,
  SignUpRequestSchema,
} from "@tt/proto/tt/user/v1/auth_service_pb";
import { eventDeclaration } from "@tt/kit";
import { UserCreatedSchema, type UserCreated } from "@tt/proto/tt/user/v1/events_pb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  EMAIL_ALREADY_REGISTERED,
  INVALID_EMAIL,
  MISSING_CREDENTIALS,
  NICKNAME_TOO_LONG,
  PASSWORD_TOO_SHORT,
} from "../account-rules.ts";
import { Profile } from "../modules/profiles/profile.entity.ts";
import { Session } from "../modules/sessions/session.entity.ts";
import { User } from "../modules/users/user.entity.ts";
import { DUMMY_PASSWORD_HASH, verifyPassword } from "../passwords.ts";
import { Code, connectErrorOf } from "../testing/expect-connect-error.ts";
import { createUserHarness, verifyAccessToken, type UserHarness } from "../testing/user-harness.ts";
import { INCORRECT_CREDENTIALS } from "./auth.ts";
import { USER_SERVICE_VERSION } from "./hello.ts";
import { PASSWORD_NOT_CHANGED, PASSWORDS_MISSING } from "./passwords.ts";

let h: UserHarness;

beforeAll(async () => {
  h = await createUserHarness(inject("databaseUrl"));
});

afterAll(async () => {
  await h?.close();
});

const signUp = (email: string, password: string, nickname = "") =>
  h.rpc.signUp(create(SignUpRequestSchema, { email, password, nickname }), h.ctx("signUp"));

const login = (email: string, password: string, headers?: Record<string, string>) =>
  h.rpc.login(create(LoginRequestSchema, { email, password }), h.ctx("login", undefined, headers));

describe("SignUp", () => {
  it("creates the account and its profile, opens a session and signs a user token", async () => {
    const res = await signUp("  Ann@Example.ORG ", "correct horse", "DJ Ann");
    expect(res.user?.email).toBe("ann@example.org");
    expect(res.user?.role).toBe("user");
    expect(res.user?.capabilities).toEqual([]);
    expect(res.accessToken?.tokenType).toBe("user");

    const claims = await verifyAccessToken(await h.instance.verificationKeys!(), res.accessToken!.token);
    expect(claims).toMatchObject({
      sub: res.user!.uuid,
      typ: "user",
      role: "user",
      iss: "turntable",
      aud: "turntable",
    });
    expect(claims.exp * 1000).toBe(timestampDate(res.accessToken!.expiresAt!).getTime());

    const em = h.orm.em.fork();
    const user = await em.findOneOrFail(User, { id: res.user!.uuid }, { populate: ["passwordHash"] });
    expect(user.passwordHash).not.toContain("correct horse");
    await expect(verifyPassword(user.passwordHash, "correct horse")).resolves.toBe(true);
    expect((await em.findOneOrFail(Profile, { user: user.id })).nickname).toBe("DJ Ann");
    const session = await em.findOneOrFail(Session, { id: claims.sid });
    expect(session.user.id).toBe(user.id);
    expect(session.expiresAt.getTime()).toBe(claims.exp * 1000);
  });

  it("defaults the nickname to the part of the address before the @", async () => {
    const res = await signUp("nick.default@example.org", "long enough");
    const profile = await h.orm.em.fork().findOneOrFail(Profile, { user: res.user!.uuid });
    expect(profile.nickname).toBe("nick.default");
  });

  it("announces the new account on tt.user.user.created", async () => {
    let received!: (event: UserCreated) => void;
    const event = new Promise<UserCreated>((resolve) => (received = resolve));
    const sub = await h.bus.subscribe(eventDeclaration(UserCreatedSchema).subject, (msg) => {
      const payload = fromBinary(UserCreatedSchema, msg.data);
      if (payload.nickname === "announced") received(payload);
    });
    try {
      const res = await signUp("announced@example.org", "long enough", "announced");
      await expect(event).resolves.toMatchObject({ uuid: res.user!.uuid, role: "user", nickname: "announced" });
    } finally {
      await sub.unsubscribe();
    }
  });

  it.each([
    ["", "long enough"],
    ["someone@example.org", ""],
    ["   ", "long enough"],
  ])("answers 400 when email or password is missing (%j, %j)", async (email, password) => {
    await expect(connectErrorOf(signUp(email, password))).resolves.toEqual({
      code: Code.InvalidArgument,
      message: MISSING_CREDENTIALS,
    });
  });

  it("answers 400 for an address that is not one, a short password and a long nickname", async () => {
    await expect(connectErrorOf(signUp("not-an-address", "long enough"))).resolves.toEqual({
      code: Code.InvalidArgument,
      message: INVALID_EMAIL,
    });
    await expect(connectErrorOf(signUp("short@example.org", "1234567"))).resolves.toEqual({
      code: Code.InvalidArgument,
      message: PASSWORD_TOO_SHORT,
    });
    await expect(connectErrorOf(signUp("nick@example.org", "long enough", "n".repeat(65)))).resolves.toEqual({
      code: Code.InvalidArgument,
      message: NICKNAME_TOO_LONG,
    });
  });

  it("answers 403 for a registered address, whatever its case", async () => {
    await signUp("taken@example.org", "long enough");
    await expect(connectErrorOf(signUp("TAKEN@example.org", "other password"))).resolves.toEqual({
      code: Code.PermissionDenied,
      message: EMAIL_ALREADY_REGISTERED,
    });
  });

  it("lets exactly one of two simultaneous sign-ups with one address through", async () => {
    const results = await Promise.allSettled([
      signUp("race@example.org", "long enough"),
      signUp("race@example.org", "long enough"),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const failure = results.find((r) => r.status === "rejected");
    await expect(connectErrorOf(Promise.reject(failure?.reason))).resolves.toEqual({
      code: Code.PermissionDenied,
      message: EMAIL_ALREADY_REGISTERED,
    });
  });
});

describe("Login", () => {
  beforeAll(async () => {
    await signUp("login@example.org", "right password", "Login");
  });

  it("signs in with the right password, any case of the address, and records the user agent", async () => {
    const res = await login("LOGIN@example.org", "right password", { "user-agent": "vitest-browser/1.0" });
    expect(res.user?.email).toBe("login@example.org");
    const identity = await h.identityOf(res.accessToken!.token);
    expect(identity).toMatchObject({ tokenType: "user", role: "user", subject: res.user!.uuid });
    const session = await h.orm.em.fork().findOneOrFail(Session, { id: identity.sessionId });
    expect(session.userAgent).toBe("vitest-browser/1.0");
  });

  it("answers 401 alike for a wrong password, an unknown address and no address", async () => {
    const expected = { code: Code.Unauthenticated, message: INCORRECT_CREDENTIALS };
    await expect(connectErrorOf(login("login@example.org", "wrong password"))).resolves.toEqual(expected);
    await expect(connectErrorOf(login("nobody@example.org", "right password"))).resolves.toEqual(expected);
    await expect(connectErrorOf(login("", ""))).resolves.toEqual(expected);
  });

  it("spends an argon2 verification on unknown addresses too (no account enumeration by timing)", async () => {
    // The process's CPU time (argon2 runs on libuv's threads, which it counts), not the wall clock: a busy machine
    // stretches a call's wall time by how long it waits for a core (a full run once measured one verification at
    // 79 ms and an unknown address's login at 28), not the work it does.
    const median = async (run: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const start = process.cpuUsage();
        await run().catch(() => undefined);
        const used = process.cpuUsage(start);
        times.push(used.user + used.system);
      }
      return times.sort((a, b) => a - b)[2]!;
    };
    const oneVerification = await median(() => verifyPassword(DUMMY_PASSWORD_HASH, "x"));
    const wrongPassword = await median(() => login("login@example.org", "wrong password"));
    const unknownEmail = await median(() => login("nobody@example.org", "wrong password"));
    // Both paths include a full verification; neither is a fast exit.
    expect(wrongPassword).toBeGreaterThan(oneVerification * 0.5);
    expect(unknownEmail).toBeGreaterThan(oneVerification * 0.5);
    expect(Math.max(wrongPassword, unknownEmail) / Math.min(wrongPassword, unknownEmail)).toBeLessThan(3);
  });
});

describe("Logout and GetSession", () => {
  it("describes the caller's account and session, then ends the session everywhere", async () => {
    const { accessToken, user } = await signUp("session@example.org", "long enough");
    const identity = await h.identityOf(accessToken!.token);

    const session = await h.rpc.getSession(create(GetSessionRequestSchema), h.ctx("getSession", identity));
    expect(session.user?.uuid).toBe(user!.uuid);
    expect(session).toMatchObject({ tokenType: "user", role: "user", sessionId: identity.sessionId });
    expect(timestampDate(session.expiresAt!).getTime()).toBe(identity.expiresAt.getTime());

    expect(h.revocations.isRevoked(identity.sessionId)).toBe(false);
    await h.rpc.logout(create(LogoutRequestSchema), h.ctx("logout", identity));
    expect(h.revocations.isRevoked(identity.sessionId)).toBe(true);
    const row = await h.orm.em.fork().findOneOrFail(Session, { id: identity.sessionId });
    expect(row.revokedAt).toBeInstanceOf(Date);
  });

  it("revokes a session even when its row is already revoked (logging out twice)", async () => {
    const { accessToken } = await signUp("twice@example.org", "long enough");
    const identity = await h.identityOf(accessToken!.token);
    await h.rpc.logout(create(LogoutRequestSchema), h.ctx("logout", identity));
    await expect(h.rpc.logout(create(LogoutRequestSchema), h.ctx("logout", identity))).resolves.toBeDefined();
    expect(h.revocations.isRevoked(identity.sessionId)).toBe(true);
  });

  it("answers a guest token without an account", async () => {
    const guest = await h.rpc.getGuestToken(create(GetGuestTokenRequestSchema), h.ctx("getGuestToken"));
    const identity = await h.identityOf(guest.accessToken!.token);
    const session = await h.rpc.getSession(create(GetSessionRequestSchema), h.ctx("getSession", identity));
    expect(session.user).toBeUndefined();
    expect(session).toMatchObject({ tokenType: "guest", role: "guest", sessionId: identity.sessionId });
  });

  it("answers 401 for a user token whose account is gone", async () => {
    const { accessToken, user } = await signUp("gone@example.org", "long enough");
    const identity = await h.identityOf(accessToken!.token);
    await h.orm.em.fork().nativeDelete(User, { id: user!.uuid });
    await expect(
      connectErrorOf(h.rpc.getSession(create(GetSessionRequestSchema), h.ctx("getSession", identity))),
    ).resolves.toEqual({ code: Code.Unauthenticated, message: "Unauthorized" });
  });
});

describe("the account in the sign-in answers", () => {
  it("issue 9 defect 14: sign-up, login and the session carry the e-mail and hasPassword: true", async () => {
    const signedUp = await signUp("Whole@Example.org", "a long passphrase", "Whole");
    const address = { email: "whole@example.org", type: "personal", status: "PENDING_VERIFICATION", primary: true };
    // The same account view the accounts area answers with: e-mails, phone numbers, profile, password state.
    const expected = { email: "whole@example.org", hasPassword: true, phoneNumbers: [] };
    expect(signedUp.user).toMatchObject(expected);
    expect(signedUp.user?.emails).toMatchObject([address]);
    expect(signedUp.user?.profile?.nickname).toBe("Whole");

    const identity = await h.identityOf(signedUp.accessToken!.token);
    const session = await h.rpc.getSession(create(GetSessionRequestSchema), h.ctx("getSession", identity));
    expect(session.user).toMatchObject(expected);
    expect(session.user?.emails).toMatchObject([address]);

    const loggedIn = await login("whole@example.org", "a long passphrase");
    expect(loggedIn.user).toMatchObject(expected);
    expect(loggedIn.user?.emails).toMatchObject([address]);
    // One row, made with the account: the answers and the e-mail list agree on its id.
    const listed = await h.rpc.listEmails({}, h.ctx("listEmails", identity));
    expect(listed.emails.map((e) => e.id)).toEqual([signedUp.user!.emails[0]!.id]);
    expect(session.user?.emails[0]?.id).toBe(listed.emails[0]!.id);
  });
});

describe("GetGuestToken", () => {
  it("issues a one-day guest token with its own subject and session id", async () => {
    const before = Date.now();
    const a = await h.rpc.getGuestToken(create(GetGuestTokenRequestSchema), h.ctx("getGuestToken"));
    const b = await h.rpc.getGuestToken(create(GetGuestTokenRequestSchema), h.ctx("getGuestToken"));
    const claims = await verifyAccessToken(await h.instance.verificationKeys!(), a.accessToken!.token);
    const other = await verifyAccessToken(await h.instance.verificationKeys!(), b.accessToken!.token);
    expect(claims).toMatchObject({ typ: "guest", role: "guest" });
    expect(a.accessToken?.tokenType).toBe("guest");
    expect(claims.sid).not.toBe(claims.sub);
    expect(other.sid).not.toBe(claims.sid);
    expect(claims.exp - claims.iat).toBe(86_400);
    expect(claims.iat * 1000).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
  });
});

describe("Hello", () => {
  it("answers the service name and API version 1.8.0", async () => {
    const res = await h.rpc.hello({}, h.ctx("hello"));
    expect(res).toMatchObject({ service: "user-service", version: "1.8.0" });
    expect(USER_SERVICE_VERSION).toBe("1.8.0");
  });
});

describe("GetPubKey and GetJwks", () => {
  it("publishes the current key as SPKI PEM and the JWKS that verifies issued tokens", async () => {
    const res = await h.rpc.getPubKey({}, h.ctx("getPubKey"));
    expect(res.alg).toBe("EdDSA");
    expect(res.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    const fromPem = createPublicKey(res.publicKey).export({ format: "jwk" });
    const current = res.jwks?.keys.find((k) => k.kid === res.kid);
    expect(current).toMatchObject({ kty: "OKP", crv: "Ed25519", x: fromPem.x, alg: "EdDSA", use: "sig" });

    const jwks = await h.rpc.getJwks({}, h.ctx("getJwks"));
    expect(jwks.keys.map((k) => k.kid)).toEqual(res.jwks?.keys.map((k) => k.kid));

    // The published set (not only the in-process one) verifies a token the service signed.
    const guest = await h.rpc.getGuestToken({}, h.ctx("getGuestToken"));
    const published = { keys: jwks.keys.map((k) => ({ kty: k.kty, crv: k.crv, x: k.x, kid: k.kid, alg: k.alg })) };
    await expect(verifyAccessToken(published, guest.accessToken!.token)).resolves.toMatchObject({ typ: "guest" });
    const [header] = guest.accessToken!.token.split(".");
    expect(JSON.parse(Buffer.from(header!, "base64url").toString())).toEqual({
      alg: "EdDSA",
      kid: res.kid,
      typ: "JWT",
    });
  });
});

async function signedIn(email: string, password: string) {
  const res = await h.rpc.signUp({ email, password }, h.ctx("signUp"));
  return { user: res.user!, identity: await h.identityOf(res.accessToken!.token) };
}

describe("ChangePassword", () => {
  it("changes the password, revokes every other session and renews the current one", async () => {
    const { identity } = await signedIn("change@example.org", "old password");
    const phone = await h.identityOf(
      (await h.rpc.login({ email: "change@example.org", password: "old password" }, h.ctx("login"))).accessToken!.token,
    );
    const tablet = await h.identityOf(
      (await h.rpc.login({ email: "change@example.org", password: "old password" }, h.ctx("login"))).accessToken!.token,
    );

    const res = await h.rpc.changePassword(
      { password: "old password", newPassword: "new password" },
      h.ctx("changePassword", identity),
    );

    const claims = await verifyAccessToken(await h.instance.verificationKeys!(), res.accessToken!.token);
    expect(claims).toMatchObject({ sid: identity.sessionId, sub: identity.subject, typ: "user" });
    expect(res.accessToken?.tokenType).toBe("user");

    expect(h.revocations.isRevoked(phone.sessionId)).toBe(true);
    expect(h.revocations.isRevoked(tablet.sessionId)).toBe(true);
    expect(h.revocations.isRevoked(identity.sessionId)).toBe(false);
    const em = h.orm.em.fork();
    expect((await em.findOneOrFail(Session, { id: phone.sessionId })).revokedAt).toBeInstanceOf(Date);
    const current = await em.findOneOrFail(Session, { id: identity.sessionId });
    expect(current.revokedAt).toBeNull();
    expect(current.expiresAt.getTime()).toBe(claims.exp * 1000);

    await expect(
      connectErrorOf(h.rpc.login({ email: "change@example.org", password: "old password" }, h.ctx("login"))),
    ).resolves.toEqual({ code: Code.Unauthenticated, message: INCORRECT_CREDENTIALS });
    const again = await h.rpc.login({ email: "change@example.org", password: "new password" }, h.ctx("login"));
    expect(again.user?.email).toBe("change@example.org");
  });

  it("leaves the sessions of other accounts alone", async () => {
    const bystander = await signedIn("bystander@example.org", "long enough");
    const { identity } = await signedIn("changer@example.org", "old password");
    await h.rpc.changePassword(
      { password: "old password", newPassword: "new password" },
      h.ctx("changePassword", identity),
    );
    expect(h.revocations.isRevoked(bystander.identity.sessionId)).toBe(false);
  });

  it("answers 401 when the current password is wrong, and changes nothing", async () => {
    const { identity } = await signedIn("wrong-current@example.org", "old password");
    await expect(
      connectErrorOf(
        h.rpc.changePassword(
          { password: "not it at all", newPassword: "new password" },
          h.ctx("changePassword", identity),
        ),
      ),
    ).resolves.toEqual({ code: Code.Unauthenticated, message: INCORRECT_CREDENTIALS });
    const still = await h.rpc.login({ email: "wrong-current@example.org", password: "old password" }, h.ctx("login"));
    expect(still.user?.email).toBe("wrong-current@example.org");
  });

  it("answers 400 when the new password equals the previous one", async () => {
    const { identity } = await signedIn("same@example.org", "same password");
    await expect(
      connectErrorOf(
        h.rpc.changePassword(
          { password: "same password", newPassword: "same password" },
          h.ctx("changePassword", identity),
        ),
      ),
    ).resolves.toEqual({ code: Code.InvalidArgument, message: PASSWORD_NOT_CHANGED });
  });

  it("answers 400 for a missing or too short new password", async () => {
    const { identity } = await signedIn("short-new@example.org", "old password");
    await expect(
      connectErrorOf(h.rpc.changePassword({ password: "old password" }, h.ctx("changePassword", identity))),
    ).resolves.toEqual({ code: Code.InvalidArgument, message: PASSWORDS_MISSING });
    await expect(
      connectErrorOf(
        h.rpc.changePassword({ password: "old password", newPassword: "short" }, h.ctx("changePassword", identity)),
      ),
    ).resolves.toEqual({ code: Code.InvalidArgument, message: PASSWORD_TOO_SHORT });
  });

  it("lets only one of two simultaneous changes of one account through", async () => {
    const { identity } = await signedIn("concurrent@example.org", "old password");
    const other = await h.identityOf(
      (await h.rpc.login({ email: "concurrent@example.org", password: "old password" }, h.ctx("login"))).accessToken!
        .token,
    );
    const results = await Promise.allSettled([
      h.rpc.changePassword(
        { password: "old password", newPassword: "first new one" },
        h.ctx("changePassword", identity),
      ),
      h.rpc.changePassword({ password: "old password", newPassword: "second new one" }, h.ctx("changePassword", other)),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const failure = results.find((r) => r.status === "rejected");
    // Aborted when both read the old version (the optimistic lock); 401 when the loser read the new hash.
    const error = await connectErrorOf(Promise.reject(failure?.reason));
    expect([Code.Aborted, Code.Unauthenticated]).toContain(error.code);
    const winner = results[0]!.status === "fulfilled" ? "first new one" : "second new one";
    const res = await h.rpc.login({ email: "concurrent@example.org", password: winner }, h.ctx("login"));
    expect(res.user?.email).toBe("concurrent@example.org");
  });
});
