// The moderation area over REST through the gateway (all-in-one): every path's success case and each
// documented error, with moderators made the way staff make them (an admin gives the role, the user signs in
// again and the new token carries it).
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedPlatform, u, type CallOptions, type TestPlatform } from "./support/platform.ts";

const PASSWORD = "correct-horse-1";

let platform: TestPlatform;
let admin: string;
const call = (method: string, path: string, opts?: CallOptions) => platform.call(method, path, opts);

interface Member {
  uuid: string;
  email: string;
  token: string;
}

/** A new account; with `role`, given by the admin over REST, and a fresh token that carries it. */
async function member(role?: string): Promise<Member> {
  const email = `${randomUUID()}@example.test`;
  const { user, token } = await platform.signUp(email, PASSWORD);
  if (!role) return { uuid: user.uuid, email, token };
  const res = await call("POST", u("/users/add-role"), { token: admin, body: { uuid: user.uuid, role } });
  expect(res.status).toBe(200);
  return { uuid: user.uuid, email, token: await platform.login(email, PASSWORD) };
}

const login = (email: string) => call("POST", u("/auth/login"), { body: { email, password: PASSWORD } });

beforeAll(async () => {
  platform = await sharedPlatform();
  admin = await platform.adminToken();
});

describe("moderation over REST", () => {
  it("refuses plain users and guests with 401 on every moderation path", async () => {
    const user = await member();
    const guest = ((await call("GET", u("/auth/guest"))).body.accessToken as { token: string }).token;
    const id = randomUUID();
    const paths: Array<[string, string, unknown?]> = [
      ["POST", "/users/kick", { uuid: id }],
      ["POST", "/users/ban", { uuid: id }],
      ["POST", "/users/temporary-ban", { uuid: id, duration: "60s" }],
      ["POST", "/users/unban", { uuid: id }],
      ["POST", "/users/add-role", { uuid: id, role: "user" }],
      ["POST", "/users/add-global-moderator-role", { uuid: id }],
      ["POST", "/users/cancel-requested-deactivate", { uuid: id }],
      ["PUT", `/users/${id}/capabilities/uploadMusic`, {}],
      ["DELETE", `/users/${id}/capabilities/uploadMusic`],
      ["POST", "/moderation-comments", { userUuid: id, comment: "x" }],
      ["GET", `/moderation-comments/${id}`],
      ["GET", "/users/list-deactivate"],
      ["DELETE", `/users/deactivate/${id}`],
      ["POST", `/users/reactivate/${id}`, {}],
    ];
    for (const token of [user.token, guest, undefined]) {
      for (const [method, path, body] of paths) {
        const res = await call(method, u(path), { token, body });
        expect(res.status, `${method} ${path}`).toBe(401);
      }
    }
    const moderator = await member("moderator");
    for (const [method, path] of [
      ["GET", "/users/list-deactivate"],
      ["DELETE", `/users/deactivate/${id}`],
      ["POST", `/users/reactivate/${id}`],
    ] as const) {
      const res = await call(method, u(path), { token: moderator.token, body: method === "POST" ? {} : undefined });
      expect(res.status, `${method} ${path} as moderator`).toBe(401);
    }
    expect((await call("POST", u("/users/request-deactivate"), { token: guest, body: {} })).status).toBe(401);
  });

  it("POST /users/ban: the banned user's token is refused on the next call and sign-in answers 401", async () => {
    const moderator = await member("moderator");
    const target = await member();
    expect((await call("GET", u("/auth/session"), { token: target.token })).status).toBe(200);
    const res = await call("POST", u("/users/ban"), {
      token: moderator.token,
      body: { uuid: target.uuid, reason: "spam" },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ uuid: target.uuid, ban: { reason: "spam", bannedByUuid: moderator.uuid } });
    const next = await call("GET", u("/auth/session"), { token: target.token });
    expect(next.status).toBe(401);
    const again = await login(target.email);
    expect(again).toMatchObject({ status: 401, body: { statusCode: 401, message: "this account is banned" } });
  });

  it("POST /users/ban: 404 'user profile not found', 403 on an equal rank, 400 on a long reason", async () => {
    const moderator = await member("moderator");
    const peer = await member("moderator");
    const target = await member();
    const missing = await call("POST", u("/users/ban"), { token: moderator.token, body: { uuid: randomUUID() } });
    expect(missing).toMatchObject({ status: 404, body: { message: "user profile not found", error: "Not Found" } });
    const peerBan = await call("POST", u("/users/ban"), { token: moderator.token, body: { uuid: peer.uuid } });
    expect(peerBan).toMatchObject({
      status: 403,
      body: { message: "you may not act on an account of equal or higher rank" },
    });
    const long = await call("POST", u("/users/ban"), {
      token: moderator.token,
      body: { uuid: target.uuid, reason: "x".repeat(1001) },
    });
    expect(long.status).toBe(400);
  });

  it("POST /users/temporary-ban: by duration or until; 400 for neither, both, past or beyond a year; 404", async () => {
    const moderator = await member("moderator");
    const target = await member();
    const res = await call("POST", u("/users/temporary-ban"), {
      token: moderator.token,
      body: { uuid: target.uuid, reason: "cool off", duration: "3600s" },
    });
    expect(res.status).toBe(200);
    const endsAt = (res.body.user as { ban: { endsAt: string } }).ban.endsAt;
    expect(Date.parse(endsAt) - Date.now()).toBeGreaterThan(3500_000);
    expect((await call("GET", u("/auth/session"), { token: target.token })).status).toBe(401);
    const refused = await login(target.email);
    expect(refused).toMatchObject({ status: 401, body: { message: `this account is banned until ${endsAt}` } });

    const until = new Date(Date.now() + 86_400_000).toISOString();
    const byUntil = await call("POST", u("/users/temporary-ban"), {
      token: moderator.token,
      body: { uuid: target.uuid, until },
    });
    expect(byUntil.status).toBe(200);
    for (const body of [
      { uuid: target.uuid },
      { uuid: target.uuid, duration: "60s", until },
      { uuid: target.uuid, until: new Date(Date.now() - 60_000).toISOString() },
      { uuid: target.uuid, duration: `${366 * 86_400}s` },
    ]) {
      const bad = await call("POST", u("/users/temporary-ban"), { token: moderator.token, body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
    const missing = await call("POST", u("/users/temporary-ban"), {
      token: moderator.token,
      body: { uuid: randomUUID(), duration: "60s" },
    });
    expect(missing).toMatchObject({ status: 404, body: { message: "user profile not found" } });
  });

  it("POST /users/unban: lifts the ban so the user signs in again; unbanning twice changes nothing; 404", async () => {
    const moderator = await member("globalModerator");
    const target = await member();
    expect((await call("POST", u("/users/ban"), { token: moderator.token, body: { uuid: target.uuid } })).status).toBe(
      200,
    );
    for (let i = 0; i < 2; i++) {
      const res = await call("POST", u("/users/unban"), { token: moderator.token, body: { uuid: target.uuid } });
      expect(res.status).toBe(200);
      expect((res.body.user as { ban?: unknown }).ban).toBeUndefined();
    }
    expect((await login(target.email)).status).toBe(200);
    const missing = await call("POST", u("/users/unban"), { token: moderator.token, body: { uuid: randomUUID() } });
    expect(missing).toMatchObject({ status: 404, body: { message: "user profile not found" } });
  });

  it("POST /users/kick: the token is refused at once, the account may sign in again; 404; 403", async () => {
    const moderator = await member("moderator");
    const target = await member();
    const res = await call("POST", u("/users/kick"), {
      token: moderator.token,
      body: { uuid: target.uuid, reason: "flooding" },
    });
    expect(res).toMatchObject({ status: 200, body: {} });
    expect((await call("GET", u("/auth/session"), { token: target.token })).status).toBe(401);
    expect((await login(target.email)).status).toBe(200);
    const missing = await call("POST", u("/users/kick"), { token: moderator.token, body: { uuid: "not-a-uuid" } });
    expect(missing).toMatchObject({ status: 404, body: { message: "user profile not found" } });
    const adminAccount = (await call("GET", u("/auth/session"), { token: admin })).body.user as { uuid: string };
    const up = await call("POST", u("/users/kick"), { token: moderator.token, body: { uuid: adminAccount.uuid } });
    expect(up.status).toBe(403);
  });

  it("POST /users/add-role: sets the role (the next token carries it); 400, 403 'this user already has this role', 403 above own, 404", async () => {
    const globalModerator = await member("globalModerator");
    const target = await member();
    const res = await call("POST", u("/users/add-role"), {
      token: globalModerator.token,
      body: { uuid: target.uuid, role: "moderator" },
    });
    expect(res).toMatchObject({ status: 200, body: { user: { uuid: target.uuid, role: "moderator" } } });
    // The old token carried the old role: it is refused, and a new sign-in carries the new one.
    expect((await call("GET", u("/auth/session"), { token: target.token })).status).toBe(401);
    const fresh = await platform.login(target.email, PASSWORD);
    expect((await call("GET", u("/auth/session"), { token: fresh })).body).toMatchObject({ role: "moderator" });

    const add = (role: string, uuid = target.uuid) =>
      call("POST", u("/users/add-role"), { token: globalModerator.token, body: { uuid, role } });
    expect((await add("emperor")).status).toBe(400);
    expect(await add("moderator")).toMatchObject({ status: 403, body: { message: "this user already has this role" } });
    expect(await add("admin")).toMatchObject({
      status: 403,
      body: { message: "you may not give a role at or above your own" },
    });
    expect(await add("user", randomUUID())).toMatchObject({ status: 404, body: { message: "user profile not found" } });
  });

  it("POST /users/add-global-moderator-role: above moderator only; 403 'this user already has this role'; 404", async () => {
    const staff = await member("staff");
    const moderator = await member("moderator");
    const target = await member();
    const path = u("/users/add-global-moderator-role");
    expect((await call("POST", path, { token: moderator.token, body: { uuid: target.uuid } })).status).toBe(403);
    const res = await call("POST", path, { token: staff.token, body: { uuid: target.uuid } });
    expect(res).toMatchObject({ status: 200, body: { user: { role: "globalModerator" } } });
    expect(await call("POST", path, { token: staff.token, body: { uuid: target.uuid } })).toMatchObject({
      status: 403,
      body: { message: "this user already has this role" },
    });
    expect(await call("POST", path, { token: staff.token, body: { uuid: randomUUID() } })).toMatchObject({
      status: 404,
      body: { message: "user profile not found" },
    });
  });

  it("PUT and DELETE /users/{id}/capabilities/{capability}: 403 'this user already has this role', 400, 404", async () => {
    const moderator = await member("moderator");
    const target = await member();
    const put = (capability: string, id = target.uuid) =>
      call("PUT", u(`/users/${id}/capabilities/${capability}`), { token: moderator.token, body: {} });
    const del = (capability: string, id = target.uuid) =>
      call("DELETE", u(`/users/${id}/capabilities/${capability}`), { token: moderator.token });
    expect(await put("uploadMusic")).toMatchObject({ status: 200, body: { capabilities: ["uploadMusic"] } });
    expect(await put("uploadMusic")).toMatchObject({
      status: 403,
      body: { statusCode: 403, message: "this user already has this role", error: "Forbidden" },
    });
    expect((await put("flying")).status).toBe(400);
    expect(await put("promoteRoom", randomUUID())).toMatchObject({
      status: 404,
      body: { message: "user profile not found" },
    });
    expect(await del("uploadMusic")).toMatchObject({ status: 200, body: { capabilities: [] } });
    expect(await del("uploadMusic")).toMatchObject({ status: 200, body: { capabilities: [] } });
    expect((await del("flying")).status).toBe(400);
    expect((await del("uploadMusic", randomUUID())).status).toBe(404);
  });

  it("POST /moderation-comments and GET /moderation-comments/{id}: newest first; 400 empty or long; 404", async () => {
    const moderator = await member("moderator");
    const target = await member();
    const post = (comment: string, userUuid = target.uuid) =>
      call("POST", u("/moderation-comments"), { token: moderator.token, body: { userUuid, comment } });
    const first = await post("first note");
    expect(first).toMatchObject({
      status: 200,
      body: { userUuid: target.uuid, authorUuid: moderator.uuid, comment: "first note" },
    });
    expect((await post("second note")).status).toBe(200);
    const list = await call("GET", u(`/moderation-comments/${target.uuid}`), { token: moderator.token });
    expect(list.status).toBe(200);
    expect((list.body.comments as Array<{ comment: string }>).map((c) => c.comment)).toEqual([
      "second note",
      "first note",
    ]);
    expect((await post("   ")).status).toBe(400);
    expect((await post("x".repeat(2001))).status).toBe(400);
    expect(await post("note", randomUUID())).toMatchObject({
      status: 404,
      body: { message: "user profile not found" },
    });
    const missing = await call("GET", u(`/moderation-comments/${randomUUID()}`), { token: moderator.token });
    expect(missing.status).toBe(404);
  });

  it("deactivation: request, list, cancel (404 when none), deactivate (token refused, sign-in 401), reactivate", async () => {
    const staff = await member("staff");
    const moderator = await member("moderator");
    const target = await member();
    const request = await call("POST", u("/users/request-deactivate"), {
      token: target.token,
      body: { reason: "taking a break" },
    });
    expect(request).toMatchObject({
      status: 200,
      body: { uuid: target.uuid, email: target.email, reason: "taking a break" },
    });
    const list = await call("GET", u("/users/list-deactivate"), { token: staff.token });
    expect(list.status).toBe(200);
    expect((list.body.requests as Array<{ uuid: string }>).map((r) => r.uuid)).toContain(target.uuid);

    const cancel = () =>
      call("POST", u("/users/cancel-requested-deactivate"), { token: moderator.token, body: { uuid: target.uuid } });
    expect((await cancel()).status).toBe(200);
    expect(await cancel()).toMatchObject({ status: 404, body: { message: "no pending deactivation request" } });
    const cancelMissing = await call("POST", u("/users/cancel-requested-deactivate"), {
      token: moderator.token,
      body: { uuid: randomUUID() },
    });
    expect(cancelMissing).toMatchObject({ status: 404, body: { message: "user profile not found" } });

    const deactivated = await call("DELETE", u(`/users/deactivate/${target.uuid}`), { token: staff.token });
    expect(deactivated.status).toBe(200);
    expect((deactivated.body.user as { deactivatedAt?: string }).deactivatedAt).toBeDefined();
    expect((await call("GET", u("/auth/session"), { token: target.token })).status).toBe(401);
    expect(await login(target.email)).toMatchObject({
      status: 401,
      body: { message: "this account is deactivated" },
    });
    // The profile is hidden from public reads until reactivation; other services still see it.
    const publicRead = await call("GET", u(`/profile/${target.uuid}`), { token: staff.token });
    expect(publicRead).toMatchObject({ status: 404, body: { message: "user profile not found" } });
    const batch = await call("GET", u(`/users/profiles?users=${target.uuid}&users=${staff.uuid}`), {
      token: staff.token,
    });
    expect((batch.body.profiles as { uuid: string }[]).map((p) => p.uuid)).toEqual([staff.uuid]);
    const serviceRead = await call("GET", u(`/profile/${target.uuid}/service`), {
      token: await platform.serviceToken(),
    });
    expect(serviceRead.status).toBe(200);
    const missing = await call("DELETE", u(`/users/deactivate/${randomUUID()}`), { token: staff.token });
    expect(missing).toMatchObject({ status: 404, body: { message: "user profile not found" } });

    const reactivated = await call("POST", u(`/users/reactivate/${target.uuid}`), { token: staff.token, body: {} });
    expect(reactivated.status).toBe(200);
    expect((reactivated.body.user as { deactivatedAt?: string }).deactivatedAt).toBeUndefined();
    expect((await login(target.email)).status).toBe(200);
    expect((await call("GET", u(`/profile/${target.uuid}`), { token: staff.token })).status).toBe(200);
    const reMissing = await call("POST", u(`/users/reactivate/${randomUUID()}`), { token: staff.token, body: {} });
    expect(reMissing).toMatchObject({ status: 404, body: { message: "user profile not found" } });
  });
});
