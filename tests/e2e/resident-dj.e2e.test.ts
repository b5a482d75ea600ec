// The resident DJ (issue 26, services/resident-dj) in the all-in-one, as `npm start` runs it (RESIDENT_DJ=true and
// the demo songs seeded): its owner made the Lobby and handed it to the bot, the bot plays a demo song there,
// greets a newcomer once, answers `@Resident help` (also after a room reset, greeting nobody twice), steps down when
// two people take seats and comes back when the booth is empty again; a second start with the same owner finds the
// same room and the same bot. docs/bots.md's buf curl command runs against it, and a distributed platform runs it
// as a process of its own.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, inject, it, onTestFailed } from "vitest";
import { createNatsBus } from "@tt/kit";
import { createBotTransport, createPlatformClients, signUpBot, type PlatformClients } from "@tt/bot";
import { helpText, startResidentDj } from "@tt/resident-dj";
import { startTestPlatform, type TestPlatform } from "./support/platform.ts";
import { eventually } from "@tt/kit/testing";

let platform: TestPlatform;
let dataDir: string;
const root = path.resolve(import.meta.dirname, "../..");

const clientsOf = (token: string): PlatformClients =>
  createPlatformClients(createBotTransport({ baseUrl: platform.url, token: () => token }));

/** A person in the room: an open join stream (which puts them on the dancefloor) until `leave()`. */
function listen(clients: PlatformClients, room: string) {
  const stop = new AbortController();
  const running = (async () => {
    try {
      for await (const _event of clients.social.stage.join({ room }, { signal: stop.signal })) void _event;
    } catch {
      // Ended by leave().
    }
  })();
  return {
    async leave() {
      stop.abort();
      await running;
    },
  };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "tt-resident-dj-"));
  platform = await startTestPlatform({
    mode: "all-in-one",
    env: {
      RESIDENT_DJ: "true",
      UPLOAD_DEMO_SONGS: "true",
      DATA_DIR: dataDir,
      MEDIA_DIR: path.join(dataDir, "media"),
    },
  });
}, 300_000);

afterAll(async () => {
  await platform?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the resident DJ", () => {
  it("keeps the Lobby playing the demo songs, greets a newcomer once, answers help across a reset, gives way to two DJs", async () => {
    // The journey's steps, each with when it began: a failure, the test's own time limit included, says which step it
    // was in (a full run once ran out of the 240 s on a busy machine, and the limit's error names no step).
    const began = performance.now();
    const steps: string[] = [];
    const step = (what: string) => steps.push(`${((performance.now() - began) / 1000).toFixed(1)} s: ${what}`);
    onTestFailed(() => {
      process.stderr.write(`the resident DJ's journey, the last step unfinished:\n  ${steps.join("\n  ")}\n`);
    });
    step("the newcomer's sign-up and the Lobby");
    // The Lobby, made by the resident DJ's owner (a person), with the bot as co-owner.
    const newcomer = await platform.signUp();
    const lobby = await eventually(
      "the Lobby",
      async () => {
        const res = await platform.call("GET", "/api/room-service/rooms/lobby", { token: newcomer.token });
        return res.status === 200 ? (res.body.room as { uuid: string; name: string; ownerUuid: string }) : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(lobby.name).toBe("Lobby");
    step("the state file's bot and its co-ownership");
    // Its owner's credentials and its bot, kept in the state file under DATA_DIR once the bot is signed up.
    const state = await eventually(
      "the state file's bot",
      () => {
        try {
          const kept = JSON.parse(readFileSync(path.join(dataDir, "resident-dj.json"), "utf8")) as {
            ownerEmail: string;
            ownerPassword: string;
            botUuid?: string;
          };
          return kept.botUuid ? { ...kept, botUuid: kept.botUuid } : undefined;
        } catch {
          return undefined;
        }
      },
      { timeoutMs: 60_000 },
    );
    expect(state.botUuid).toMatch(/^[0-9a-f-]{36}$/);
    await eventually(
      "the bot's co-ownership",
      async () => {
        const roles = await platform.call("GET", `/api/room-service/roomUserRoles/${lobby.uuid}?role=coOwner`, {
          token: newcomer.token,
        });
        const holders = (roles.body.roles as { userUuid: string }[] | undefined)?.map((r) => r.userUuid);
        return holders?.join() === state.botUuid;
      },
      { timeoutMs: 60_000 },
    );

    step("the resident DJ playing a demo song");
    // The bot in the booth, playing a demo song.
    const people = clientsOf(newcomer.token);
    const demoSongs = async () =>
      new Set((await people.playlist.catalogue.listSongs({ demo: true, limit: 100 })).songs.map((s) => s.songId));
    const stageNow = async () => (await people.social.stage.getStage({ room: lobby.uuid })).stage!;
    let last: unknown;
    const playing = await eventually(
      "the resident DJ playing a demo song",
      async () => {
        const stage = await stageNow();
        last = stage;
        return stage.play?.djUuid === state.botUuid && (await demoSongs()).has(stage.play.song?.songId ?? "")
          ? stage
          : undefined;
      },
      { timeoutMs: 120_000 },
    ).catch((err: unknown) => {
      throw new Error(
        `${String(err)}; last stage ${JSON.stringify(last, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v))}`,
      );
    });
    expect(playing.seats.map((s) => s.userUuid)).toEqual([state.botUuid]);

    step("the greeting, leaving and coming back");
    // A newcomer is greeted once, also after coming back.
    const botMessages = async () => {
      const res = await platform.call("GET", `/api/social-service/rooms/${lobby.uuid}/messages`, {
        token: newcomer.token,
      });
      return (res.body.messages as { message: string; userUuid: string }[])
        .filter((m) => m.userUuid === state.botUuid)
        .map((m) => m.message);
    };
    const nickname = (await people.user.profile.getOwnProfile({})).profile!.nickname;
    let presence = listen(people, lobby.uuid);
    const greeting = `Welcome to the Lobby, @${nickname}! Take a seat to play, or say "@Resident help".`;
    await eventually("the greeting", async () => (await botMessages()).includes(greeting), { timeoutMs: 60_000 });
    await presence.leave();
    presence = listen(people, lobby.uuid);
    await eventually(
      "the newcomer back on the dancefloor",
      async () => (await stageNow()).dancefloor.includes(newcomer.user.uuid),
      { timeoutMs: 60_000 },
    );

    step("the help answer");
    // `@Resident help` is answered (after the greeting: so the greeting was not sent again in between).
    const send = await platform.call("POST", `/api/social-service/rooms/${lobby.uuid}/messages`, {
      token: newcomer.token,
      body: { message: { uuid: randomUUID(), message: "@Resident help" } },
    });
    expect(send.status).toBe(200);
    const answer = `@${nickname} ${helpText("Resident", "Lobby")}`;
    await eventually("the help answer", async () => (await botMessages()).includes(answer), { timeoutMs: 60_000 });
    expect((await botMessages()).filter((m) => m === greeting)).toHaveLength(1);

    step("the room reset and the help answer after it");
    // A room reset (a social instance restarted): every session rejoins after a random delay of up to 2 s. The
    // resident DJ answers again once it is back (asked again until then: a message sent while it rejoins does not
    // reach it) and greets nobody twice.
    const bus = await createNatsBus({
      url: inject("natsUrl"),
      name: "resident-dj-e2e",
      deployment: platform.deploymentName,
    });
    try {
      await bus.publish(`live.social.reset.${lobby.uuid}`, new TextEncoder().encode("restarted"));
    } finally {
      await bus.close();
    }
    let asked = 0;
    await eventually(
      "the help answer after the reset",
      async () => {
        if ((await botMessages()).filter((m) => m === answer).length >= 2) return true;
        if (Date.now() - asked > 3000) {
          asked = Date.now();
          await platform.call("POST", `/api/social-service/rooms/${lobby.uuid}/messages`, {
            token: newcomer.token,
            body: { message: { uuid: randomUUID(), message: "@Resident help, again" } },
          });
        }
        return undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect((await botMessages()).filter((m) => m === greeting)).toHaveLength(1);
    expect((await stageNow()).seats.map((s) => s.userUuid)).toEqual([state.botUuid]);

    step("two people taking seats, then leaving");
    // Two people take seats: the resident DJ steps down; they leave: it comes back.
    const second = await platform.signUp();
    const djs = [people, clientsOf(second.token)];
    const song = playing.play!.song!.songId;
    for (const dj of djs) {
      await dj.playlist.crate.addQueueSongs({ songs: [{ songId: song }] });
      await dj.social.stage.takeSeat({ room: lobby.uuid });
    }
    const humans = [newcomer.user.uuid, second.user.uuid].sort();
    await eventually(
      "the resident DJ stepping down",
      async () => {
        const seats = (await stageNow()).seats.map((s) => s.userUuid);
        return seats.length === 2 && [...seats].sort().join() === humans.join();
      },
      { timeoutMs: 60_000 },
    );
    for (const dj of djs) await dj.social.stage.leaveSeat({ room: lobby.uuid });
    await eventually(
      "the resident DJ back in the booth",
      async () => {
        const stage = await stageNow();
        return stage.seats.length === 1 && stage.seats[0]!.userUuid === state.botUuid;
      },
      { timeoutMs: 60_000 },
    );
    await presence.leave();

    step("the second start");
    // Another start with the same owner (say, a restart without the state file's bot) finds the same room and bot.
    // It is closed as soon as its bot is known, while it still joins and fills its queue: close() returns then too
    // (it once waited for a stop that had already happened, and the journey ran out of its time here).
    const again = startResidentDj({
      baseUrl: platform.url,
      logger: pino({ level: "silent" }),
      owner: { email: state.ownerEmail, password: state.ownerPassword },
    });
    let found: (string | undefined)[];
    try {
      found = await eventually(
        "the second start's bot",
        () => (again.botUuid() ? [again.botUuid(), again.roomUuid()] : undefined),
        { timeoutMs: 60_000, intervalMs: 5 },
      );
    } finally {
      step("the second start's close");
      await again.close();
    }
    expect(found).toEqual([state.botUuid, lobby.uuid]);
    const owner = clientsOf(await platform.login(state.ownerEmail, state.ownerPassword));
    const owned = (await owner.room.room.listOwnedRooms({ limit: 100 })).rooms;
    expect(owned.map((r) => r.name)).toEqual(["Lobby"]);
  }, 240_000);

  it("answers docs/bots.md's buf curl call over gRPC with a bot token: the Lobby's stage", async () => {
    // The command as docs/bots.md shows it, so the page and the test cannot drift apart.
    const page = readFileSync(path.join(root, "docs/bots.md"), "utf8");
    const command = [...page.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).find((c) => c.includes("buf curl"));
    expect(command).toBeDefined();
    const owner = await platform.signUp();
    const made = await signUpBot({
      baseUrl: platform.url,
      ownerToken: owner.token,
      nickname: `Curl${randomUUID().slice(0, 6)}`,
    });
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        "bash",
        ["-c", command!],
        {
          cwd: root,
          env: {
            ...process.env,
            PATH: `${path.join(root, "node_modules/.bin")}:${process.env.PATH}`,
            BOT_TOKEN: made.token,
            TT_URL: platform.url,
          },
          timeout: 120_000,
        },
        (err, out, errOut) => (err ? reject(new Error(`${err.message}\n${errOut}`)) : resolve(out)),
      ),
    );
    const answer = JSON.parse(stdout) as {
      stage: { room: { slug: string; name: string }; seats: { userUuid: string }[] };
    };
    expect(answer.stage.room).toMatchObject({ slug: "lobby", name: "Lobby" });
    const kept = JSON.parse(readFileSync(path.join(dataDir, "resident-dj.json"), "utf8")) as { botUuid: string };
    expect(answer.stage.seats.map((s) => s.userUuid)).toContain(kept.botUuid);
  }, 180_000);
});

describe("the resident DJ in distributed mode", () => {
  let distributed: TestPlatform;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "tt-resident-dj-distributed-"));
    distributed = await startTestPlatform({
      mode: "distributed",
      env: { RESIDENT_DJ: "true", UPLOAD_DEMO_SONGS: "true", DATA_DIR: dir, MEDIA_DIR: path.join(dir, "media") },
    });
  }, 300_000);

  afterAll(async () => {
    await distributed?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs as a process of its own and plays a demo song in the Lobby", async () => {
    const listener = await distributed.signUp();
    const clients = createPlatformClients(
      createBotTransport({ baseUrl: distributed.url, token: () => listener.token }),
    );
    const playing = await eventually(
      "the resident DJ playing a demo song in the Lobby",
      async () => {
        const stage = await clients.social.stage.getStage({ room: "lobby" }).catch(() => undefined);
        const play = stage?.stage?.play;
        if (!play) return undefined;
        const demo = await clients.playlist.catalogue.listSongs({ demo: true, limit: 100 });
        return demo.songs.some((song) => song.songId === play.song?.songId) ? stage.stage : undefined;
      },
      { timeoutMs: 120_000 },
    );
    const kept = JSON.parse(readFileSync(path.join(dir, "resident-dj.json"), "utf8")) as { botUuid: string };
    expect(playing!.play!.djUuid).toBe(kept.botUuid);
    expect(playing!.room!.name).toBe("Lobby");
  }, 180_000);
});
