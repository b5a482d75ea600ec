// The bot kit (issue 26, services/bot) against a real platform, as a third party's bot would use it: a person
// signs up a bot, the bot signs in with its token (renews it), and the README's example bot (over gRPC, through a
// TCP relay the test can cut) joins a room its owner made and handed it as co-owner, queues the demo songs, takes
// a seat and plays one, answers a mention; a second bot (over Connect) likes the play; after a room reset and a
// cut connection the example's stage is rebuilt and equals the platform's own.
import { randomUUID } from "node:crypto";
import { createServer, connect, type Server, type Socket } from "node:net";
import { create, toBinary, toJson } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { AGGREGATE_ID_HEADER, createNatsBus, EVENT_ID_HEADER, type Bus } from "@tt/kit";
import { signIn, signUpBot, type RejoinReason, type RoomSession } from "@tt/bot";
import { StageSchema } from "@tt/proto/tt/social/v1/stage_pb";
import { UploadedSongPublishedSchema } from "@tt/proto/tt/upload/v1/events_pb";
import { startHelloDj } from "@tt/bot/examples/hello-dj";
import { sharedPlatform, type TestPlatform } from "./support/platform.ts";
import { eventually } from "@tt/kit/testing";

let platform: TestPlatform;
let bus: Bus;
let relay: Relay;
const run = randomUUID().slice(0, 8);

/** A TCP relay to the platform whose open connections the test can cut (a network drop, seen by the bot). */
interface Relay {
  url: string;
  cut(): number;
  close(): Promise<void>;
}

async function startRelay(target: string): Promise<Relay> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(a);
      a.pipe(b);
      a.on("error", () => b.destroy());
      a.on("close", () => (sockets.delete(a), b.destroy()));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    cut() {
      const n = sockets.size;
      for (const socket of sockets) socket.destroy();
      return n;
    },
    close() {
      // Open connections would keep the server from closing.
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The session's stage equals the platform's own at the same version (GetStage), once it has caught up. */
async function expectInSync(session: RoomSession, read: () => Promise<unknown>) {
  await eventually(
    "the session's stage to equal the platform's",
    async () => {
      const snapshot = toJson(StageSchema, (await read()) as never);
      const mine = session.stage();
      if (!mine || session.status() !== "live") return undefined;
      const json = toJson(StageSchema, mine) as { version?: string };
      return json.version === (snapshot as { version?: string }).version
        ? (expect(json).toEqual(snapshot), true)
        : undefined;
    },
    { timeoutMs: 30_000 },
  );
}

beforeAll(async () => {
  platform = await sharedPlatform();
  bus = await createNatsBus({
    url: inject("natsUrl"),
    name: `bot-kit-e2e-${run}`,
    deployment: platform.deploymentName,
  });
  relay = await startRelay(platform.url);
}, 300_000);

afterAll(async () => {
  await relay?.close();
  await bus?.close();
});

describe("the bot kit", () => {
  it("signs up and signs in with a bot token only, and renews it", async () => {
    const owner = await platform.signUp();
    const made = await signUpBot({ baseUrl: platform.url, ownerToken: owner.token, nickname: `KitBot${run}` });
    expect(made.user.role).toBe("bot");
    const bot = await signIn({ baseUrl: platform.url, token: made.token });
    expect([bot.uuid, bot.nickname]).toEqual([made.user.uuid, `KitBot${run}`]);
    expect(bot.tokenExpiresAt()!.getTime()).toBeGreaterThan(Date.now());

    const renewed = await bot.renewToken();
    expect(renewed).not.toBe(made.token);
    expect((await bot.clients.user.auth.getSession({})).user?.uuid).toBe(bot.uuid);

    // A token near its end is renewed by itself (at three quarters of its life): a bot outlives its first token.
    const short = await platform.craft({
      typ: "bot",
      role: "bot",
      sub: bot.uuid,
      exp: Math.floor(Date.now() / 1000) + 4,
    });
    const renewing = await signIn({ baseUrl: platform.url, token: short });
    await eventually("the automatic renewal", () => renewing.token() !== short);
    expect(renewing.tokenExpiresAt()!.getTime()).toBeGreaterThan(Date.now() + 3600_000);
    expect((await renewing.clients.user.auth.getSession({})).tokenType).toBe("bot");
    renewing.close();
    bot.close();

    await expect(signIn({ baseUrl: platform.url, token: owner.token })).rejects.toThrow(/takes a bot token/);
    // A bot token may not create rooms (its owner makes the room and hands it over:
    // docs/decisions/0312-who-creates-the-lobby-the-bots-owner-not-the-bot.md).
    await expect(bot.clients.room.room.createRoom({ name: `Bot room ${run}` })).rejects.toThrow(
      /bot tokens may not call this method/,
    );
  });

  it("runs the README's bot: joins, queues a demo song and plays it, chats, answers a mention; rejoins after a reset and a cut connection", async () => {
    const owner = await platform.signUp();
    const dj = await signUpBot({ baseUrl: platform.url, ownerToken: owner.token, nickname: `HelloDj${run}` });
    const fan = await signUpBot({ baseUrl: platform.url, ownerToken: owner.token, nickname: `Fan${run}` });

    // The owner makes the room and hands it to the bot as co-owner.
    const created = await platform.call("POST", "/api/room-service/rooms/infrastructure", {
      token: owner.token,
      body: { name: `Bot Kit ${run}` },
    });
    expect(created.status).toBe(200);
    const room = created.body.room as { uuid: string; slug: string };
    const granted = await platform.call("POST", `/api/room-service/roomUserRoles/${room.uuid}`, {
      token: owner.token,
      body: { userId: dj.user.uuid, role: "coOwner" },
    });
    expect(granted.status).toBe(200);

    // A demo song in the catalogue, as the upload service's seeding announces one (UPLOAD_DEMO_SONGS).
    const songUuid = randomUUID();
    const published = create(UploadedSongPublishedSchema, {
      songUuid,
      songId: BigInt(Math.floor(Math.random() * 1e9)),
      ownerUuid: "00000000-0000-4000-8000-000000000de0",
      trackName: `Bot Kit Demo ${run}`,
      artistName: "Turntable Demo",
      duration: 600,
      hlsPlaylistUrl: `/api/upload-service/media/${songUuid}/master.m3u8`,
      public: true,
      demo: true,
    });
    await bus.publishDurable("tt.upload.song.published", toBinary(UploadedSongPublishedSchema, published), {
      headers: { [EVENT_ID_HEADER]: randomUUID(), [AGGREGATE_ID_HEADER]: songUuid },
    });
    const fanBot = await signIn({ baseUrl: platform.url, token: fan.token, httpVersion: "2" });
    await eventually(
      "the demo song in the catalogue",
      async () =>
        (await fanBot.clients.playlist.catalogue.listSongs({ demo: true, q: `Bot Kit Demo ${run}` })).songs.at(0),
      { timeoutMs: 30_000 },
    );

    // The example bot, over gRPC through the relay.
    const { bot, room: session } = await startHelloDj({
      baseUrl: relay.url,
      token: dj.token,
      room: room.slug,
      protocol: "grpc",
    });
    const rejoins: RejoinReason[] = [];
    const demoIds = new Set(
      (await fanBot.clients.playlist.catalogue.listSongs({ demo: true, limit: 100 })).songs.map((s) => s.songId),
    );
    const playing = await session.waitFor(
      (st) => st.play?.djUuid === bot.uuid && demoIds.has(st.play.song?.songId ?? ""),
      { what: "the bot's demo song", timeoutMs: 60_000 },
    );
    expect(playing.seats.map((seat) => seat.userUuid)).toEqual([bot.uuid]);
    expect(playing.room?.uuid).toBe(room.uuid);

    // Another bot (Connect over HTTP/2) likes the play; the example's stage shows it.
    const fanSession = fanBot.join(room.uuid, { onRejoin: (reason) => rejoins.push(reason) });
    await fanSession.waitFor((st) => st.play?.playId === playing.play!.playId, { what: "the fan's stage" });
    await fanSession.like(playing.play!.playId);
    await session.waitFor((st) => st.votes?.likes === 1, { what: "the like" });
    await expect(session.like()).rejects.toThrow(/cannot vote on your own song/);

    // Chat: the example greeted the room; a mention of it gets an answer, a message without one does not.
    const messages = async () => {
      const res = await platform.call("GET", `/api/social-service/rooms/${room.uuid}/messages`, { token: owner.token });
      return (res.body.messages as { message: string; userUuid: string }[]).filter((m) => m.userUuid === bot.uuid);
    };
    expect((await messages()).map((m) => m.message)).toEqual(["Hello, room! Mention me and I answer."]);
    const send = (text: string) =>
      platform.call("POST", `/api/social-service/rooms/${room.uuid}/messages`, {
        token: owner.token,
        body: { message: { uuid: randomUUID(), message: text } },
      });
    expect((await send("no mention here")).status).toBe(200);
    expect((await send(`hey @hellodj${run}, what's on?`)).status).toBe(200);
    const answers = await eventually(
      "the bot's answer",
      async () => {
        const mine = await messages();
        return mine.length >= 2 ? mine : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(answers.map((m) => m.message)).toEqual([
      "Hello, room! Mention me and I answer.",
      expect.stringMatching(/^@\S+ hello! I play the demo songs/),
    ]);

    // A room reset: both sessions rejoin (after a random delay of up to 2 s) and hold the platform's stage.
    const reasons: RejoinReason[] = [];
    const watcher = bot.join(room.uuid, { onRejoin: (reason) => reasons.push(reason) });
    await watcher.waitFor(() => true);
    await bus.publish(`live.social.reset.${room.uuid}`, new TextEncoder().encode("restarted"));
    await eventually("the reset rejoins", () => reasons.includes("reset") && rejoins.includes("reset"), {
      timeoutMs: 30_000,
    });
    const read = async () => (await fanBot.clients.social.stage.getStage({ room: room.uuid })).stage!;
    await expectInSync(watcher, read);
    await expectInSync(fanSession, read);
    expect(watcher.stage()!.play?.playId).toBe(playing.play!.playId);

    // The bot's connections drop: its sessions reconnect and hold the platform's stage again.
    expect(relay.cut()).toBeGreaterThan(0);
    await eventually("the reconnect", () => reasons.includes("reconnect"), { timeoutMs: 30_000 });
    await expectInSync(watcher, read);
    await expectInSync(session, read);
    expect(session.stage()!.seats.map((seat) => seat.userUuid)).toEqual([bot.uuid]);

    // Leaving the seat ends the bot's play.
    await session.leaveSeat();
    await session.waitFor((st) => st.seats.length === 0 && st.play?.djUuid !== bot.uuid, { what: "the empty booth" });
    for (const s of [session, watcher, fanSession]) s.close();
    bot.close();
    fanBot.close();
    expect(session.status()).toBe("closed");
  }, 180_000);
});
