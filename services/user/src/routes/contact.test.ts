import { timestampDate } from "@bufbuild/protobuf/wkt";
import { EMAIL_ALREADY_REGISTERED } from "../account-rules.ts";
import { ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Identity } from "@tt/kit";
import { Email } from "../modules/contact/email.entity.ts";
import { MobileCode } from "../modules/contact/mobile-code.entity.ts";
import { User } from "../modules/users/user.entity.ts";
import { Code, connectErrorOf, retryAfterOf } from "../testing/expect-connect-error.ts";
import { createUserHarness, type UserHarness } from "../testing/user-harness.ts";
import { NO_PASSWORD_HASH } from "./contact-mobile.ts";
import {
  DEV_OUTBOX_OFF,
  EMAIL_ALREADY_VERIFIED,
  EMAIL_NOT_FOUND,
  INCORRECT_EMAIL_CODE,
  INCORRECT_MOBILE_CODE,
  INVALID_EMAIL_TYPE,
  INVALID_PHONE_NUMBER,
  MIN_INTERVAL_NOT_ELAPSED,
  PHONE_NUMBER_EXISTS,
  PHONE_NUMBER_NOT_FOUND,
  PRIMARY_EMAIL_NOT_DELETABLE,
  RESEND_TOO_SOON,
  TOO_MANY_ATTEMPTS,
  UNKNOWN_ACCOUNT,
  UNREADABLE_PHONE_NUMBER,
} from "./contact-shared.ts";

let h: UserHarness;
let admin: Identity;
let ann: Identity;
let bob: Identity;
let annId: string;

const ENV = {
  ADMIN_EMAIL: "admin@example.org",
  ADMIN_PASSWORD: "admin password",
  MOBILE_CODES_PER_IP_PER_HOUR: "4",
  MOBILE_CODES_PER_NUMBER_PER_HOUR: "3",
  LOGIN_ATTEMPTS_PER_ACCOUNT_AND_IP: "3",
  LOGIN_ATTEMPTS_PER_IP: "5",
  PHONE_BLOCKED_CARRIER_TYPES: "landline",
};

// A fictional +1 555-01XX number: the development validator answers VOIP for these.
const VOIP = "+12125550142";
let numberSeq = 0;
/** A distinct valid mobile number per test, so the per-number limits of one test do not reach another. */
const freshNumber = () => `+4915112345${String(100 + numberSeq++).padStart(3, "0")}`;
let ipSeq = 0;
const freshIp = () => ({ "x-forwarded-for": `198.51.100.${++ipSeq}` });

async function signUp(email: string): Promise<Identity> {
  const res = await h.rpc.signUp({ email, password: "long enough" }, h.ctx("signUp"));
  return h.identityOf(res.accessToken!.token);
}

/** The code in the newest dev-outbox message to `to` (what the development senders "sent"). */
async function lastCode(to: string): Promise<string> {
  const { messages } = await h.rpc.listDevOutbox({ to, limit: 1 }, h.ctx("listDevOutbox", admin));
  const code = /\b(\d{6})\b/.exec(messages[0]?.body ?? "")?.[1];
  if (!code) throw new Error(`no code was sent to ${to}`);
  return code;
}

const wrong = (code: string) => (code === "000000" ? "111111" : "000000");

beforeAll(async () => {
  h = await createUserHarness(inject("databaseUrl"), ENV);
  const login = await h.rpc.login({ email: ENV.ADMIN_EMAIL, password: ENV.ADMIN_PASSWORD }, h.ctx("login"));
  admin = await h.identityOf(login.accessToken!.token);
  ann = await signUp("ann@example.org");
  bob = await signUp("bob@example.org");
  annId = ann.subject;
});

afterAll(async () => {
  await h?.close();
});

describe("ListEmails", () => {
  it("shows the sign-in address as the primary e-mail, pending verification, once", async () => {
    const first = await h.rpc.listEmails({}, h.ctx("listEmails", ann));
    const again = await h.rpc.listEmails({}, h.ctx("listEmails", ann));
    expect(first.emails).toHaveLength(1);
    expect(first.emails[0]).toMatchObject({ email: "ann@example.org", primary: true, status: "PENDING_VERIFICATION" });
    expect(again.emails.map((e) => e.id)).toEqual([first.emails[0]!.id]);
  });
});

describe("AddEmail, VerifyEmail, SendVerificationEmail, DeleteEmail", () => {
  it("refuses a bad type, a bad address and an address already registered", async () => {
    const add = (email: string, type: string) => h.rpc.addEmail({ email, type }, h.ctx("addEmail", ann));
    expect(await connectErrorOf(add("x@example.org", "spotify"))).toEqual({
      code: Code.InvalidArgument,
      message: INVALID_EMAIL_TYPE,
    });
    expect((await connectErrorOf(add("not an address", "work"))).code).toBe(Code.InvalidArgument);
    expect(await connectErrorOf(add("BOB@example.org", "work"))).toEqual({
      code: Code.PermissionDenied,
      message: EMAIL_ALREADY_REGISTERED,
    });
  });

  it("adds a pending e-mail, mails a code that verifies it, and refuses a second verification", async () => {
    const { email } = await h.rpc.addEmail({ email: "Ann.Work@Example.org", type: "work" }, h.ctx("addEmail", ann));
    expect(email).toMatchObject({ email: "ann.work@example.org", type: "work", status: "PENDING_VERIFICATION" });
    expect(email!.verificationSentAt).toBeDefined();
    const code = await lastCode("ann.work@example.org");

    expect(
      await connectErrorOf(h.rpc.verifyEmail({ id: email!.id, code: wrong(code) }, h.ctx("verifyEmail", ann))),
    ).toEqual({
      code: Code.PermissionDenied,
      message: INCORRECT_EMAIL_CODE,
    });
    // Bob cannot verify (or learn about) Ann's e-mail.
    expect(await connectErrorOf(h.rpc.verifyEmail({ id: email!.id, code }, h.ctx("verifyEmail", bob)))).toEqual({
      code: Code.NotFound,
      message: EMAIL_NOT_FOUND,
    });
    const verified = await h.rpc.verifyEmail({ id: email!.id, code }, h.ctx("verifyEmail", ann));
    expect(verified.result).toBe("VERIFIED");
    expect(verified.email).toMatchObject({ status: "VERIFIED" });
    expect(verified.email!.verifiedAt).toBeDefined();
    expect(await connectErrorOf(h.rpc.verifyEmail({ id: email!.id, code }, h.ctx("verifyEmail", ann)))).toEqual({
      code: Code.PermissionDenied,
      message: EMAIL_ALREADY_VERIFIED,
    });
    expect(
      await connectErrorOf(h.rpc.sendVerificationEmail({ id: email!.id }, h.ctx("sendVerificationEmail", ann))),
    ).toEqual({ code: Code.PermissionDenied, message: EMAIL_ALREADY_VERIFIED });

    const list = await h.rpc.listEmails({}, h.ctx("listEmails", ann));
    expect(list.emails.map((e) => [e.email, e.primary])).toEqual([
      ["ann@example.org", true],
      ["ann.work@example.org", false],
    ]);
    // Stored hashed: the row never holds the code itself.
    const row = await h.orm.em.fork().findOneOrFail(Email, { id: email!.id }, { populate: ["codeHash"] });
    expect(row.codeHash).toBeNull();
  });

  it("locks a code after too many wrong tries", async () => {
    const { email } = await h.rpc.addEmail({ email: "ann.pay@example.org", type: "payment" }, h.ctx("addEmail", ann));
    const code = await lastCode("ann.pay@example.org");
    for (let i = 0; i < 5; i++) {
      const err = await connectErrorOf(
        h.rpc.verifyEmail({ id: email!.id, code: wrong(code) }, h.ctx("verifyEmail", ann)),
      );
      expect(err.message).toBe(INCORRECT_EMAIL_CODE);
    }
    expect(await connectErrorOf(h.rpc.verifyEmail({ id: email!.id, code }, h.ctx("verifyEmail", ann)))).toEqual({
      code: Code.ResourceExhausted,
      message: TOO_MANY_ATTEMPTS,
    });
  });

  it("resends only after the minimum interval, with a new code that replaces the old one", async () => {
    const { email } = await h.rpc.addEmail({ email: "bob.home@example.org", type: "personal" }, h.ctx("addEmail", bob));
    const oldCode = await lastCode("bob.home@example.org");
    const resend = () => h.rpc.sendVerificationEmail({ id: email!.id }, h.ctx("sendVerificationEmail", bob));
    expect(await connectErrorOf(resend())).toEqual({ code: Code.PermissionDenied, message: MIN_INTERVAL_NOT_ELAPSED });
    // The last send moved back past the interval, rather than waiting a minute.
    await h.orm.em.fork().nativeUpdate(Email, { id: email!.id }, { verificationSentAt: new Date(Date.now() - 61_000) });
    const res = await resend();
    expect(timestampDate(res.email!.verificationSentAt!).getTime()).toBeGreaterThan(Date.now() - 10_000);
    const newCode = await lastCode("bob.home@example.org");
    if (newCode !== oldCode) {
      const err = await connectErrorOf(h.rpc.verifyEmail({ id: email!.id, code: oldCode }, h.ctx("verifyEmail", bob)));
      expect(err.message).toBe(INCORRECT_EMAIL_CODE);
    }
    expect((await h.rpc.verifyEmail({ id: email!.id, code: newCode }, h.ctx("verifyEmail", bob))).result).toBe(
      "VERIFIED",
    );
  });

  it("answers 404 for an unknown, malformed or another user's e-mail", async () => {
    const mine = (await h.rpc.listEmails({}, h.ctx("listEmails", ann))).emails[0]!;
    for (const [id, who] of [
      ["6b3c1e7e-0000-4000-8000-000000000000", ann],
      ["not-a-uuid", ann],
      [mine.id, bob],
    ] as const) {
      expect(await connectErrorOf(h.rpc.sendVerificationEmail({ id }, h.ctx("sendVerificationEmail", who)))).toEqual({
        code: Code.NotFound,
        message: EMAIL_NOT_FOUND,
      });
      expect(await connectErrorOf(h.rpc.deleteEmail({ id }, h.ctx("deleteEmail", who)))).toEqual({
        code: Code.NotFound,
        message: EMAIL_NOT_FOUND,
      });
    }
  });

  it("deletes an e-mail (DELETED, gone from the list) but never the primary one; its code then answers ERROR", async () => {
    const primary = (await h.rpc.listEmails({}, h.ctx("listEmails", bob))).emails[0]!;
    expect(await connectErrorOf(h.rpc.deleteEmail({ id: primary.id }, h.ctx("deleteEmail", bob)))).toEqual({
      code: Code.PermissionDenied,
      message: PRIMARY_EMAIL_NOT_DELETABLE,
    });
    const { email } = await h.rpc.addEmail({ email: "bob.old@example.org", type: "work" }, h.ctx("addEmail", bob));
    const code = await lastCode("bob.old@example.org");
    await h.rpc.deleteEmail({ id: email!.id }, h.ctx("deleteEmail", bob));
    const list = await h.rpc.listEmails({}, h.ctx("listEmails", bob));
    expect(list.emails.map((e) => e.email)).not.toContain("bob.old@example.org");
    expect((await h.orm.em.fork().findOneOrFail(Email, { id: email!.id })).status).toBe("DELETED");
    const res = await h.rpc.verifyEmail({ id: email!.id, code }, h.ctx("verifyEmail", bob));
    expect(res.result).toBe("ERROR");
    // The address is free again.
    const again = await h.rpc.addEmail({ email: "bob.old@example.org", type: "work" }, h.ctx("addEmail", bob));
    expect(again.email!.id).not.toBe(email!.id);
  });
});

describe("ConfirmEmail (deprecated)", () => {
  it("verifies the primary e-mail by address and code, without a session", async () => {
    const cara = await signUp("cara@example.org");
    const primary = (await h.rpc.listEmails({}, h.ctx("listEmails", cara))).emails[0]!;
    await h.orm.em.fork().nativeUpdate(Email, { id: primary.id }, { verificationSentAt: null });
    await h.rpc.sendVerificationEmail({ id: primary.id }, h.ctx("sendVerificationEmail", cara));
    const code = await lastCode("cara@example.org");
    const confirm = (email: string, c: string) => h.rpc.confirmEmail({ email, code: c }, h.ctx("confirmEmail"));
    expect(await connectErrorOf(confirm("nobody@example.org", code))).toEqual({
      code: Code.NotFound,
      message: EMAIL_NOT_FOUND,
    });
    expect(await connectErrorOf(confirm("cara@example.org", wrong(code)))).toEqual({
      code: Code.PermissionDenied,
      message: INCORRECT_EMAIL_CODE,
    });
    const res = await confirm(" CARA@example.org ", code);
    expect(res.result).toBe("VERIFIED");
    expect(res.email).toMatchObject({ id: primary.id, status: "VERIFIED", primary: true });
  });
});

describe("SendMobileCode and VerifyMobileCode", () => {
  it("refuses numbers that cannot be read, VoIP numbers and blocked line types with the spec's text", async () => {
    const send = (phoneNumber: string) =>
      h.rpc.sendMobileCode({ phoneNumber }, h.ctx("sendMobileCode", undefined, freshIp()));
    expect(await connectErrorOf(send("12345"))).toEqual({
      code: Code.InvalidArgument,
      message: UNREADABLE_PHONE_NUMBER,
    });
    expect(await connectErrorOf(send(VOIP))).toEqual({ code: Code.InvalidArgument, message: INVALID_PHONE_NUMBER });
  });

  it("texts a code that signs up on first use and signs in afterwards", async () => {
    const phone = freshNumber();
    const headers = freshIp();
    const sent = await h.rpc.sendMobileCode({ phoneNumber: phone }, h.ctx("sendMobileCode", undefined, headers));
    expect(sent.phoneNumber).toBe(phone);
    const expires = timestampDate(sent.expiresAt!).getTime();
    expect(expires).toBeGreaterThan(Date.now() + 9 * 60_000);
    expect(timestampDate(sent.resendAt!).getTime()).toBeLessThan(expires);
    const code = await lastCode(phone);

    const verify = (c: string) =>
      h.rpc.verifyMobileCode({ phoneNumber: phone, code: c }, h.ctx("verifyMobileCode", undefined, headers));
    expect(await connectErrorOf(verify(wrong(code)))).toEqual({
      code: Code.PermissionDenied,
      message: INCORRECT_MOBILE_CODE,
    });
    const first = await verify(code);
    expect(first.created).toBe(true);
    expect(first.accessToken?.tokenType).toBe("user");
    const identity = await h.identityOf(first.accessToken!.token);
    expect(identity.subject).toBe(first.user!.uuid);
    const user = await h.orm.em.fork().findOneOrFail(User, { id: first.user!.uuid }, { populate: ["passwordHash"] });
    expect(user.passwordHash).toBe(NO_PASSWORD_HASH);
    // The code is single-use.
    expect((await connectErrorOf(verify(code))).code).toBe(Code.PermissionDenied);

    // Later, a new code signs in to the same account.
    await h.orm.em.fork().nativeUpdate(MobileCode, { phoneNumber: phone }, { sentAt: new Date(0) });
    await h.rpc.sendMobileCode({ phoneNumber: phone }, h.ctx("sendMobileCode", undefined, headers));
    const second = await verify(await lastCode(phone));
    expect(second.created).toBe(false);
    expect(second.user!.uuid).toBe(first.user!.uuid);
    const records = await h.rpc.adminListPhoneNumbers(
      { query: { filter: [`phoneNumber||$eq||${phone}`] } },
      h.ctx("adminListPhoneNumbers", admin),
    );
    expect(records.data[0]).toMatchObject({ userUuid: first.user!.uuid, validationStatus: "VALID", countryCode: "" });
    expect(records.data[0]!.verifiedAt).toBeDefined();
  });

  it("refuses a second code before the resend interval with 429 and retry-after", async () => {
    const phone = freshNumber();
    await h.rpc.sendMobileCode({ phoneNumber: phone }, h.ctx("sendMobileCode", undefined, freshIp()));
    const again = () => h.rpc.sendMobileCode({ phoneNumber: phone }, h.ctx("sendMobileCode", undefined, freshIp()));
    expect(await connectErrorOf(again())).toEqual({
      code: Code.ResourceExhausted,
      message: RESEND_TOO_SOON,
    });
    expect(await retryAfterOf(again())).toBeGreaterThan(0);
  });

  it("voids a code after too many wrong tries", async () => {
    const phone = freshNumber();
    const headers = freshIp();
    await h.rpc.sendMobileCode({ phoneNumber: phone }, h.ctx("sendMobileCode", undefined, headers));
    const code = await lastCode(phone);
    const verify = (c: string) =>
      h.rpc.verifyMobileCode({ phoneNumber: phone, code: c }, h.ctx("verifyMobileCode", undefined, headers));
    for (let i = 0; i < 5; i++) expect((await connectErrorOf(verify(wrong(code)))).code).toBe(Code.PermissionDenied);
    expect(await connectErrorOf(verify(code))).toEqual({ code: Code.ResourceExhausted, message: TOO_MANY_ATTEMPTS });
  });

  it("throttles codes per client address and per number", async () => {
    const headers = freshIp();
    for (let i = 0; i < 4; i++) {
      await h.rpc.sendMobileCode({ phoneNumber: freshNumber() }, h.ctx("sendMobileCode", undefined, headers));
    }
    const thrown = await h.rpc
      .sendMobileCode({ phoneNumber: freshNumber() }, h.ctx("sendMobileCode", undefined, headers))
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(ConnectError);
    expect((thrown as ConnectError).code).toBe(Code.ResourceExhausted);
    expect(Number((thrown as ConnectError).metadata.get("retry-after"))).toBeGreaterThan(3500);

    const phone = freshNumber();
    for (let i = 0; i < 3; i++) {
      await h.orm.em.fork().nativeUpdate(MobileCode, { phoneNumber: phone }, { sentAt: new Date(0) });
      await h.rpc.sendMobileCode({ phoneNumber: phone }, h.ctx("sendMobileCode", undefined, freshIp()));
    }
    await h.orm.em.fork().nativeUpdate(MobileCode, { phoneNumber: phone }, { sentAt: new Date(0) });
    expect(
      (
        await connectErrorOf(
          h.rpc.sendMobileCode({ phoneNumber: phone }, h.ctx("sendMobileCode", undefined, freshIp())),
        )
      ).code,
    ).toBe(Code.ResourceExhausted);
  });

  it("lets a whitelisted number skip the VoIP check", async () => {
    const res = await h.rpc.whitelistPhoneNumber(
      { phoneNumber: VOIP, note: "reviewer" },
      h.ctx("whitelistPhoneNumber", admin),
    );
    expect(res.phoneNumber).toMatchObject({ phoneNumber: VOIP, whitelisted: true, note: "reviewer" });
    await h.rpc.sendMobileCode({ phoneNumber: VOIP }, h.ctx("sendMobileCode", undefined, freshIp()));
    expect(await lastCode(VOIP)).toMatch(/^\d{6}$/);

    await h.rpc.unwhitelistPhoneNumber({ id: res.phoneNumber!.id }, h.ctx("unwhitelistPhoneNumber", admin));
    await h.orm.em.fork().nativeUpdate(MobileCode, { phoneNumber: VOIP }, { sentAt: new Date(0) });
    expect(
      await connectErrorOf(h.rpc.sendMobileCode({ phoneNumber: VOIP }, h.ctx("sendMobileCode", undefined, freshIp()))),
    ).toEqual({ code: Code.InvalidArgument, message: INVALID_PHONE_NUMBER });
    expect(
      await connectErrorOf(h.rpc.unwhitelistPhoneNumber({ id: "nope" }, h.ctx("unwhitelistPhoneNumber", admin))),
    ).toEqual({ code: Code.NotFound, message: PHONE_NUMBER_NOT_FOUND });
    expect(
      (await connectErrorOf(h.rpc.whitelistPhoneNumber({ phoneNumber: "abc" }, h.ctx("whitelistPhoneNumber", admin))))
        .code,
    ).toBe(Code.InvalidArgument);
  });
});

describe("Login throttle", () => {
  it("refuses logins of one account from one address over the limit with 429 and retry-after", async () => {
    const headers = freshIp();
    const login = (password: string) =>
      h.rpc.login({ email: "dora@example.org", password }, h.ctx("login", undefined, headers));
    await signUp("dora@example.org");
    for (let i = 0; i < 3; i++) expect((await connectErrorOf(login("wrong password"))).code).toBe(Code.Unauthenticated);
    const err = await connectErrorOf(
      h.rpc.login({ email: "Dora@example.org", password: "long enough" }, h.ctx("login", undefined, headers)),
    );
    expect(err.code).toBe(Code.ResourceExhausted);
    // retry-after travels as error metadata: Connect sends it as a response header, the gateway forwards it.
    const thrown = await login("long enough").catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(ConnectError);
    expect(Number((thrown as ConnectError).metadata.get("retry-after"))).toBeGreaterThan(0);
    // Another address is not refused: a stranger cannot lock the owner out (login-throttle.test.ts has more).
    await expect(
      h.rpc.login({ email: "dora@example.org", password: "long enough" }, h.ctx("login", undefined, freshIp())),
    ).resolves.toMatchObject({ user: { email: "dora@example.org" } });
  });

  it("refuses logins over the per-address limit, whatever the account", async () => {
    const headers = freshIp();
    for (let i = 0; i < 5; i++) {
      const err = await connectErrorOf(
        h.rpc.login({ email: `ghost${i}@example.org`, password: "x" }, h.ctx("login", undefined, headers)),
      );
      expect(err.code).toBe(Code.Unauthenticated);
    }
    const err = await connectErrorOf(
      h.rpc.login({ email: "ann@example.org", password: "long enough" }, h.ctx("login", undefined, headers)),
    );
    expect(err.code).toBe(Code.ResourceExhausted);
  });
});

describe("Phone validation", () => {
  it("validates through the recents, lists them newest first and clears them", async () => {
    await h.rpc.clearRecentPhoneValidations({}, h.ctx("clearRecentPhoneValidations", admin));
    const phone = freshNumber();
    const res = await h.rpc.validatePhoneNumber({ phone }, h.ctx("validatePhoneNumber", admin));
    expect(res.validation).toMatchObject({ phoneNumber: phone, status: "VALID", carrierType: "mobile" });
    const voip = await h.rpc.validatePhoneNumber({ phone: VOIP }, h.ctx("validatePhoneNumber", admin));
    expect(voip.validation!.status).toBe("VOIP");
    const again = await h.rpc.validatePhoneNumber({ phone }, h.ctx("validatePhoneNumber", admin));
    // The cached outcome, not a new lookup.
    expect(again.validation!.validatedAt).toEqual(res.validation!.validatedAt);

    const recents = await h.rpc.listRecentPhoneValidations({}, h.ctx("listRecentPhoneValidations", admin));
    expect(recents.validations[0]!.phoneNumber).toBe(VOIP);
    expect(recents.validations.map((v) => v.phoneNumber)).toContain(phone);
    const one = await h.rpc.listRecentPhoneValidations({ limit: 1 }, h.ctx("listRecentPhoneValidations", admin));
    expect(one.validations).toHaveLength(1);
    expect(
      (
        await connectErrorOf(
          h.rpc.listRecentPhoneValidations({ limit: 501 }, h.ctx("listRecentPhoneValidations", admin)),
        )
      ).code,
    ).toBe(Code.InvalidArgument);
    const cleared = await h.rpc.clearRecentPhoneValidations({}, h.ctx("clearRecentPhoneValidations", admin));
    expect(cleared.removed).toBe(recents.validations.length);
    expect(
      (await h.rpc.listRecentPhoneValidations({}, h.ctx("listRecentPhoneValidations", admin))).validations,
    ).toEqual([]);
  });

  it("issue 23 finding 12: an unreadable number is the INVALID outcome (spec 000 §3/§4), not a 400, and no recent", async () => {
    await h.rpc.clearRecentPhoneValidations({}, h.ctx("clearRecentPhoneValidations", admin));
    for (const phone of ["call me", "12345", "+0123456789"]) {
      const res = await h.rpc.validatePhoneNumber({ phone }, h.ctx("validatePhoneNumber", admin));
      expect(res.validation, phone).toMatchObject({ phoneNumber: phone, status: "INVALID", carrierType: "" });
      expect(res.validation!.validatedAt, phone).toBeDefined();
    }
    // Nothing was looked up, so there is nothing to reuse: the recents keep E.164 numbers only.
    expect(
      (await h.rpc.listRecentPhoneValidations({}, h.ctx("listRecentPhoneValidations", admin))).validations,
    ).toEqual([]);
  });

  it("serves the fraud constants from the configuration", async () => {
    const { fraudConstants } = await h.rpc.getFraudConstants({}, h.ctx("getFraudConstants", admin));
    expect(fraudConstants).toMatchObject({
      codeTtlSeconds: 600,
      minResendIntervalSeconds: 60,
      maxCodesPerNumberPerHour: 3,
      maxCodesPerIpPerHour: 4,
      maxVerifyAttempts: 5,
      validationCacheSeconds: 86400,
      blockedCarrierTypes: ["landline"],
      allowedCountryCodes: [],
    });
  });
});

describe("Admin phone numbers", () => {
  it("creates, reads, lists, updates and deletes a record", async () => {
    const created = await h.rpc.adminCreatePhoneNumber(
      { phoneNumber: "+44 (0)20 7946 0000".replace("(0)", ""), userUuid: annId, note: "office" },
      h.ctx("adminCreatePhoneNumber", admin),
    );
    const record = created.phoneNumber!;
    expect(record).toMatchObject({ phoneNumber: "+442079460000", userUuid: annId, whitelisted: false, note: "office" });

    expect(
      await connectErrorOf(
        h.rpc.adminCreatePhoneNumber({ phoneNumber: "+442079460000" }, h.ctx("adminCreatePhoneNumber", admin)),
      ),
    ).toEqual({ code: Code.AlreadyExists, message: PHONE_NUMBER_EXISTS });
    expect(
      (await connectErrorOf(h.rpc.adminCreatePhoneNumber({ phoneNumber: "0" }, h.ctx("adminCreatePhoneNumber", admin))))
        .code,
    ).toBe(Code.InvalidArgument);
    expect(
      await connectErrorOf(
        h.rpc.adminCreatePhoneNumber(
          { phoneNumber: "+442079460001", userUuid: "6b3c1e7e-0000-4000-8000-000000000000" },
          h.ctx("adminCreatePhoneNumber", admin),
        ),
      ),
    ).toEqual({ code: Code.InvalidArgument, message: UNKNOWN_ACCOUNT });

    const got = await h.rpc.adminGetPhoneNumber({ id: record.id }, h.ctx("adminGetPhoneNumber", admin));
    expect(got.phoneNumber).toEqual(record);
    const listed = await h.rpc.adminListPhoneNumbers(
      { query: { filter: [`userUuid||$eq||${annId}`], fields: "phoneNumber" } },
      h.ctx("adminListPhoneNumbers", admin),
    );
    expect(listed).toMatchObject({ count: 1, total: 1, page: 1, pageCount: 1 });
    expect(listed.data[0]).toMatchObject({ phoneNumber: "+442079460000", note: "" });

    const updated = await h.rpc.adminUpdatePhoneNumber(
      { id: record.id, whitelisted: true, userUuid: "" },
      h.ctx("adminUpdatePhoneNumber", admin),
    );
    expect(updated.phoneNumber).toMatchObject({
      phoneNumber: "+442079460000",
      userUuid: "",
      whitelisted: true,
      note: "office",
    });
    const moved = await h.rpc.adminUpdatePhoneNumber(
      { id: record.id, phoneNumber: "+442079460002" },
      h.ctx("adminUpdatePhoneNumber", admin),
    );
    expect(moved.phoneNumber!.phoneNumber).toBe("+442079460002");
    await h.rpc.whitelistPhoneNumber({ phoneNumber: "+442079460003" }, h.ctx("whitelistPhoneNumber", admin));
    expect(
      await connectErrorOf(
        h.rpc.adminUpdatePhoneNumber(
          { id: record.id, phoneNumber: "+442079460003" },
          h.ctx("adminUpdatePhoneNumber", admin),
        ),
      ),
    ).toEqual({ code: Code.AlreadyExists, message: PHONE_NUMBER_EXISTS });

    await h.rpc.adminDeletePhoneNumber({ id: record.id }, h.ctx("adminDeletePhoneNumber", admin));
    for (const method of ["adminGetPhoneNumber", "adminDeletePhoneNumber"] as const) {
      expect(await connectErrorOf(h.rpc[method]({ id: record.id }, h.ctx(method, admin)))).toEqual({
        code: Code.NotFound,
        message: PHONE_NUMBER_NOT_FOUND,
      });
    }
    expect(
      (
        await connectErrorOf(
          h.rpc.adminUpdatePhoneNumber({ id: "x", note: "n" }, h.ctx("adminUpdatePhoneNumber", admin)),
        )
      ).code,
    ).toBe(Code.NotFound);
  });
});

describe("ListDevOutbox", () => {
  it("lists what the development senders kept, newest first, by recipient and limit", async () => {
    const all = await h.rpc.listDevOutbox({}, h.ctx("listDevOutbox", admin));
    expect(all.messages.length).toBeGreaterThan(3);
    const times = all.messages.map((m) => timestampDate(m.createdAt!).getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const toAnn = await h.rpc.listDevOutbox({ to: "ann.work@example.org" }, h.ctx("listDevOutbox", admin));
    expect(toAnn.messages.length).toBeGreaterThan(0);
    expect(toAnn.messages.every((m) => m.to === "ann.work@example.org" && m.channel === "email")).toBe(true);
    expect(toAnn.messages[0]!.subject).not.toBe("");
    expect((await h.rpc.listDevOutbox({ limit: 2 }, h.ctx("listDevOutbox", admin))).messages).toHaveLength(2);
    expect((await connectErrorOf(h.rpc.listDevOutbox({ limit: 501 }, h.ctx("listDevOutbox", admin)))).code).toBe(
      Code.InvalidArgument,
    );
  });

  it("answers 404 when real e-mail and SMS providers are configured", async () => {
    const env = {
      SMTP_URL: "smtp://user:pass@127.0.0.1:2525",
      EMAIL_FROM: "Turntable <no-reply@example.org>",
      SMS_ACCOUNT_SID: "AC1",
      SMS_AUTH_TOKEN: "token",
      SMS_FROM: "+15005550006",
    };
    const real = await createUserHarness(inject("databaseUrl"), env);
    try {
      expect(
        await connectErrorOf(real.rpc.listDevOutbox({ to: "", limit: 0 }, real.ctx("listDevOutbox", admin))),
      ).toEqual({
        code: Code.NotFound,
        message: DEV_OUTBOX_OFF,
      });
    } finally {
      await real.close();
    }
  });
});
