import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PASSWORD_TOO_SHORT } from "../account-rules.ts";
import { Session } from "../modules/sessions/session.entity.ts";
import { Code, connectErrorOf } from "../testing/expect-connect-error.ts";
import { createUserHarness, verifyAccessToken, type UserHarness } from "../testing/user-harness.ts";
import { INCORRECT_CREDENTIALS } from "./auth.ts";
import { PASSWORD_NOT_CHANGED, PASSWORDS_MISSING } from "./passwords.ts";

let h: UserHarness;

beforeAll(async () => {
  h = await createUserHarness(inject("databaseUrl"));
});

afterAll(async () => {
  await h?.close();
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
