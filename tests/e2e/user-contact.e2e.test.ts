// The contact area over REST through the gateway: e-mails and their codes, phone sign-in, the whitelist,
// phone validation, admin phone numbers, the dev outbox and the throttles. Codes are read back from the dev
// outbox, as a developer on the embedded default would.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, u, type Answer, type CallOptions, type TestPlatform } from "./support/platform.ts";

let platform: TestPlatform;
let admin: string;
const call = (method: string, path: string, opts?: CallOptions) => platform.call(method, path, opts);

const VOIP = "+12125550143";
let seq = 0;
const freshNumber = () => `+4915223456${String(100 + seq++).padStart(3, "0")}`;
const wrong = (code: string) => (code === "000000" ? "111111" : "000000");

function expectError(res: Answer, status: number, message?: string) {
  expect(res.status).toBe(status);
  expect(res.body.statusCode).toBe(status);
  if (message !== undefined) expect(res.body.message).toBe(message);
}

async function lastCode(to: string): Promise<string> {
  const res = await call("GET", u(`/dev/outbox?to=${encodeURIComponent(to)}&limit=1`), { token: admin });
  expect(res.status).toBe(200);
  const messages = res.body.messages as { body: string }[];
  const code = /\b(\d{6})\b/.exec(messages[0]?.body ?? "")?.[1];
  if (!code) throw new Error(`no code was sent to ${to}`);
  return code;
}

beforeAll(async () => {
  platform = await startTestPlatform({
    env: {
      LOGIN_ATTEMPTS_PER_ACCOUNT_AND_IP: "3",
      MOBILE_CODES_PER_IP_PER_HOUR: "100",
      EMAIL_CODE_REQUESTS_PER_HOUR: "50",
    },
  });
  admin = await platform.adminToken();
});

afterAll(async () => {
  await platform?.close();
});

describe("e-mails", () => {
  it("lists, adds, verifies, resends and deletes e-mails with the documented errors", async () => {
    const ann = await platform.signUp("ann@example.test");
    const bob = await platform.signUp("bob@example.test");

    const list = await call("GET", u("/users/emails"), { token: ann.token });
    expect(list.status).toBe(200);
    const primary = (list.body.emails as { id: string }[])[0]!;
    expect(list.body.emails).toMatchObject([
      { email: "ann@example.test", primary: true, status: "PENDING_VERIFICATION", type: "personal" },
    ]);

    const bad = await call("POST", u("/users/emails"), {
      token: ann.token,
      body: { email: "a@example.test", type: "x" },
    });
    expectError(bad, 400, "type must be one of personal, work, payment");
    const taken = await call("POST", u("/users/emails"), {
      token: ann.token,
      body: { email: "bob@example.test", type: "work" },
    });
    expectError(taken, 403, "this email is already registered");

    const added = await call("POST", u("/users/emails"), {
      token: ann.token,
      body: { email: "ann.work@example.test", type: "work" },
    });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({
      email: "ann.work@example.test",
      status: "PENDING_VERIFICATION",
      primary: false,
    });
    const id = added.body.id as string;
    const code = await lastCode("ann.work@example.test");

    expectError(
      await call("POST", u("/users/emails/verify"), { token: ann.token, body: { id, code: wrong(code) } }),
      403,
      "email verification failed, incorrect code",
    );
    expectError(
      await call("POST", u("/users/emails/verify"), { token: bob.token, body: { id, code } }),
      404,
      "email not found",
    );
    expectError(
      await call("POST", u("/users/emails/verification-email"), { token: ann.token, body: { id } }),
      403,
      "minimum time since last send not elapsed",
    );
    const verified = await call("POST", u("/users/emails/verify"), { token: ann.token, body: { id, code } });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ result: "VERIFIED", email: { id, status: "VERIFIED" } });
    expectError(
      await call("POST", u("/users/emails/verify"), { token: ann.token, body: { id, code } }),
      403,
      "email already verified",
    );
    expectError(
      await call("POST", u("/users/emails/verification-email"), { token: ann.token, body: { id } }),
      403,
      "email already verified",
    );
    expectError(
      await call("POST", u("/users/emails/verification-email"), { token: bob.token, body: { id } }),
      404,
      "email not found",
    );

    // The primary e-mail's first code: nothing was sent to it yet, so no interval applies.
    const sent = await call("POST", u("/users/emails/verification-email"), {
      token: ann.token,
      body: { id: primary.id },
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ id: primary.id, status: "PENDING_VERIFICATION" });
    expect(sent.body.verificationSentAt).toBeTypeOf("string");

    expectError(await call("DELETE", u(`/users/emails/${primary.id}`), { token: ann.token }), 403);
    expectError(await call("DELETE", u(`/users/emails/${id}`), { token: bob.token }), 404, "email not found");
    expectError(await call("DELETE", u("/users/emails/not-a-uuid"), { token: ann.token }), 404, "email not found");
    const deleted = await call("DELETE", u(`/users/emails/${id}`), { token: ann.token });
    expect(deleted.status).toBe(200);
    const after = await call("GET", u("/users/emails"), { token: ann.token });
    expect((after.body.emails as { id: string }[]).map((e) => e.id)).toEqual([primary.id]);

    expectError(await call("GET", u("/users/emails")), 401);
  });

  it("limits wrong codes with 429", async () => {
    const cara = await platform.signUp("cara@example.test");
    const added = await call("POST", u("/users/emails"), {
      token: cara.token,
      body: { email: "cara.pay@example.test", type: "payment" },
    });
    const id = added.body.id as string;
    const code = await lastCode("cara.pay@example.test");
    for (let i = 0; i < 5; i++) {
      const res = await call("POST", u("/users/emails/verify"), { token: cara.token, body: { id, code: wrong(code) } });
      expect(res.status).toBe(403);
    }
    expectError(await call("POST", u("/users/emails/verify"), { token: cara.token, body: { id, code } }), 429);
  });

  it("confirms an e-mail by address and code without a session (deprecated call)", async () => {
    const dan = await platform.signUp("dan@example.test");
    const list = await call("GET", u("/users/emails"), { token: dan.token });
    const primary = (list.body.emails as { id: string }[])[0]!;
    await call("POST", u("/users/emails/verification-email"), { token: dan.token, body: { id: primary.id } });
    const code = await lastCode("dan@example.test");
    expectError(
      await call("POST", u("/users/confirm-email"), { body: { email: "dan@example.test", code: wrong(code) } }),
      403,
      "email verification failed, incorrect code",
    );
    expectError(
      await call("POST", u("/users/confirm-email"), { body: { email: "nobody@example.test", code } }),
      404,
      "email not found",
    );
    const res = await call("POST", u("/users/confirm-email"), { body: { email: "dan@example.test", code } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: "VERIFIED", email: { id: primary.id, status: "VERIFIED" } });
  });
});

describe("phone sign-in", () => {
  it("texts a code and trades it for a session, creating the account once", async () => {
    const phone = freshNumber();
    const sent = await call("POST", u("/mobile-auth/send-code"), { body: { phoneNumber: phone } });
    expect(sent.status).toBe(200);
    expect(sent.body.phoneNumber).toBe(phone);
    expect(Date.parse(sent.body.expiresAt as string)).toBeGreaterThan(Date.now());
    const again = await call("POST", u("/mobile-auth/send-code"), { body: { phoneNumber: phone } });
    expectError(again, 429, "a code was sent recently, wait before asking for another");

    const code = await lastCode(phone);
    expectError(
      await call("POST", u("/mobile-auth/verify-code"), { body: { phoneNumber: phone, code: wrong(code) } }),
      403,
    );
    const res = await call("POST", u("/mobile-auth/verify-code"), { body: { phoneNumber: phone, code } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: true, accessToken: { tokenType: "user" } });
    const token = (res.body.accessToken as { token: string }).token;
    const session = await call("GET", u("/auth/session"), { token });
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ uuid: (res.body.user as { uuid: string }).uuid });
    // Single use.
    expectError(await call("POST", u("/mobile-auth/verify-code"), { body: { phoneNumber: phone, code } }), 403);
  });

  it("refuses unreadable and VoIP numbers with 400 unless whitelisted", async () => {
    expectError(await call("POST", u("/mobile-auth/send-code"), { body: { phoneNumber: "12" } }), 400);
    expectError(
      await call("POST", u("/mobile-auth/send-code"), { body: { phoneNumber: VOIP } }),
      400,
      "Phone number is invalid. Only real, non-VoIP mobile numbers are allowed.",
    );
    expectError(await call("POST", u("/mobile-auth/verify-code"), { body: { phoneNumber: "x", code: "123456" } }), 400);

    const listed = await call("POST", u("/mobile-auth/whitelist"), {
      token: admin,
      body: { phoneNumber: VOIP, note: "app review" },
    });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ phoneNumber: VOIP, whitelisted: true, note: "app review" });
    expect((await call("POST", u("/mobile-auth/send-code"), { body: { phoneNumber: VOIP } })).status).toBe(200);
    expectError(await call("POST", u("/mobile-auth/whitelist"), { token: admin, body: { phoneNumber: "no" } }), 400);
    expectError(await call("POST", u("/mobile-auth/whitelist"), { body: { phoneNumber: VOIP } }), 401);

    const removed = await call("DELETE", u(`/mobile-auth/whitelist/${listed.body.id as string}`), { token: admin });
    expect(removed.status).toBe(200);
    expectError(
      await call("DELETE", u("/mobile-auth/whitelist/5c1e7e00-0000-4000-8000-000000000000"), { token: admin }),
      404,
    );
  });
});

describe("phone validation", () => {
  it("validates, lists and clears the recents, and serves the fraud constants", async () => {
    const phone = freshNumber();
    const res = await call("GET", u(`/phone-validation/validate/${encodeURIComponent(phone)}`), { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ phoneNumber: phone, status: "VALID" });
    // Issue 23 finding 12: an unreadable number is the documented INVALID outcome, not a 400.
    const unreadable = await call("GET", u("/phone-validation/validate/abc"), { token: admin });
    expect(unreadable.status).toBe(200);
    expect(unreadable.body).toMatchObject({ phoneNumber: "abc", status: "INVALID" });
    expectError(await call("GET", u(`/phone-validation/validate/${encodeURIComponent(phone)}`)), 401);

    const recents = await call("GET", u("/phone-validation/recents?limit=5"), { token: admin });
    expect(recents.status).toBe(200);
    expect((recents.body.validations as { phoneNumber: string }[])[0]!.phoneNumber).toBe(phone);
    expectError(await call("GET", u("/phone-validation/recents?limit=9999"), { token: admin }), 400);
    const cleared = await call("DELETE", u("/phone-validation/recents"), { token: admin });
    expect(cleared.status).toBe(200);
    expect(cleared.body.removed).toBeGreaterThan(0);

    const constants = await call("GET", u("/phone-validation/fraudConstants"), { token: admin });
    expect(constants.status).toBe(200);
    expect(constants.body).toMatchObject({ codeTtlSeconds: 600, maxCodesPerIpPerHour: 100, maxVerifyAttempts: 5 });
    const user = await platform.signUp();
    expectError(await call("GET", u("/phone-validation/fraudConstants"), { token: user.token }), 401);
  });
});

describe("admin phone numbers", () => {
  it("creates, lists, reads, updates and deletes, with 400, 404 and 409", async () => {
    const owner = await platform.signUp();
    const created = await call("POST", u("/admin/phoneNumbers"), {
      token: admin,
      body: { phoneNumber: "+44 20 7946 0100", userUuid: owner.user.uuid, note: "desk" },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ phoneNumber: "+442079460100", userUuid: owner.user.uuid, note: "desk" });
    const id = created.body.id as string;
    expectError(
      await call("POST", u("/admin/phoneNumbers"), { token: admin, body: { phoneNumber: "+442079460100" } }),
      409,
    );
    expectError(await call("POST", u("/admin/phoneNumbers"), { token: admin, body: { phoneNumber: "call me" } }), 400);

    const list = await call("GET", u(`/admin/phoneNumbers?filter=${encodeURIComponent(`id||$eq||${id}`)}`), {
      token: admin,
    });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 1, total: 1, page: 1, pageCount: 1 });
    expectError(await call("GET", u("/admin/phoneNumbers?filter=nope||$eq||1"), { token: admin }), 400);

    const got = await call("GET", u(`/admin/phoneNumbers/${id}`), { token: admin });
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(id);

    const patched = await call("PATCH", u(`/admin/phoneNumbers/${id}`), { token: admin, body: { whitelisted: true } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ whitelisted: true, note: "desk", userUuid: owner.user.uuid });
    expectError(await call("PATCH", u(`/admin/phoneNumbers/${id}`), { token: admin, body: { phoneNumber: "x" } }), 400);
    await call("POST", u("/admin/phoneNumbers"), { token: admin, body: { phoneNumber: "+442079460101" } });
    expectError(
      await call("PATCH", u(`/admin/phoneNumbers/${id}`), { token: admin, body: { phoneNumber: "+442079460101" } }),
      409,
    );

    expect((await call("DELETE", u(`/admin/phoneNumbers/${id}`), { token: admin })).status).toBe(200);
    expectError(await call("GET", u(`/admin/phoneNumbers/${id}`), { token: admin }), 404);
    expectError(await call("PATCH", u(`/admin/phoneNumbers/${id}`), { token: admin, body: { note: "x" } }), 404);
    expectError(await call("DELETE", u(`/admin/phoneNumbers/${id}`), { token: admin }), 404);
    expectError(await call("GET", u("/admin/phoneNumbers"), { token: owner.token }), 401);
  });
});

describe("dev outbox and throttles", () => {
  it("lists the dev outbox newest first to admins only", async () => {
    const res = await call("GET", u("/dev/outbox?limit=2"), { token: admin });
    expect(res.status).toBe(200);
    const messages = res.body.messages as { createdAt: string; channel: string }[];
    expect(messages).toHaveLength(2);
    expect(Date.parse(messages[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(messages[1]!.createdAt));
    expectError(await call("GET", u("/dev/outbox?limit=501"), { token: admin }), 400);
    const user = await platform.signUp();
    expectError(await call("GET", u("/dev/outbox"), { token: user.token }), 401);
  });

  it("answers 429 once an account's logins exceed the limit", async () => {
    await platform.signUp("erin@example.test", "correct-horse-1");
    for (let i = 0; i < 3; i++) {
      const res = await call("POST", u("/auth/login"), { body: { email: "erin@example.test", password: "nope" } });
      expect(res.status).toBe(401);
    }
    const res = await call("POST", u("/auth/login"), {
      body: { email: "erin@example.test", password: "correct-horse-1" },
    });
    expectError(res, 429, "too many login attempts, try again later");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    // Connect callers get the same refusal.
    const connect = await fetch(`${platform.url}/tt.user.v1.AuthService/Login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "erin@example.test", password: "correct-horse-1" }),
    });
    expect(connect.status).toBe(429);
    expect(await connect.json()).toMatchObject({ code: "resource_exhausted" });
  });
});
