// The audit service's moderation log, user actions, info-admin and geolocation over REST through the gateway:
// the authorization matrix, refusals, and a ban made in the user service that lands in the log once even when
// its event is delivered twice.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createNatsBus, AGGREGATE_ID_HEADER, type Bus, type DurableMessage } from "@tt/kit";
import { sharedPlatform, u, type CallOptions, type TestPlatform } from "./support/platform.ts";
import { eventually } from "@tt/kit/testing";

const a = (path: string) => `/api/audit-service${path}`;

let platform: TestPlatform;
let admin: string;
let bus: Bus;
const call = (method: string, path: string, opts?: CallOptions) => platform.call(method, path, opts);

beforeAll(async () => {
  platform = await sharedPlatform();
  admin = await platform.adminToken();
  bus = await createNatsBus({ url: inject("natsUrl"), name: "audit-e2e", deployment: platform.deploymentName });
});

afterAll(async () => {
  await bus?.close();
});

const logOf = async (userUuid: string) => {
  const res = await call("GET", a(`/moderation-actions?filter=userUuid||$eq||${userUuid}&limit=100`), { token: admin });
  expect(res.status).toBe(200);
  return res.body.data as Array<{ actionType: string; moderatorUuid: string; sourceEventId: string }>;
};

/** The user service's stored UserBanned event about `uuid`, read from its stream by a throwaway consumer. */
async function storedBanEvent(uuid: string): Promise<DurableMessage> {
  let found: DurableMessage | undefined;
  const sub = await bus.consume(
    "TT_USER",
    `audit-e2e-${randomUUID()}`,
    async (m) => {
      if (m.headers[AGGREGATE_ID_HEADER] === uuid) found = m;
    },
    { filterSubject: "tt.user.user.banned" },
  );
  try {
    return await eventually("the UserBanned event in TT_USER", async () => found);
  } finally {
    await sub.unsubscribe();
  }
}

describe("moderation log over REST", () => {
  it("a ban made in the user service appears once in the moderation log even when its event is delivered twice", async () => {
    const { user } = await platform.signUp();
    expect((await call("POST", u("/users/ban"), { token: admin, body: { uuid: user.uuid } })).status).toBe(200);
    const [entry] = await eventually("the ban in the moderation log", async () => {
      const log = await logOf(user.uuid);
      return log.length > 0 ? log : undefined;
    });
    expect(entry).toMatchObject({ actionType: "globalBan" });

    // Deliver the same event (same tt-event-id) a second time, as a redelivery after a lost ack would.
    const event = await storedBanEvent(user.uuid);
    const headers = Object.fromEntries(Object.entries(event.headers).filter(([k]) => !k.startsWith("Nats-")));
    await bus.publishDurable(event.subject, event.data, { headers });
    // A later ban on the same subject is handled after the duplicate by the same in-order consumer.
    const { user: later } = await platform.signUp();
    expect((await call("POST", u("/users/ban"), { token: admin, body: { uuid: later.uuid } })).status).toBe(200);
    await eventually("the later ban", async () => ((await logOf(later.uuid)).length > 0 ? true : undefined));
    const log = await logOf(user.uuid);
    expect(log.filter((e) => e.actionType === "globalBan")).toHaveLength(1);

    const last = await call("GET", a("/info-admin/last-event"), { token: admin });
    expect(last.status).toBe(200);
    expect(last.body.subject).toMatch(/^tt\.(user|room)\./);
  });

  it("manual entries: create, bulk, read, update, delete, with their refusals", async () => {
    const userUuid = randomUUID();
    const created = await call("POST", a("/moderation-actions"), {
      token: admin,
      body: { actionType: "temporaryBan", userUuid, endsAt: "2030-01-01T00:00:00Z", reason: "cool down" },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ actionType: "temporaryBan", userUuid, reason: "cool down" });
    const id = created.body.id as string;
    expect((await call("GET", a(`/moderation-actions/${id}`), { token: admin })).body.id).toBe(id);
    const patched = await call("PATCH", a(`/moderation-actions/${id}`), { token: admin, body: { reason: "calm" } });
    expect(patched.body.reason).toBe("calm");
    const bulk = await call("POST", a("/moderation-actions/bulk"), {
      token: admin,
      body: {
        bulk: [
          { actionType: "globalKick", userUuid },
          { actionType: "grantRole", userUuid, role: "staff" },
        ],
      },
    });
    expect(bulk.status).toBe(200);
    expect((bulk.body.data as unknown[]).length).toBe(2);
    const actions = await call("GET", a(`/user-actions/${userUuid}?limit=10`), { token: admin });
    expect(actions.body.total).toBe(3);
    expect((await call("DELETE", a(`/moderation-actions/${id}`), { token: admin })).status).toBe(200);
    const gone = await call("GET", a(`/moderation-actions/${id}`), { token: admin });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe("moderation action not found");

    const bad = await call("POST", a("/moderation-actions"), { token: admin, body: { actionType: "hug", userUuid } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/actionType/);
    const noUser = await call("POST", a("/moderation-actions"), { token: admin, body: { actionType: "globalKick" } });
    expect(noUser.status).toBe(400);
    expect(noUser.body.message).toBe("userUuid missing in request");
    expect((await call("GET", a("/moderation-actions/not-a-uuid"), { token: admin })).status).toBe(400);
    expect((await call("POST", a("/moderation-actions"), { token: admin, raw: "{" })).status).toBe(400);
    expect((await call("POST", a("/moderation-actions/bulk"), { token: admin, body: {} })).status).toBe(400);
    expect((await call("GET", a("/moderation-actions?limit=-5&sort=nope"), { token: admin })).status).toBe(400);
  });

  it("the authorization matrix", async () => {
    const self = randomUUID();
    const tokens: Record<string, string | undefined> = {
      anonymous: undefined,
      guest: await platform.craft({ typ: "guest", role: "guest" }),
      user: await platform.craft({ sub: self }),
      moderator: await platform.craft({ role: "moderator" }),
      globalModerator: await platform.craft({ role: "globalModerator" }),
      staff: await platform.craft({ role: "staff" }),
      admin,
    };
    const id = randomUUID();
    const entry = { actionType: "globalKick", userUuid: randomUUID() };
    // [method, path, body, who gets past the access check]
    const matrix: Array<[string, string, unknown, string[]]> = [
      ["GET", "/moderation-actions", undefined, ["moderator", "globalModerator", "staff", "admin"]],
      ["GET", `/moderation-actions/${id}`, undefined, ["moderator", "globalModerator", "staff", "admin"]],
      ["POST", "/moderation-actions", entry, ["globalModerator", "admin"]],
      ["POST", "/moderation-actions/bulk", { bulk: [entry] }, ["globalModerator", "admin"]],
      ["PATCH", `/moderation-actions/${id}`, { reason: "x" }, ["globalModerator", "admin"]],
      ["DELETE", `/moderation-actions/${id}`, undefined, ["admin"]],
      ["GET", `/user-actions/${self}`, undefined, ["user", "moderator", "globalModerator", "staff", "admin"]],
      ["GET", "/info-admin/status", undefined, ["staff", "admin"]],
      ["GET", "/info-admin/socket-event-names", undefined, ["staff", "admin"]],
      ["GET", "/info-admin/user-event-names", undefined, ["staff", "admin"]],
      ["GET", "/info-admin/last-event", undefined, ["staff", "admin"]],
      ["POST", "/sentry-testing", {}, ["admin"]],
      ["GET", "/geolocate", undefined, Object.keys(tokens)],
      ["POST", "/geolocate", { ip: "8.8.8.8" }, ["user", "moderator", "globalModerator", "staff", "admin"]],
      ["GET", "/analytics-events", undefined, ["staff", "admin"]],
      ["GET", "/analytics-events/counts", undefined, ["staff", "admin"]],
    ];
    for (const [method, path, body, allowed] of matrix) {
      for (const [who, token] of Object.entries(tokens)) {
        const res = await call(method, a(path), { token, body });
        if (allowed.includes(who)) expect(res.status, `${who} ${method} ${path}`).not.toBe(401);
        else expect(res.status, `${who} ${method} ${path}`).toBe(401);
      }
    }
    // Another user's actions: 403.
    const other = await call("GET", a(`/user-actions/${randomUUID()}`), { token: tokens.user });
    expect(other.status).toBe(403);
  });

  it("geolocation: the caller's address as the gateway sees it, a given address, clear answers otherwise", async () => {
    // The test reaches the gateway from 127.0.0.1, and without TRUST_PROXY a caller's x-forwarded-for is dropped.
    const mine = await call("GET", a("/geolocate"), { headers: { "x-forwarded-for": "8.8.8.8" } });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ found: false, reason: "private" });
    expect(mine.body.ip).toMatch(/^(127\.0\.0\.1|::1)$/);
    const user = await platform.craft();
    const given = await call("POST", a("/geolocate"), { token: user, body: { ip: "8.8.8.8" } });
    expect(given.body).toMatchObject({ ip: "8.8.8.8", found: true, country: "US" });
    const bad = await call("POST", a("/geolocate"), { token: user, body: { ip: "not-an-ip" } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("ip must be an IP address");
    expect((await call("POST", a("/geolocate"), { token: user, body: { ip: "x".repeat(100) } })).status).toBe(400);
  });

  it("info-admin answers for staff", async () => {
    const status = await call("GET", a("/info-admin/status"), { token: admin });
    expect(status.body).toMatchObject({ status: "ok", service: "audit", database: true, bus: true });
    const names = await call("GET", a("/info-admin/user-event-names"), { token: admin });
    expect(names.body.names).toContain("tt.user.user.banned");
    const sentry = await call("POST", a("/sentry-testing"), { token: admin, body: {} });
    expect(sentry.body).toEqual({ reported: true });
  });
});
