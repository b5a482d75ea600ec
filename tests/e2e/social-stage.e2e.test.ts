// The live stage through the gateway (issue 14), in both modes (all-in-one: the gateway's in-process passthrough;
// distributed: HTTP/2 to the social process): the join stream (Connect, over HTTP/1.1 as a browser sends it and over
// HTTP/2) gets the full state and then patches that rebuild the stage; two DJs rotate on songs queued through the
// playlist REST paths; votes, a skip, a kick (the stream gets `kicked` and ends); the REST rules refuse bad input
// with clear 4xx answers.
import { randomUUID } from "node:crypto";
import { fromJson, toJson, type JsonValue } from "@bufbuild/protobuf";
import { createClient, type Client } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { StageSchema, type Stage } from "@tt/proto/tt/social/v1/stage_pb";
import { StageService, type JoinResponse } from "@tt/proto/tt/social/v1/stage_service_pb";
import { applyPatch } from "rfc6902";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedPlatform, type TestPlatform } from "./support/platform.ts";

const s = (path: string) => `/api/social-service${path}`;

let platform: TestPlatform;

beforeAll(async () => {
  platform = await sharedPlatform();
}, 300_000);

function stageClient(token: string | undefined, httpVersion: "1.1" | "2"): Client<typeof StageService> {
  const transport = createConnectTransport({
    baseUrl: platform.url,
    httpVersion,
    interceptors: token
      ? [
          (next) => (req) => {
            req.header.set("authorization", `Bearer ${token}`);
            return next(req);
          },
        ]
      : [],
  });
  return createClient(StageService, transport);
}

/** A join stream read in the background; the stage rebuilt from its state and patches. */
function watch(token: string, room: string, httpVersion: "1.1" | "2" = "1.1") {
  const abort = new AbortController();
  const messages: JoinResponse[] = [];
  let json: JsonValue | null = null;
  let version = -1n;
  let failure: unknown = null;
  const done = (async () => {
    try {
      for await (const m of stageClient(token, httpVersion).join({ room }, { signal: abort.signal })) {
        messages.push(m);
        expect(m.serverTime).toBeDefined();
        if (m.kind.case === "state") {
          json = toJson(StageSchema, m.kind.value);
          version = m.kind.value.version;
        } else if (m.kind.case === "patch") {
          expect(m.kind.value.version).toBe(version + 1n);
          expect(applyPatch(json, JSON.parse(m.kind.value.operations)).every((e) => e === null)).toBe(true);
          version = m.kind.value.version;
        }
      }
    } catch (err) {
      if (!abort.signal.aborted) failure = err;
    }
  })();
  return {
    messages,
    done,
    close: () => abort.abort(),
    stage: (): Stage => fromJson(StageSchema, json!),
    async until(test: (st: Stage) => boolean, what: string, timeoutMs = 60_000): Promise<Stage> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (failure) throw failure;
        if (json !== null && test(fromJson(StageSchema, json))) return fromJson(StageSchema, json);
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; stage: ${JSON.stringify(json)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

async function queueSongs(token: string, seconds: number[]): Promise<void> {
  const res = await platform.call("POST", "/api/playlist-service/crate/special/queue/songs", {
    token,
    body: {
      songs: seconds.map((duration, i) => ({
        trackName: `E2E Stage ${i} ${randomUUID().slice(0, 6)}`,
        artistName: "E2E Stage",
        duration,
        musicProviders: { spotify: `sp-${randomUUID()}` },
      })),
    },
  });
  expect(res.status).toBe(200);
}

describe("the live stage through the gateway", () => {
  it("join streams, seats and rotation, votes, skip and kick", async () => {
    const owner = await platform.signUp();
    const dj2 = await platform.signUp();
    const listener = await platform.signUp();
    const created = await platform.call("POST", "/api/room-service/rooms/infrastructure", {
      token: owner.token,
      body: { name: `Stage E2E ${randomUUID().slice(0, 8)}`, numberOfDjs: 2 },
    });
    expect(created.status).toBe(200);
    const room = created.body.room as { uuid: string; slug: string };
    await queueSongs(owner.token, [4, 4]);
    await queueSongs(dj2.token, [60]);

    // HTTP/1.1 (a browser's Connect) and HTTP/2 both pass the gateway's passthrough as server streams.
    const ownerStream = watch(owner.token, room.slug, "1.1");
    const dj2Stream = watch(dj2.token, room.uuid, "2");
    const listenerStream = watch(listener.token, room.uuid, "1.1");
    const guest = await platform.call("GET", "/api/user-service/auth/guest");
    const guestToken = (guest.body.accessToken as { token?: string } | undefined)?.token;
    const guestStream = guestToken ? watch(guestToken, room.uuid, "2") : null;
    await listenerStream.until((st) => (st.listeners?.users ?? 0) >= 3, "three signed-in listeners");
    expect(ownerStream.messages[0]?.kind.case).toBe("state");

    const seat = await platform.call("POST", s(`/rooms/${room.uuid}/seats`), { token: owner.token, body: {} });
    expect(seat.status).toBe(200);
    expect((seat.body.seats as { userUuid: string }[]).map((x) => x.userUuid)).toEqual([owner.user.uuid]);
    const again = await platform.call("POST", s(`/rooms/${room.uuid}/seats`), { token: owner.token, body: {} });
    expect([again.status, again.body.message]).toEqual([409, "Already in a DJ seat"]);
    const first = await listenerStream.until((st) => st.play?.djUuid === owner.user.uuid, "the owner's song");
    expect(first.play!.song!.artistName).toBe("E2E Stage");
    expect((await platform.call("POST", s(`/rooms/${room.slug}/seats`), { token: dj2.token, body: {} })).status).toBe(
      200,
    );
    const full = await platform.call("POST", s(`/rooms/${room.uuid}/seats`), { token: listener.token, body: {} });
    expect([full.status, full.body.message]).toEqual([409, "No free DJ seat"]);

    // Votes: changeable, never on your own play; a like stars the song in tt-stars.
    const disliked = await platform.call("POST", s(`/rooms/${room.uuid}/votes/dislike`), {
      token: listener.token,
      body: { playId: first.play!.playId },
    });
    expect(disliked.status).toBe(200);
    const liked = await platform.call("POST", s(`/rooms/${room.uuid}/votes/like`), { token: listener.token, body: {} });
    expect((liked.body.votes as Record<string, number>).likes).toBe(1);
    expect((liked.body.votes as Record<string, number>).dislikes ?? 0).toBe(0);
    const own = await platform.call("POST", s(`/rooms/${room.uuid}/votes/like`), { token: owner.token, body: {} });
    expect([own.status, own.body.message]).toEqual([403, "You cannot vote on your own song"]);
    const likes = await platform.call("GET", "/api/playlist-service/crate/special/likes/songs", {
      token: listener.token,
    });
    expect((likes.body.songs as { songId: string }[]).map((x) => x.songId)).toEqual([first.play!.song!.songId]);

    // The owner's song ends: dj2 plays, the owner waits at the back; dj2 skips: the owner plays again.
    const second = await listenerStream.until((st) => st.play?.djUuid === dj2.user.uuid, "dj2's song");
    expect(second.seats.map((x) => x.userUuid)).toEqual([dj2.user.uuid, owner.user.uuid]);
    const skip = await platform.call("POST", s(`/rooms/${room.uuid}/play/skip`), { token: dj2.token, body: {} });
    expect(skip.status).toBe(200);
    await listenerStream.until(
      (st) => st.play?.djUuid === owner.user.uuid && st.play.playId !== first.play!.playId,
      "the owner's second song",
    );

    // Every stream (both HTTP versions, the guest's too) holds the stage the snapshot shows.
    const snapshot = await platform.call("GET", s(`/rooms/${room.slug}/stage`), { token: dj2.token });
    expect(snapshot.status).toBe(200);
    const version = BigInt(snapshot.body.version as string);
    for (const stream of [ownerStream, dj2Stream, listenerStream, ...(guestStream ? [guestStream] : [])]) {
      await stream.until((st) => st.version >= version, "the snapshot's version");
    }

    // The owner kicks the listener: their stream gets `kicked` and ends; they cannot join again.
    const kick = await platform.call("POST", "/api/room-service/roomUserRoles/kick-user-from-room", {
      token: owner.token,
      body: { roomId: room.uuid, userId: listener.user.uuid },
    });
    expect(kick.status).toBe(200);
    await listenerStream.done;
    const last = listenerStream.messages.at(-1)!;
    expect(last.kind.case).toBe("kicked");
    expect(last.kind.value).toMatchObject({ room: room.uuid, by: owner.user.uuid, reason: "kicked" });

    for (const stream of [ownerStream, dj2Stream, ...(guestStream ? [guestStream] : [])]) stream.close();
    await Promise.all([ownerStream.done, dj2Stream.done, guestStream?.done]);
  }, 180_000);

  it("refuses bad input and strangers with clear 4xx answers", async () => {
    const { token } = await platform.signUp();
    const unknown = await platform.call("GET", s("/rooms/no-such-room-here/stage"), { token });
    expect([unknown.status, unknown.body.message]).toEqual([404, "Room not found"]);
    const badUser = await platform.call("DELETE", s(`/rooms/${randomUUID()}/seats/not-a-uuid`), { token });
    expect(badUser.status).toBe(400);
    const badLimit = await platform.call("GET", s(`/rooms/${randomUUID()}/listeners?limit=5000`), { token });
    expect(badLimit.status).toBe(400);
    const anonymous = await platform.call("POST", s(`/rooms/${randomUUID()}/seats`), { body: {} });
    expect(anonymous.status).toBe(401);
    const openapi = await platform.call("GET", "/openapi.json");
    expect(Object.keys(openapi.body.paths as object)).toEqual(
      expect.arrayContaining([s("/rooms/{room}/seats"), s("/rooms/{room}/votes/like"), s("/clock")]),
    );
    const clock = await platform.call("GET", s("/clock"));
    expect(clock.status).toBe(200);
    expect(typeof clock.body.receiveTime).toBe("string");

    // A private room: the room service decides admission (AdmitToStage, across processes in distributed mode).
    const owner = await platform.signUp();
    const created = await platform.call("POST", "/api/room-service/rooms/infrastructure", {
      token: owner.token,
      body: { name: `Private ${randomUUID()}`, type: "PRIVATE" },
    });
    expect(created.status).toBe(200);
    const room = (created.body.room as { uuid: string }).uuid;
    const stream = stageClient(token, "2").join({ room });
    const refusal = await stream[Symbol.asyncIterator]()
      .next()
      .then(
        () => null,
        (err: unknown) => err as { code: number; rawMessage: string },
      );
    expect([refusal?.code, refusal?.rawMessage]).toEqual([7, "This room is private"]);
    const read = await platform.call("GET", s(`/rooms/${room}/stage`), { token });
    expect([read.status, read.body.message]).toEqual([403, "This room is private"]);
    const vote = await platform.call("POST", s(`/rooms/${room}/votes/like`), { token, body: {} });
    expect([vote.status, vote.body.message]).toEqual([403, "This room is private"]);
    const mine = await platform.call("GET", s(`/rooms/${room}/stage`), { token: owner.token });
    expect(mine.status).toBe(200);
    // Its chat too: a stranger neither reads nor writes it; its owner does.
    const message = { message: { uuid: randomUUID(), message: "members only" } };
    const strangerSend = await platform.call("POST", s(`/rooms/${room}/messages`), { token, body: message });
    expect([strangerSend.status, strangerSend.body.message]).toEqual([403, "This room is private"]);
    const strangerRead = await platform.call("GET", s(`/rooms/${room}/messages`), { token });
    expect([strangerRead.status, strangerRead.body.message]).toEqual([403, "This room is private"]);
    const ownerSend = await platform.call("POST", s(`/rooms/${room}/messages`), { token: owner.token, body: message });
    expect(ownerSend.status).toBe(200);
    const ownerRead = await platform.call("GET", s(`/rooms/${room}/messages`), { token: owner.token });
    expect((ownerRead.body.messages as { message: string }[]).map((m) => m.message)).toEqual(["members only"]);
  });
});
