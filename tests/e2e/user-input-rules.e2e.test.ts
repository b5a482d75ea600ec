// The kit's input rules seen from outside (issue 9 defects 3 and 4): a NUL byte or an over-long string in
// any request field is a 400 naming the field, over REST and over Connect on the gateway port, never the
// 500 PostgreSQL's refusal used to become. Runs in both modes (the e2e-distributed project), so the rule
// holds where the service is its own process too.
import { beforeAll, describe, expect, it } from "vitest";
import { sharedPlatform, u, type TestPlatform } from "./support/platform.ts";

let platform: TestPlatform;
let admin: string;
let user: string;

beforeAll(async () => {
  platform = await sharedPlatform();
  admin = await platform.adminToken();
  user = (await platform.signUp()).token;
});

const NUL = "\u0000";

/** Expects the REST error body of a 400 with this message. */
function expect400(answer: { status: number; body: Record<string, unknown> }, message: string) {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status: 400,
    body: { statusCode: 400, error: "Bad Request", message },
  });
}

describe("issue 9 defect 3: a NUL byte in a string field is a 400 naming the field", () => {
  it("issue 9 defect 3: login e-mail", async () => {
    const res = await platform.call("POST", u("/auth/login"), {
      body: { email: `ann${NUL}@example.test`, password: "correct-horse-1" },
    });
    expect400(res, "email must not contain control characters");
  });

  it("issue 9 defect 3: bot nickname and avatar id", async () => {
    const sign = (body: Record<string, string>) =>
      platform.call("POST", u("/users/sign-up-bot"), { token: user, body });
    expect400(await sign({ nickname: `bot${NUL}` }), "nickname must not contain control characters");
    expect400(await sign({ nickname: "bot", avatarId: `a${NUL}` }), "avatarId must not contain control characters");
  });

  it("issue 9 defect 3: confirm-email", async () => {
    const res = await platform.call("POST", u("/users/confirm-email"), {
      body: { email: `ann${NUL}@example.test`, code: "123456" },
    });
    expect400(res, "email must not contain control characters");
  });

  it("issue 9 defect 3: deactivation reason", async () => {
    const res = await platform.call("POST", u("/users/request-deactivate"), {
      token: user,
      body: { reason: `leaving${NUL}` },
    });
    expect400(res, "reason must not contain control characters");
  });

  it("issue 9 defect 3: voucher note and code", async () => {
    const create = (body: Record<string, unknown>) => platform.call("POST", u("/vouchers"), { token: admin, body });
    expect400(await create({ code: `C${NUL}DE`, note: "n" }), "code must not contain control characters");
    expect400(await create({ code: "CODE-1", note: `n${NUL}` }), "note must not contain control characters");
    const redeem = await platform.call("PATCH", u("/vouchers/redeem"), { token: user, body: { code: `C${NUL}` } });
    expect400(redeem, "code must not contain control characters");
  });

  it("issue 9 defect 3: dev outbox `to`", async () => {
    const res = await platform.call("GET", u(`/dev/outbox?to=${encodeURIComponent(`a${NUL}@b.c`)}`), { token: admin });
    expect400(res, "to must not contain control characters");
  });

  it("issue 9 defect 3: other control characters and path parameters too; tab and newline pass", async () => {
    const res = await platform.call("GET", u(`/profile/${encodeURIComponent(`a${NUL}`)}`), { token: user });
    expect400(res, "id must not contain control characters");
    const escape = await platform.call("POST", u("/users/request-deactivate"), {
      token: user,
      body: { reason: "\u001b[2J" },
    });
    expect400(escape, "reason must not contain control characters");
    const multiline = await platform.call("POST", u("/users/request-deactivate"), {
      token: user,
      body: { reason: "line one\n\tline two" },
    });
    expect(multiline.status).toBe(200);
  });

  it("issue 9 defect 3: over Connect on the gateway port as well", async () => {
    const res = await fetch(`${platform.url}/tt.user.v1.AuthService/Login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `ann${NUL}@example.test`, password: "correct-horse-1" }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: "invalid_argument",
      message: "email must not contain control characters",
    });
  });

  it("a caller who may not call the method gets 401, whatever its input", async () => {
    const res = await platform.call("POST", u("/users/request-deactivate"), { body: { reason: `x${NUL}` } });
    expect(res.status).toBe(401);
  });
});

describe("issue 9 defect 4: every string has a declared maximum, checked before any query", () => {
  it("issue 9 defect 4: a 500-character login e-mail is a 400 naming email", async () => {
    const email = `${"a".repeat(488)}@example.org`;
    expect(email).toHaveLength(500);
    const res = await platform.call("POST", u("/auth/login"), { body: { email, password: "correct-horse-1" } });
    expect400(res, "email must be at most 320 characters long");
  });

  it("issue 9 defect 4: a string at its limit reaches the handler, one character more does not", async () => {
    const at = await platform.call("POST", u("/users/request-deactivate"), {
      token: await platform.signUp().then((s) => s.token),
      body: { reason: "r".repeat(1000) },
    });
    expect(at.status).toBe(200);
    const over = await platform.call("POST", u("/users/request-deactivate"), {
      token: user,
      body: { reason: "r".repeat(1001) },
    });
    expect400(over, "reason must be at most 1000 characters long");
  });

  it("issue 9 defect 4: the limits are listed in /openapi.json", async () => {
    const doc = (await platform.call("GET", "/openapi.json")).body as {
      components: { schemas: Record<string, { properties: Record<string, { maxLength?: number }> }> };
    };
    expect(doc.components.schemas["tt.user.v1.LoginRequest"]?.properties.email).toMatchObject({ maxLength: 320 });
  });
});

describe("issue 10: declared field rules (uuid, in, gte/lte) are enforced before the handler and listed", () => {
  it("issue 10: a malformed uuid in a path is a 400 naming the field", async () => {
    expect400(await platform.call("GET", u("/admin/users/not-a-uuid"), { token: admin }), "id must be a uuid");
    expect400(await platform.call("DELETE", u("/vouchers/123"), { token: admin }), "id must be a uuid");
  });

  it("issue 10: a role outside the list and a limit outside its range are 400s", async () => {
    const signUp = await platform.call("POST", u("/users/admin/sign-up"), {
      token: admin,
      body: { email: "rules@example.test", password: "correct-horse-battery-9", role: "root" },
    });
    expect400(signUp, "role must be one of globalModerator, admin, moderator, staff, promoter, user, bot");
    expect400(
      await platform.call("GET", u("/phone-validation/recents?limit=501"), { token: admin }),
      "limit must be between 1 and 500",
    );
    const ok = await platform.call("GET", u("/phone-validation/recents?limit=500"), { token: admin });
    expect(ok.status).toBe(200);
  });

  it("issue 10: the rules are listed in /openapi.json", async () => {
    const doc = (await platform.call("GET", "/openapi.json")).body as {
      paths: Record<string, Record<string, { parameters: Array<{ name: string; schema: Record<string, unknown> }> }>>;
      components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
    };
    const param = (path: string, name: string) => doc.paths[path]?.get?.parameters.find((p) => p.name === name)?.schema;
    expect(param("/api/user-service/admin/users/{id}", "id")).toEqual({
      type: "string",
      maxLength: 36,
      format: "uuid",
    });
    expect(param("/api/user-service/phone-validation/recents", "limit")).toMatchObject({ minimum: 1, maximum: 500 });
    expect(doc.components.schemas["tt.user.v1.AdminSignUpRequest"]?.properties.role).toMatchObject({
      enum: ["globalModerator", "admin", "moderator", "staff", "promoter", "user", "bot"],
    });
  });
});
