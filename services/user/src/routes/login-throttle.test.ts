// The login throttle (modules/contact/login-throttle.ts) through Login: it stops guessing without letting a
// stranger lock the owner out. Time passing is simulated by moving the backoff row's time back in the
// database (the throttle runs on the database clock), never by sleeping.
import { ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { TOO_MANY_LOGINS } from "../modules/contact/login-throttle.ts";
import { throttleKey, ThrottleWindow } from "@tt/kit";
import { Code } from "../testing/expect-connect-error.ts";
import { createUserHarness, type UserHarness } from "../testing/user-harness.ts";
import { INCORRECT_CREDENTIALS } from "./auth.ts";

let h: UserHarness;

const ENV = {
  LOGIN_ATTEMPTS_PER_ACCOUNT_AND_IP: "3",
  LOGIN_ATTEMPTS_PER_IP: "50",
  LOGIN_FAILURES_BEFORE_BACKOFF: "4",
  LOGIN_BACKOFF_MAX_SECONDS: "8",
};
const PASSWORD = "owner's long passphrase";

beforeAll(async () => {
  h = await createUserHarness(inject("databaseUrl"), ENV);
});

afterAll(async () => {
  await h?.close();
});

let ipSeq = 0;
/** An address no test has used yet, as the gateway forwards it. */
const freshIp = () => `198.51.100.${++ipSeq}`;

async function login(email: string, password: string, ip: string) {
  const ctx = h.ctx("login", undefined, { "x-forwarded-for": ip });
  try {
    const res = await h.rpc.login({ email, password }, ctx);
    return { ok: true as const, user: res.user };
  } catch (err) {
    if (!(err instanceof ConnectError)) throw err;
    const retryAfter = err.metadata.get("retry-after");
    return { ok: false as const, code: err.code, message: err.rawMessage, retryAfter: Number(retryAfter ?? 0) };
  }
}

/** "The backoff's current wait has passed": the account's next check may start now. */
async function waitOut(email: string) {
  const em = h.orm.em.fork();
  const key = throttleKey("login-backoff", `account:${email}`);
  await em.nativeUpdate(ThrottleWindow, { key }, { windowStart: new Date(Date.now() - 1000) });
}

describe("login throttle", () => {
  it("issue 9 defect 5: ten wrong passwords from one address refuse that address, not the owner elsewhere", async () => {
    await h.rpc.signUp({ email: "dora@example.org", password: PASSWORD }, h.ctx("signUp"));
    const attacker = freshIp();
    for (let i = 0; i < 3; i++) {
      expect(await login("dora@example.org", "guess number " + i, attacker)).toMatchObject({
        code: Code.Unauthenticated,
        message: INCORRECT_CREDENTIALS,
      });
    }
    // The attacker's address is refused, even with the right password, and told when to come back.
    const refused = await login("Dora@example.org", PASSWORD, attacker);
    expect(refused).toMatchObject({ ok: false, code: Code.ResourceExhausted, message: TOO_MANY_LOGINS });
    if (refused.ok) throw new Error("unreachable");
    expect(refused.retryAfter).toBeGreaterThan(0);
    expect(refused.retryAfter).toBeLessThanOrEqual(15 * 60);
    const thrown = await h.rpc
      .login(
        { email: "dora@example.org", password: PASSWORD },
        h.ctx("login", undefined, { "x-forwarded-for": attacker }),
      )
      .catch((e: unknown) => e);
    expect(Number((thrown as ConnectError).metadata.get("retry-after"))).toBeGreaterThan(0);
    // The owner, from an address the account has never seen, signs in.
    expect(await login("dora@example.org", PASSWORD, freshIp())).toMatchObject({ ok: true });
  });

  it("issue 9 defect 5: a distributed attack is slowed down (growing delay, capped) but never locks the owner out", async () => {
    const email = "erin@example.org";
    await h.rpc.signUp({ email, password: PASSWORD }, h.ctx("signUp"));
    const home = freshIp();
    expect(await login(email, PASSWORD, home)).toMatchObject({ ok: true });

    // Many addresses, each well within its own limit: the first four failures are free.
    for (let i = 0; i < 4; i++) {
      expect(await login(email, `guess ${i}`, freshIp())).toMatchObject({ code: Code.Unauthenticated });
    }
    // From then on one check per delay, the delay doubling with every failure up to the cap (8 s here).
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const blocked = await login(email, "any guess", freshIp());
      expect(blocked).toMatchObject({ ok: false, code: Code.ResourceExhausted, message: TOO_MANY_LOGINS });
      if (!blocked.ok) waits.push(blocked.retryAfter);
      await waitOut(email);
      expect(await login(email, `slow guess ${i}`, freshIp())).toMatchObject({ code: Code.Unauthenticated });
    }
    expect(waits).toEqual([1, 2, 4, 8, 8, 8]);

    // A refused attempt checks no password: the right one is refused the same way, so it teaches nothing.
    const rightButEarly = await login(email, PASSWORD, freshIp());
    expect(rightButEarly).toMatchObject({ ok: false, code: Code.ResourceExhausted });

    // Meanwhile the owner signs in from where they signed in before, at once.
    expect(await login(email, PASSWORD, home)).toMatchObject({ ok: true });
    // From a new address the owner waits at most the cap, then gets in: delayed, never locked.
    const traveller = freshIp();
    const delayed = await login(email, PASSWORD, traveller);
    expect(delayed).toMatchObject({ ok: false, code: Code.ResourceExhausted });
    if (!delayed.ok) expect(delayed.retryAfter).toBeLessThanOrEqual(8);
    await waitOut(email);
    expect(await login(email, PASSWORD, traveller)).toMatchObject({ ok: true });
    // …and that address is now one the account knows.
    expect(await login(email, PASSWORD, traveller)).toMatchObject({ ok: true });
  });

  it("issue 9 defect 5: attempts arriving together when the wait ends get one password check between them", async () => {
    const email = "fay@example.org";
    await h.rpc.signUp({ email, password: PASSWORD }, h.ctx("signUp"));
    for (let i = 0; i < 4; i++) await login(email, `guess ${i}`, freshIp());
    await waitOut(email);
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => login(email, `burst ${i}`, freshIp())));
    expect(results.filter((r) => !r.ok && r.code === Code.Unauthenticated)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.code === Code.ResourceExhausted)).toHaveLength(5);
  });

  it("issue 9 defect 5: the address is the hop the gateway vouches for, not one the caller wrote", async () => {
    // Behind a trusted proxy the gateway forwards "<caller's list>, <proxy's socket>"; the caller controls
    // everything before the entry the proxy wrote, so rotating it must not make a fresh address.
    await h.rpc.signUp({ email: "gil@example.org", password: PASSWORD }, h.ctx("signUp"));
    const real = freshIp();
    for (let i = 0; i < 3; i++) {
      const forged = `203.0.113.${i + 1}, ${real}, 10.0.0.1`;
      expect(await login("gil@example.org", `guess ${i}`, forged)).toMatchObject({ code: Code.Unauthenticated });
    }
    const again = await login("gil@example.org", PASSWORD, `203.0.113.99, ${real}, 10.0.0.1`);
    expect(again).toMatchObject({ ok: false, code: Code.ResourceExhausted });
    expect(await login("gil@example.org", PASSWORD, `${freshIp()}, 10.0.0.1`)).toMatchObject({ ok: true });
  });
});
