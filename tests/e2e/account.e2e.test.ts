// The account slice end to end, driven over REST exactly as a client of the specification would, against
// both ways to run the platform: all-in-one (one process, in-process transport) and distributed (one process
// per chart Deployment, HTTP/2 between gateway and services): the test run's shared platform of each mode, on
// a fresh database and the real NATS.
import { createPublicKey, generateKeyPairSync, randomUUID } from "node:crypto";
import { exportJWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, MODES, sharedPlatform, u, type CallOptions, type TestPlatform } from "./support/platform.ts";

describe.each(MODES)("account slice (%s)", (mode) => {
  let platform: TestPlatform;
  const call = (method: string, path: string, opts?: CallOptions) => platform.call(method, path, opts);
  const craft = (claims: Record<string, unknown>, opts?: { key?: string; kid?: string }) =>
    platform.craft(claims, opts);

  async function signUp(email: string, password = "correct-horse-1") {
    const { user, token } = await platform.signUp(email, password);
    return { user, accessToken: { token } };
  }

  beforeAll(async () => {
    platform = await sharedPlatform(mode);
    // The first suite to ask for the distributed platform waits for its start.
  }, 180_000);

  describe("hello and keys", () => {
    it("answers the hello check with the API version, with or without the trailing slash", async () => {
      for (const path of ["/api/user-service", "/api/user-service/"]) {
        const res = await call("GET", path);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ service: "user-service", version: "1.8.0" });
      }
    });

    it("publishes the verification key as PEM and as a JWKS", async () => {
      const res = await call("GET", u("/auth/pub-key"));
      expect(res.status).toBe(200);
      expect(res.body.alg).toBe("EdDSA");
      expect(res.body.publicKey).toContain("BEGIN PUBLIC KEY");
      const expected = await exportJWK(createPublicKey(platform.privatePem));
      const jwks = await call("GET", u("/.well-known/jwks.json"));
      expect(jwks.status).toBe(200);
      expect((jwks.body.keys as Array<{ x: string }>).map((k) => k.x)).toContain(expected.x);
    });
  });

  describe("sign-up and login", () => {
    it("refuses a sign-up without e-mail or password with 400", async () => {
      const noPassword = await call("POST", u("/users/sign-up"), { body: { email: "a@example.test" } });
      expect(noPassword.status).toBe(400);
      expect(noPassword.body).toMatchObject({ statusCode: 400, error: "Bad Request" });
      expect(String(noPassword.body.message)).toMatch(/email or password/);
      const noEmail = await call("POST", u("/users/sign-up"), { body: { password: "whatever-123" } });
      expect(noEmail.status).toBe(400);
    });

    it("signs up once per e-mail: 403 'this email is already registered'", async () => {
      const first = await signUp("dup@example.test");
      expect(first.user.email).toBe("dup@example.test");
      expect(first.accessToken.token.split(".")).toHaveLength(3);
      const again = await call("POST", u("/users/sign-up"), {
        body: { email: "DUP@example.test", password: "another-pass-1" },
      });
      expect(again.status).toBe(403);
      expect(again.body).toEqual({ statusCode: 403, message: "this email is already registered", error: "Forbidden" });
    });

    it("answers a wrong password and an unknown e-mail alike: 401 'incorrect email or password'", async () => {
      await signUp("login@example.test", "right-password-1");
      const wrong = await call("POST", u("/auth/login"), {
        body: { email: "login@example.test", password: "wrong-password-1" },
      });
      const unknown = await call("POST", u("/auth/login"), {
        body: { email: "nobody@example.test", password: "wrong-password-1" },
      });
      for (const res of [wrong, unknown]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ statusCode: 401, message: "incorrect email or password", error: "Unauthorized" });
      }
      const ok = await call("POST", u("/auth/login"), {
        body: { email: "login@example.test", password: "right-password-1" },
      });
      expect(ok.status).toBe(200);
      const session = await call("GET", u("/auth/session"), {
        token: (ok.body.accessToken as { token: string }).token,
      });
      expect(session.status).toBe(200);
      expect(session.body).toMatchObject({ tokenType: "user", role: "user" });
      expect((session.body.user as { email: string }).email).toBe("login@example.test");
    });

    it("issue 9 defect 14: sign-up, the session and login show the e-mail and hasPassword: true", async () => {
      const address = `whole-${randomUUID()}@example.test`;
      const expected = {
        email: address,
        hasPassword: true,
        emails: [{ email: address, type: "personal", status: "PENDING_VERIFICATION", primary: true }],
      };
      const signedUp = await call("POST", u("/users/sign-up"), {
        body: { email: address, password: "whole-account-1" },
      });
      expect(signedUp.status).toBe(200);
      expect(signedUp.body.user).toMatchObject(expected);
      const token = (signedUp.body.accessToken as { token: string }).token;
      const session = await call("GET", u("/auth/session"), { token });
      expect(session.status).toBe(200);
      expect(session.body.user).toMatchObject(expected);
      const login = await call("POST", u("/auth/login"), { body: { email: address, password: "whole-account-1" } });
      expect(login.status).toBe(200);
      expect(login.body.user).toMatchObject(expected);
    });

    it("issue 9 defect 7: a common password is refused at sign-up with 400 saying why", async () => {
      for (const password of ["password", "12345678", "Password1"]) {
        const res = await call("POST", u("/users/sign-up"), {
          body: { email: `weak-${randomUUID()}@example.test`, password },
        });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          statusCode: 400,
          message: "this password is too common; choose another",
          error: "Bad Request",
        });
      }
      const repeated = await call("POST", u("/users/sign-up"), {
        body: { email: `weak-${randomUUID()}@example.test`, password: "aaaaaaaa" },
      });
      expect(repeated.status).toBe(400);
      expect(repeated.body.message).toBe("this password is one character repeated; choose another");
    });

    it("gives guests a guest token that reads profiles but cannot change a password", async () => {
      const guest = await call("GET", u("/auth/guest"));
      expect(guest.status).toBe(200);
      const token = (guest.body.accessToken as { token: string }).token;
      const session = await call("GET", u("/auth/session"), { token });
      expect(session.body).toMatchObject({ tokenType: "guest" });
      const change = await call("POST", u("/users/change-password"), {
        token,
        body: { password: "x-12345678", newPassword: "y-12345678" },
      });
      expect(change.status).toBe(401);
    });
  });

  describe("profiles", () => {
    it("serves a profile by id and 404 'user profile not found' otherwise", async () => {
      const { user, accessToken } = await signUp("profile@example.test");
      const res = await call("GET", u(`/profile/${user.uuid}`), { token: accessToken.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ uuid: user.uuid, nickname: "profile" });
      const missing = await call("GET", u(`/profile/${randomUUID()}`), { token: accessToken.token });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ statusCode: 404, message: "user profile not found", error: "Not Found" });
    });
  });

  describe("passwords and sessions", () => {
    it("changes a password, refuses the same one, and revokes the other sessions", async () => {
      const { accessToken: first } = await signUp("change@example.test", "first-password-1");
      const second = await call("POST", u("/auth/login"), {
        body: { email: "change@example.test", password: "first-password-1" },
      });
      const secondToken = (second.body.accessToken as { token: string }).token;

      const same = await call("POST", u("/users/change-password"), {
        token: first.token,
        body: { password: "first-password-1", newPassword: "first-password-1" },
      });
      expect(same.status).toBe(400);
      expect(same.body.message).toBe("new password must be different from previous password");

      const wrong = await call("POST", u("/users/change-password"), {
        token: first.token,
        body: { password: "not-my-password", newPassword: "second-password-2" },
      });
      expect(wrong.status).toBe(401);

      const ok = await call("POST", u("/users/change-password"), {
        token: first.token,
        body: { password: "first-password-1", newPassword: "second-password-2" },
      });
      expect(ok.status).toBe(200);
      expect((await call("GET", u("/auth/session"), { token: secondToken })).status).toBe(401);
      const fresh = (ok.body.accessToken as { token: string }).token;
      expect((await call("GET", u("/auth/session"), { token: fresh })).status).toBe(200);

      const relogin = await call("POST", u("/auth/login"), {
        body: { email: "change@example.test", password: "second-password-2" },
      });
      expect(relogin.status).toBe(200);
    });

    it("refuses a token after logout", async () => {
      const { accessToken } = await signUp("logout@example.test");
      expect((await call("POST", u("/auth/logout"), { token: accessToken.token, body: {} })).status).toBe(200);
      expect((await call("GET", u("/auth/session"), { token: accessToken.token })).status).toBe(401);
    });
  });

  describe("admin user list", () => {
    it("is for admins only and answers {data, count, total, page, pageCount}", async () => {
      const { accessToken } = await signUp("plain@example.test");
      expect((await call("GET", u("/admin/users"), { token: accessToken.token })).status).toBe(401);

      const login = await call("POST", u("/auth/login"), { body: ADMIN });
      expect(login.status).toBe(200);
      const admin = (login.body.accessToken as { token: string }).token;
      const res = await call("GET", u("/admin/users?limit=2&page=1"), { token: admin });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ count: 2, page: 1 });
      expect(res.body.total as number).toBeGreaterThanOrEqual(3);
      expect(res.body.pageCount).toBe(Math.ceil((res.body.total as number) / 2));
      expect((res.body.data as unknown[]).length).toBe(2);

      const unknownParam = await call("GET", u("/admin/users?bogus=1"), { token: admin });
      expect(unknownParam.status).toBe(400);
      expect(String(unknownParam.body.message)).toContain("bogus");
    });
  });

  describe("tokens the platform must refuse (401)", () => {
    it("refuses forged, expired, alg none, wrong-issuer and wrong-type tokens", async () => {
      const { user } = await signUp("victim@example.test");
      const other = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
      const now = Math.floor(Date.now() / 1000);
      const unsigned =
        Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url") +
        "." +
        Buffer.from(
          JSON.stringify({
            iss: "turntable",
            aud: "turntable",
            sub: user.uuid,
            typ: "user",
            role: "admin",
            sid: "x",
            exp: now + 600,
          }),
        ).toString("base64url") +
        ".";
      const tokens = {
        forged: await craft({ sub: user.uuid }, { key: other }),
        expired: await craft({ sub: user.uuid, iat: now - 7200, exp: now - 3600 }),
        algNone: unsigned,
        wrongIssuer: await craft({ sub: user.uuid, iss: "someone-else" }),
        garbage: "not-a-token",
      };
      for (const [name, token] of Object.entries(tokens)) {
        const res = await call("GET", u("/auth/session"), { token });
        expect(res.status, name).toBe(401);
        expect(res.body.statusCode, name).toBe(401);
      }
      const guestTyped = await craft({ sub: user.uuid, typ: "guest", role: "guest" });
      const change = await call("POST", u("/users/change-password"), {
        token: guestTyped,
        body: { password: "correct-horse-1", newPassword: "another-one-2" },
      });
      expect(change.status).toBe(401);
    });
  });

  describe("gateway behaviour on the account slice", () => {
    it("answers unknown paths 404 and wrong methods 405 with the JSON error body", async () => {
      const missing = await call("GET", "/api/user-service/no-such-path");
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ statusCode: 404, error: "Not Found" });
      const wrongMethod = await call("DELETE", u("/auth/login"));
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.body).toMatchObject({ statusCode: 405 });
    });

    it("answers malformed JSON and wrong field types with 400 naming the problem", async () => {
      const malformed = await call("POST", u("/auth/login"), { raw: "{not json" });
      expect(malformed.status).toBe(400);
      const wrongType = await call("POST", u("/auth/login"), { body: { email: 12, password: "x" } });
      expect(wrongType.status).toBe(400);
      expect(String(wrongType.body.message)).toContain("email");
    });

    it("serves the Connect protocol on the same port", async () => {
      const res = await fetch(platform.url + "/tt.user.v1.AuthService/Hello", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ version: "1.8.0" });
    });

    it("lists every annotated path in /openapi.json", async () => {
      const res = await call("GET", "/openapi.json");
      expect(res.status).toBe(200);
      const paths = Object.keys(res.body.paths as object);
      for (const p of [
        "/api/user-service/users/sign-up",
        "/api/user-service/auth/login",
        "/api/user-service/profile/{id}",
        "/api/user-service/admin/users",
      ]) {
        expect(paths).toContain(p);
      }
    });
  });
});
