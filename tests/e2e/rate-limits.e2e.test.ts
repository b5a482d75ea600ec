// Issue 23, findings 3 and 7: guest passwords cannot be guessed without limit (per room, per caller, per address),
// POST /rooms/list answers at most one room and never which of several, and chat, reactions, reports and friend
// invitations have per-user limits (stricter for direct messages to strangers). Every refusal is 429 with
// retry-after. The platform is this file's own, with small limits, so each test counts requests up to a limit
// instead of waiting for a window: nothing here sleeps.
import { randomUUID } from "node:crypto";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { StageService } from "@tt/proto/tt/social/v1/stage_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type Answer, type TestPlatform } from "./support/platform.ts";

const r = (path: string) => `/api/room-service${path}`;
const s = (path: string) => `/api/social-service${path}`;

// Windows far longer than the test, so no window ends while it counts.
const HOUR = "3600";
const LIMITS = {
  ROOM_PASSWORD_GUESSES_PER_ROOM: "4",
  ROOM_PASSWORD_GUESSES_PER_CALLER: "3",
  // Every caller here comes from the same address (the gateway's peer), so its budget is the sum of the tests'.
  ROOM_PASSWORD_GUESSES_PER_ADDRESS: "20",
  ROOM_PASSWORD_GUESS_WINDOW_SECONDS: HOUR,
  ROOM_FRIEND_INVITATIONS_PER_WINDOW: "3",
  ROOM_FRIEND_INVITATIONS_WINDOW_SECONDS: HOUR,
  SOCIAL_ROOM_MESSAGES_PER_WINDOW: "5",
  SOCIAL_ROOM_MESSAGES_WINDOW_SECONDS: HOUR,
  SOCIAL_DIRECT_MESSAGES_PER_WINDOW: "6",
  SOCIAL_DIRECT_MESSAGES_WINDOW_SECONDS: HOUR,
  SOCIAL_STRANGER_MESSAGES_PER_WINDOW: "2",
  SOCIAL_STRANGER_MESSAGES_WINDOW_SECONDS: HOUR,
  SOCIAL_REACTIONS_PER_WINDOW: "3",
  SOCIAL_REACTIONS_WINDOW_SECONDS: HOUR,
  SOCIAL_REPORTS_PER_WINDOW: "2",
  SOCIAL_REPORTS_WINDOW_SECONDS: HOUR,
};

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform({ env: LIMITS });
  admin = await platform.adminToken();
}, 300_000);

afterAll(async () => {
  await platform?.close();
});

function expectTooMany(res: Answer) {
  expect(res.status).toBe(429);
  expect(res.body.statusCode).toBe(429);
  expect(typeof res.body.message).toBe("string");
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(Number(HOUR));
}

async function signUp() {
  const res = await platform.signUp();
  return { uuid: res.user.uuid, token: res.token };
}

async function createRoom(token: string, body: Record<string, unknown> = {}) {
  const res = await platform.call("POST", r("/rooms/infrastructure"), {
    token,
    body: { name: `Limits ${randomUUID().slice(0, 8)}`, ...body },
  });
  expect(res.status).toBe(200);
  return res.body.room as { uuid: string; slug: string };
}

async function privateRoom(password: string) {
  const owner = await signUp();
  const room = await createRoom(owner.token, { type: "PRIVATE" });
  const set = await platform.call("POST", r("/rooms/admin/guest-password"), {
    token: admin,
    body: { roomId: room.uuid, password },
  });
  expect(set.status).toBe(200);
  return { ...room, owner };
}

const join = (token: string, room: string, guestPassword: string) =>
  platform.call("POST", r(`/rooms/${room}/join`), { token, body: { guestPassword } });

const listByPassword = (token: string, password: string) =>
  platform.call("POST", r("/rooms/list"), { token, body: { password } });

describe("guest passwords", () => {
  it("a caller's wrong guesses at a room's password are limited, then even the right one waits", async () => {
    const password = `right-${randomUUID()}`;
    const room = await privateRoom(password);
    const guesser = await signUp();
    for (let i = 0; i < 3; i++) {
      expect((await join(guesser.token, room.uuid, `wrong-${i}`)).status).toBe(403);
    }
    expectTooMany(await join(guesser.token, room.uuid, password));
    // Guessing by list counts against the same caller.
    expectTooMany(await listByPassword(guesser.token, password));
  });

  it("a room's password is limited over all callers, fresh guest tokens included", async () => {
    const password = `right-${randomUUID()}`;
    const room = await privateRoom(password);
    for (let i = 0; i < 4; i++) {
      const guest = await platform.craft({ typ: "guest", role: "guest", sub: randomUUID() });
      expect((await join(guest, room.uuid, `wrong-${i}`)).status).toBe(403);
    }
    const fresh = await signUp();
    expectTooMany(await join(fresh.token, room.uuid, password));
    // A member needs no password: neither counted nor refused.
    expect((await join(room.owner.token, room.uuid, "")).status).toBe(200);
  });

  it("the right password spends nothing: more guests than the room's limit get in, and one rejoins again and again", async () => {
    const password = `right-${randomUUID()}`;
    const room = await privateRoom(password);
    for (let i = 0; i < 6; i++) {
      const guest = await platform.craft({ typ: "guest", role: "guest", sub: randomUUID() });
      expect((await join(guest, room.uuid, password)).status).toBe(200);
    }
    const regular = await signUp();
    for (let i = 0; i < 5; i++) expect((await join(regular.token, room.uuid, password)).status).toBe(200);
    // The wrong guesses still count from zero: the room's limit (4) is whole.
    for (let i = 0; i < 4; i++) {
      const guest = await platform.craft({ typ: "guest", role: "guest", sub: randomUUID() });
      expect((await join(guest, room.uuid, `wrong-${i}`)).status).toBe(403);
    }
    expectTooMany(await join(regular.token, room.uuid, password));
  });

  it("guesses through the live stage's join stream count against the room as well", async () => {
    const password = `right-${randomUUID()}`;
    const room = await privateRoom(password);
    const guesser = await signUp();
    const transport = createConnectTransport({
      baseUrl: platform.url,
      httpVersion: "1.1",
      interceptors: [
        (next) => (req) => {
          req.header.set("authorization", `Bearer ${guesser.token}`);
          return next(req);
        },
      ],
    });
    /** The join stream's first answer: its refusal's code, or "joined". */
    const joinStage = async (guestPassword: string) => {
      const abort = new AbortController();
      try {
        for await (const m of createClient(StageService, transport).join(
          { room: room.uuid, guestPassword },
          { signal: abort.signal },
        )) {
          if (m.kind.case === "state") return "joined";
        }
        return "ended";
      } catch (err) {
        return ConnectError.from(err);
      } finally {
        abort.abort();
      }
    };
    for (let i = 0; i < 3; i++) {
      expect(await joinStage(`wrong-${i}`)).toMatchObject({ code: Code.PermissionDenied });
    }
    // The caller's limit (3), even with the right password.
    const refused = await joinStage(password);
    expect(refused).toMatchObject({ code: Code.ResourceExhausted });
    expect(Number((refused as ConnectError).metadata.get("retry-after"))).toBeGreaterThan(0);
    // The room's limit (4) is spent for everyone's joins by REST too.
    expectTooMany(await join((await signUp()).token, room.uuid, password));
  });

  it("POST /rooms/list answers the one room of a password, and none when several rooms share it", async () => {
    const shared = `shared-${randomUUID()}`;
    await privateRoom(shared);
    await privateRoom(shared);
    const only = `only-${randomUUID()}`;
    const one = await privateRoom(only);
    const caller = await signUp();
    const found = await listByPassword(caller.token, only);
    expect(found.status).toBe(200);
    expect((found.body.rooms as { uuid: string }[]).map((x) => x.uuid)).toEqual([one.uuid]);
    const ambiguous = await listByPassword(caller.token, shared);
    expect(ambiguous.status).toBe(200);
    expect(ambiguous.body.rooms ?? []).toEqual([]);
  });

  it("one address is limited over all its callers", async () => {
    // The earlier tests spent most of the address's 20 guesses (wrong and refused ones count; the stage's are counted by
    // room and user only): fresh callers, each within its own limits, reach the address's limit (run alone too).
    let status = 0;
    for (let i = 0; i < 20 && status !== 429; i++) {
      const caller = await signUp();
      status = (await listByPassword(caller.token, `spray-${randomUUID()}`)).status;
    }
    expect(status).toBe(429);
    const last = await listByPassword((await signUp()).token, `spray-${randomUUID()}`);
    expectTooMany(last);
  });
});

describe("chat", () => {
  it("limits one user's room messages; others in the room still write", async () => {
    const owner = await signUp();
    const room = await createRoom(owner.token);
    const chatty = await signUp();
    const send = (token: string) =>
      platform.call("POST", s(`/rooms/${room.uuid}/messages`), {
        token,
        body: { message: { uuid: randomUUID(), message: "hello" } },
      });
    for (let i = 0; i < 5; i++) expect((await send(chatty.token)).status).toBe(200);
    expectTooMany(await send(chatty.token));
    expect((await send(owner.token)).status).toBe(200);
  });

  it("limits direct messages, to strangers more strictly than to friends", async () => {
    const ann = await signUp();
    const stranger = await signUp();
    const friend = await signUp();
    const dm = (to: string) =>
      platform.call("POST", s(`/conversations/${to}/messages`), {
        token: ann.token,
        body: { message: { uuid: randomUUID(), message: "hi" } },
      });
    // Friends: ann invites, the friend accepts.
    const invited = await platform.call("POST", r("/friend-invitations"), {
      token: ann.token,
      body: { userId: friend.uuid },
    });
    expect(invited.status).toBe(200);
    const accepted = await platform.call("POST", r("/friend-invitations/handle-friend"), {
      token: friend.token,
      body: { invitationId: invited.body.id, invitationStatus: "accepted" },
    });
    expect(accepted.status).toBe(200);

    for (let i = 0; i < 2; i++) expect((await dm(stranger.uuid)).status).toBe(200);
    expectTooMany(await dm(stranger.uuid));
    // The refused one left nothing unread.
    const unread = await platform.call("GET", s("/conversations"), { token: stranger.token });
    expect(unread.body.unread).toEqual({ FRIENDS: 0, OTHERS: 2, UNSET: 0 });
    // To a friend the wider limit applies (6 in all; 3 were spent on the stranger).
    for (let i = 0; i < 3; i++) expect((await dm(friend.uuid)).status).toBe(200);
    expectTooMany(await dm(friend.uuid));
  });

  it("limits reactions and reports", async () => {
    const owner = await signUp();
    const room = await createRoom(owner.token);
    const messages: string[] = [];
    for (let i = 0; i < 3; i++) {
      const sent = await platform.call("POST", s(`/rooms/${room.uuid}/messages`), {
        token: owner.token,
        body: { message: { uuid: randomUUID(), message: `m${i}` } },
      });
      expect(sent.status).toBe(200);
      messages.push((sent.body.message as { uuid: string }).uuid);
    }
    const fan = await signUp();
    const react = (uuid: string, emoji: string) =>
      platform.call("POST", s(`/messages/${uuid}/reactions`), { token: fan.token, body: { emoji } });
    expect((await react(messages[0]!, "🔥")).status).toBe(200);
    expect((await react(messages[0]!, "🔥")).status).toBe(200);
    expect((await react(messages[1]!, "👍")).status).toBe(200);
    expectTooMany(await react(messages[2]!, "👍"));

    const report = (uuid: string) =>
      platform.call("POST", s(`/messages/${uuid}/report`), { token: fan.token, body: { reason: "spam" } });
    expect((await report(messages[0]!)).status).toBe(200);
    expect((await report(messages[1]!)).status).toBe(200);
    expectTooMany(await report(messages[2]!));
  });

  it("limits friend invitations", async () => {
    const ann = await signUp();
    const invite = async () =>
      platform.call("POST", r("/friend-invitations"), { token: ann.token, body: { userId: (await signUp()).uuid } });
    for (let i = 0; i < 3; i++) expect((await invite()).status).toBe(200);
    expectTooMany(await invite());
  });
});
