// The directory's live data (issue 29): a room whose stage has listeners and a DJ playing shows them in the room
// lists (GET /rooms/public, /rooms/mine/list, /rooms/recent) as the stage has them, within the summaries' staleness
// (about a second: docs/decisions/0331-the-live-directory-cards-live-data-and-the-lists.md); a quiet room shows none.
import { randomUUID } from "node:crypto";
import { createClient } from "@connectrpc/connect";
import { StageService } from "@tt/proto/tt/social/v1/stage_service_pb";
import { eventually } from "@tt/kit/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { bearerTransport, sharedPlatform, type TestPlatform } from "./support/platform.ts";

let platform: TestPlatform;

beforeAll(async () => {
  platform = await sharedPlatform();
}, 300_000);

/** A join stream held open in the background (the caller listens in the room) until `leave`. */
function listen(token: string, room: string) {
  const abort = new AbortController();
  const client = createClient(StageService, bearerTransport(platform.url, token));
  const done = (async () => {
    try {
      for await (const _ of client.join({ room }, { signal: abort.signal })) void _;
    } catch (err) {
      if (!abort.signal.aborted) throw err;
    }
  })();
  return {
    leave: async () => {
      abort.abort();
      await done;
    },
  };
}

interface Live {
  listeners?: number;
  nowPlaying?: { title: string; artist?: string; djUuid: string; duration?: number };
  djUuids?: string[];
}
interface Card {
  uuid: string;
  live?: Live;
}

/** The card the list answers for the room, or undefined when the room is not on it. */
async function cardIn(path: string, token: string, room: string): Promise<Card | undefined> {
  const res = await platform.call("GET", path, { token });
  expect(res.status).toBe(200);
  return (res.body.rooms as Card[]).find((r) => r.uuid === room);
}

describe("the directory's live data", () => {
  it("shows the stage's listeners, song and DJs on the room's card in the lists, and none for a quiet room", async () => {
    const owner = await platform.signUp();
    const listener = await platform.signUp();
    const name = `Directory E2E ${randomUUID().slice(0, 8)}`;
    const created = await platform.call("POST", "/api/room-service/rooms/infrastructure", {
      token: owner.token,
      body: { name },
    });
    expect(created.status).toBe(200);
    const room = (created.body.room as { uuid: string }).uuid;
    const quiet = await platform.call("POST", "/api/room-service/rooms/infrastructure", {
      token: owner.token,
      body: { name: `${name} quiet` },
    });
    const quietRoom = (quiet.body.room as { uuid: string }).uuid;
    const search = `/api/room-service/rooms/public?search=${encodeURIComponent(name)}`;
    // The listener's visit puts the room on their recent rooms.
    const joined = await platform.call("POST", `/api/room-service/rooms/${room}/join`, {
      token: listener.token,
      body: {},
    });
    expect(joined.status).toBe(200);
    expect((await cardIn(search, listener.token, room))?.live).toBeUndefined();

    const queued = await platform.call("POST", "/api/playlist-service/crate/special/queue/songs", {
      token: owner.token,
      body: {
        songs: [
          {
            trackName: `Directory song ${randomUUID().slice(0, 6)}`,
            artistName: "Directory E2E",
            duration: 600,
            musicProviders: { spotify: `sp-${randomUUID()}` },
          },
        ],
      },
    });
    expect(queued.status).toBe(200);
    const streams = [listen(owner.token, room), listen(listener.token, room)];
    try {
      const seat = await platform.call("POST", `/api/social-service/rooms/${room}/seats`, {
        token: owner.token,
        body: {},
      });
      expect(seat.status).toBe(200);
      const stageOf = async () =>
        (await platform.call("GET", `/api/social-service/rooms/${room}/stage`, { token: owner.token })).body as {
          listeners?: { users?: number; guests?: number };
          seats?: { userUuid: string }[];
          play?: { djUuid: string; song?: { trackName: string; artistName: string } };
        };
      const stage = await eventually(
        "the owner's song playing to two listeners",
        stageOf,
        (st) => st.play !== undefined && (st.listeners?.users ?? 0) === 2,
      );

      // Each list carries the stage's live data on the room's card (the summary follows within about a second).
      const expected = {
        listeners: (stage.listeners?.users ?? 0) + (stage.listeners?.guests ?? 0),
        nowPlaying: {
          title: stage.play!.song!.trackName,
          artist: "Directory E2E",
          djUuid: owner.user.uuid,
          duration: 600,
        },
        djUuids: stage.seats!.map((s) => s.userUuid),
      };
      expect(expected.djUuids).toEqual([owner.user.uuid]);
      for (const [path, token] of [
        [search, listener.token],
        ["/api/room-service/rooms/mine/list?limit=50", owner.token],
        ["/api/room-service/rooms/recent?limit=50", listener.token],
      ] as const) {
        const card = await eventually(
          `the live data on the card in ${path}`,
          () => cardIn(path, token, room),
          (c) => c?.live?.nowPlaying !== undefined && c.live.listeners === expected.listeners,
          { timeoutMs: 10_000 },
        );
        expect(card!.live).toMatchObject(expected);
      }
      // The quiet room of the same owner carries none.
      const mine = await cardIn("/api/room-service/rooms/mine/list?limit=50", owner.token, quietRoom);
      expect(mine).toBeDefined();
      expect(mine!.live).toBeUndefined();

      // The listener leaves: the card's count follows the stage's.
      await streams[1]!.leave();
      const after = await eventually("one listener on the stage", stageOf, (st) => (st.listeners?.users ?? 0) === 1);
      expect(after.play).toBeDefined();
      const card = await eventually(
        "the card's count after the listener left",
        () => cardIn(search, listener.token, room),
        (c) => c?.live?.listeners === 1,
        { timeoutMs: 10_000 },
      );
      expect(card!.live).toMatchObject({ listeners: 1, djUuids: [owner.user.uuid] });
    } finally {
      await Promise.all(streams.map((s) => s.leave()));
    }
  }, 120_000);
});
