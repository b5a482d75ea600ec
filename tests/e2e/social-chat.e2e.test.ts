// The live room's chat through the gateway (issue 14), in both modes: room messages over REST (send, a retried
// send stored once, history for guests, edit, reactions, report, moderator delete), the join stream forwarding
// them as `chat`, direct messages with unread counts, the room service's conversation clear, and clear 4xx answers
// for bad input.
import { randomUUID } from "node:crypto";
import { createClient } from "@connectrpc/connect";
import type { ChatEvent } from "@tt/proto/tt/social/v1/chat_pb";
import { StageService } from "@tt/proto/tt/social/v1/stage_service_pb";
import { beforeAll, describe, expect, it } from "vitest";
import { bearerTransport, sharedPlatform, type TestPlatform } from "./support/platform.ts";

const s = (path: string) => `/api/social-service${path}`;

let platform: TestPlatform;

beforeAll(async () => {
  platform = await sharedPlatform();
}, 300_000);

/** The chat events a join stream forwards, read in the background. */
function joinChat(token: string, room: string) {
  const abort = new AbortController();
  const events: ChatEvent[] = [];
  let joined = false;
  const transport = bearerTransport(platform.url, token);
  const done = (async () => {
    try {
      for await (const m of createClient(StageService, transport).join({ room }, { signal: abort.signal })) {
        if (m.kind.case === "state") joined = true;
        if (m.kind.case === "chat") events.push(m.kind.value);
      }
    } catch {
      // ended by close()
    }
  })();
  return {
    events,
    joined: () => joined,
    async close() {
      abort.abort();
      await done;
    },
  };
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Message {
  uuid: string;
  id: string;
  message: string;
  userUuid: string;
  userName: string;
  reactions?: Record<string, { users: { userUUID: string }[] }>;
  reportCount?: number;
}

describe("social chat through the gateway", () => {
  it("room messages: send, retry, history, join stream, edit, reactions, report and delete", async () => {
    const owner = await platform.signUp();
    const alice = await platform.signUp();
    const bob = await platform.signUp();
    const created = await platform.call("POST", "/api/room-service/rooms/infrastructure", {
      token: owner.token,
      body: { name: `Chat E2E ${randomUUID().slice(0, 8)}` },
    });
    expect(created.status).toBe(200);
    const room = created.body.room as { uuid: string; slug: string };
    const stream = joinChat(bob.token, room.uuid);
    await until("bob's join", () => (stream.joined() ? true : undefined));

    const body = { message: { uuid: randomUUID(), message: "hello from REST" } };
    const sent = await platform.call("POST", s(`/rooms/${room.slug}/messages`), { token: alice.token, body });
    expect(sent.status).toBe(200);
    const message = sent.body.message as Message;
    expect(message).toMatchObject({ message: "hello from REST", userUuid: alice.user.uuid, type: "user" });
    const retried = await platform.call("POST", s(`/rooms/${room.uuid}/messages`), { token: alice.token, body });
    expect((retried.body.message as Message).id).toBe(message.id);

    const forwarded = await until("the message on bob's join stream", () =>
      stream.events.find((e) => e.kind.case === "created" && e.kind.value.uuid === message.uuid),
    );
    expect(forwarded.kind.value).toMatchObject({ message: "hello from REST" });

    const guest = await platform.call("GET", "/api/user-service/auth/guest");
    const guestToken = (guest.body.accessToken as { token: string }).token;
    const history = await platform.call("GET", s(`/rooms/${room.slug}/messages`), { token: guestToken });
    expect(history.status).toBe(200);
    expect((history.body.messages as Message[]).filter((m) => m.uuid === message.uuid)).toHaveLength(1);
    const guestSend = await platform.call("POST", s(`/rooms/${room.uuid}/messages`), {
      token: guestToken,
      body: { message: { uuid: randomUUID(), message: "guest" } },
    });
    expect([401, 403]).toContain(guestSend.status);

    const edited = await platform.call("PATCH", s(`/messages/${message.uuid}`), {
      token: alice.token,
      body: { message: "hello, edited" },
    });
    expect(edited.status).toBe(200);
    expect((edited.body.message as Message).message).toBe("hello, edited");
    expect(
      (await platform.call("PATCH", s(`/messages/${message.uuid}`), { token: bob.token, body: { message: "x" } }))
        .status,
    ).toBe(403);

    const reacted = await platform.call("POST", s(`/messages/${message.uuid}/reactions`), {
      token: bob.token,
      body: { emoji: "🔥" },
    });
    expect(reacted.status).toBe(200);
    expect(reacted.body.added).toBe(true);
    expect((reacted.body.message as Message).reactions?.["🔥"]?.users.map((u) => u.userUUID)).toEqual([bob.user.uuid]);
    await until("the reaction on the join stream", () =>
      stream.events.find((e) => e.kind.case === "reactionsChanged" && e.kind.value.uuid === message.uuid),
    );

    const reported = await platform.call("POST", s(`/messages/${message.uuid}/report`), {
      token: bob.token,
      body: { reason: "spam" },
    });
    expect(reported.status).toBe(200);
    const bobHistory = await platform.call("GET", s(`/rooms/${room.uuid}/messages`), { token: bob.token });
    expect((bobHistory.body.messages as Message[]).map((m) => m.uuid)).not.toContain(message.uuid);
    const reports = await platform.call("GET", s(`/rooms/${room.uuid}/reports`), { token: owner.token });
    expect(reports.status).toBe(200);
    expect((reports.body.messages as { message: Message }[]).map((r) => r.message.uuid)).toContain(message.uuid);
    expect((await platform.call("GET", s(`/rooms/${room.uuid}/reports`), { token: alice.token })).status).toBe(403);

    expect((await platform.call("DELETE", s(`/messages/${message.uuid}`), { token: bob.token })).status).toBe(403);
    expect((await platform.call("DELETE", s(`/messages/${message.uuid}`), { token: owner.token })).status).toBe(200);
    await until("the delete on the join stream", () =>
      stream.events.find((e) => e.kind.case === "deleted" && e.kind.value.uuid === message.uuid),
    );

    // The room service's DELETE /rooms/conversation/{id} clears the chat (its event, consumed by the chat).
    await platform.call("POST", s(`/rooms/${room.uuid}/messages`), {
      token: alice.token,
      body: { message: { uuid: randomUUID(), message: "soon cleared" } },
    });
    const cleared = await platform.call("DELETE", `/api/room-service/rooms/conversation/${room.uuid}`, {
      token: owner.token,
    });
    expect(cleared.status).toBe(200);
    await until("the cleared event", () => stream.events.find((e) => e.kind.case === "cleared"));
    const after = await platform.call("GET", s(`/rooms/${room.uuid}/messages`), { token: alice.token });
    expect(after.body.messages ?? []).toEqual([]);
    await stream.close();
  });

  it("a room message from someone a listener blocked is left out of that listener's join stream", async () => {
    const owner = await platform.signUp();
    const alice = await platform.signUp();
    const bob = await platform.signUp();
    const carol = await platform.signUp();
    const created = await platform.call("POST", "/api/room-service/rooms/infrastructure", {
      token: owner.token,
      body: { name: `Chat blocks ${randomUUID().slice(0, 8)}` },
    });
    const room = created.body.room as { uuid: string };
    const aliceStream = joinChat(alice.token, room.uuid);
    const carolStream = joinChat(carol.token, room.uuid);
    await until("both joins", () => (aliceStream.joined() && carolStream.joined() ? true : undefined));
    const say = async (who: { token: string }, text: string) => {
      const sent = await platform.call("POST", s(`/rooms/${room.uuid}/messages`), {
        token: who.token,
        body: { message: { uuid: randomUUID(), message: text } },
      });
      expect(sent.status).toBe(200);
      return (sent.body.message as Message).uuid;
    };
    const before = await say(bob, "before the block");
    await until("bob's message before the block at alice", () =>
      aliceStream.events.find((e) => e.kind.case === "created" && e.kind.value.uuid === before),
    );

    // Alice blocks Bob (room service); once the chat has the block her history leaves Bob out.
    const blocked = await platform.call("POST", "/api/room-service/blocked-users", {
      token: alice.token,
      body: { blockedUserId: bob.user.uuid },
    });
    expect(blocked.status).toBe(200);
    await until("the block in alice's history", async () => {
      const h = await platform.call("GET", s(`/rooms/${room.uuid}/messages`), { token: alice.token });
      return (h.body.messages as Message[] | undefined)?.some((m) => m.uuid === before) ? undefined : true;
    });

    // Bob, then Carol: Carol's stream gets both; Alice's gets Carol's and never Bob's, which came first.
    const fromBob = await say(bob, "after the block");
    const fromCarol = await say(carol, "hi all");
    const uuids = (events: ChatEvent[]) =>
      events.flatMap((e) => (e.kind.case === "created" ? [e.kind.value.uuid] : []));
    await until("both at carol", () =>
      uuids(carolStream.events).includes(fromCarol) && uuids(carolStream.events).includes(fromBob) ? true : undefined,
    );
    await until("carol's message at alice", () => (uuids(aliceStream.events).includes(fromCarol) ? true : undefined));
    expect(uuids(aliceStream.events)).not.toContain(fromBob);
    await Promise.all([aliceStream.close(), carolStream.close()]);
  });

  it("a crate link becomes a playlist preview, over REST and the join stream; the preview RPC is for services only", async () => {
    const owner = await platform.signUp();
    const alice = await platform.signUp();
    const bob = await platform.signUp();
    const created = await platform.call("POST", "/api/room-service/rooms/infrastructure", {
      token: owner.token,
      body: { name: `Crate E2E ${randomUUID().slice(0, 8)}` },
    });
    const room = created.body.room as { uuid: string; slug: string };
    const crate = await platform.call("POST", "/api/playlist-service/crate", {
      token: alice.token,
      body: { crateName: "E2E mix" },
    });
    expect(crate.status).toBe(200);
    const crateUuid = (crate.body as { crateUuid: string }).crateUuid;
    const stream = joinChat(bob.token, room.uuid);
    await until("bob's join", () => (stream.joined() ? true : undefined));

    // The platform sets no SOCIAL_WEB_ORIGINS: a crate path on any origin counts.
    const sent = await platform.call("POST", s(`/rooms/${room.uuid}/messages`), {
      token: alice.token,
      body: { message: { uuid: randomUUID(), message: `try https://tt.example/crates/${crateUuid}` } },
    });
    expect(sent.status).toBe(200);
    const message = sent.body.message as Message & { playlist?: Record<string, unknown> };
    expect(message.playlist).toMatchObject({
      crateUuid,
      crateName: "E2E mix",
      userUuid: alice.user.uuid,
      isCurrentUserPlaylist: true,
    });
    const forwarded = await until("the message on bob's join stream", () =>
      stream.events.find((e) => e.kind.case === "created" && e.kind.value.uuid === message.uuid),
    );
    expect(forwarded.kind.case === "created" && forwarded.kind.value.playlist).toMatchObject({
      crateUuid,
      crateName: "E2E mix",
      isCurrentUserPlaylist: false,
    });
    await stream.close();

    const preview = `/api/playlist-service/crate/service/${crateUuid}/preview`;
    expect((await platform.call("GET", preview, { token: alice.token })).status).toBe(401);
    expect((await platform.call("GET", preview)).status).toBe(401);
  });

  it("direct messages with unread counts per group", async () => {
    const ann = await platform.signUp();
    const ben = await platform.signUp();
    const sent = await platform.call("POST", s(`/conversations/${ben.user.uuid}/messages`), {
      token: ann.token,
      body: { message: { uuid: randomUUID(), message: "hi ben" } },
    });
    expect(sent.status).toBe(200);
    const list = await platform.call("GET", s("/conversations"), { token: ben.token });
    expect(list.status).toBe(200);
    expect(list.body.conversations).toEqual([
      expect.objectContaining({ peerUuid: ann.user.uuid, group: "OTHERS", unreadCount: 1 }),
    ]);
    expect(list.body.unread).toEqual({ FRIENDS: 0, OTHERS: 1, UNSET: 0 });
    expect(
      (await platform.call("POST", s(`/conversations/${ann.user.uuid}/read`), { token: ben.token, body: {} })).status,
    ).toBe(200);
    const read = await platform.call("GET", s("/conversations"), { token: ben.token });
    expect((read.body.conversations as { unreadCount?: number }[])[0]!.unreadCount ?? 0).toBe(0);
    const dms = await platform.call("GET", s(`/conversations/${ann.user.uuid}/messages`), { token: ben.token });
    expect((dms.body.messages as Message[]).map((m) => m.message)).toEqual(["hi ben"]);
  });

  it("refuses bad input with clear 4xx answers", async () => {
    const { token } = await platform.signUp();
    const room = randomUUID();
    const empty = await platform.call("POST", s(`/rooms/${room}/messages`), {
      token,
      body: { message: { uuid: randomUUID(), message: "" } },
    });
    expect(empty.status).toBe(400);
    const badUuid = await platform.call("POST", s(`/rooms/${room}/messages`), {
      token,
      body: { message: { uuid: "not-a-uuid", message: "x" } },
    });
    expect(badUuid.status).toBe(400);
    const unknownRoom = await platform.call("POST", s("/rooms/no-such-room-here/messages"), {
      token,
      body: { message: { uuid: randomUUID(), message: "x" } },
    });
    expect(unknownRoom.status).toBe(404);
    expect(unknownRoom.body.message).toBe("room not found");
    const tooMany = await platform.call("GET", s(`/rooms/${room}/messages?limit=301`), { token });
    expect(tooMany.status).toBe(400);
    const anonymous = await platform.call("GET", s("/conversations"));
    expect(anonymous.status).toBe(401);
    const missing = await platform.call("PATCH", s(`/messages/${randomUUID()}`), { token, body: { message: "x" } });
    expect(missing.status).toBe(404);
  });
});
