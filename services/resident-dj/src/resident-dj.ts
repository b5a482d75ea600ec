// The resident DJ: a bot made with the bot kit (@tt/bot) and nothing else of the platform's — the public API, a
// bot token from the public bot sign-up, as a third party's bot would. It keeps a room (the Lobby) open: its
// owner (a person's account: given, or signed up by the resident DJ itself with a generated password kept in a
// state file) makes the room when there is none and hands it to the bot as co-owner; the bot queues the demo songs
// (and a crate of its owner's when named), takes a seat when the booth is empty, steps down when two other DJs
// play, greets each newcomer once, and answers `@<nickname> help`. Any failure is logged and the whole setup is
// tried again with growing pauses: it never takes the platform down. See docs/bots.md and
// docs/decisions/0318-the-resident-djs-owner-and-state.md.
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { Code, ConnectError } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import {
  createBotTransport,
  createPlatformClients,
  signIn,
  signUpBot,
  type Bot,
  type PlatformClients,
  type Protocol,
  type RoomSession,
} from "@tt/bot";
import type { ChatMessage } from "@tt/proto/tt/social/v1/chat_pb";
import type { Stage } from "@tt/proto/tt/social/v1/stage_pb";
import type { Logger } from "pino";

export interface ResidentDjOptions {
  /** The platform's address (the gateway). */
  baseUrl: string;
  logger: Logger;
  /** The room's name (default "Lobby"). */
  room?: string;
  /** The bot's nickname (default "Resident"). */
  nickname?: string;
  /** The name of a public crate of the owner whose songs are queued besides the demo songs. */
  crate?: string;
  /** The owner's account; without it one is generated and kept in `stateFile`. */
  owner?: { email: string; password: string };
  /** Where generated owner credentials and the bot's uuid are kept (JSON). */
  stateFile?: string;
  protocol?: Protocol;
  /** How often the queue and the seat are checked again besides the stage's changes (default 30 s). */
  tickMs?: number;
}

export interface ResidentDj {
  /** The bot's uuid once it is signed in. */
  botUuid(): string | undefined;
  /** The room's uuid once it is known. */
  roomUuid(): string | undefined;
  /** Stops the bot (leaves the room's stream; the seat is kept until the platform frees it). */
  close(): Promise<void>;
}

interface State {
  ownerEmail?: string;
  ownerPassword?: string;
  botUuid?: string;
}

/** The owner has no bot yet: it signs one up. */
class NoBotYet extends Error {}

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 60_000;
/** While nothing is queued yet (the demo songs are still being made), the queue is filled again this often. */
const EMPTY_QUEUE_TICK_MS = 3000;

export function helpText(nickname: string, room: string): string {
  return (
    `I'm ${nickname}, the resident DJ of the ${room}: I play the demo songs while the booth is empty and step down ` +
    `when two DJs are playing. Take a seat to play your own music, and like the songs you enjoy.`
  );
}

export function startResidentDj(options: ResidentDjOptions): ResidentDj {
  const log = options.logger;
  const roomName = options.room ?? "Lobby";
  const nickname = options.nickname ?? "Resident";
  const tickMs = options.tickMs ?? 30_000;
  const stop = new AbortController();
  let bot: Bot | undefined;
  let session: RoomSession | undefined;
  let roomUuid: string | undefined;
  let tick: ReturnType<typeof setTimeout> | undefined;
  /** Users already in the room or greeted (per process: a rejoin or a reconnect greets nobody twice). */
  const seen = new Set<string>();
  let firstStage = true;
  let acting = false;
  let queued = 0;
  let ownerUuidOf = "";
  /** Set when the session ended for good (kick, refusal): the loop then starts over. */
  let ended: ((reason: string) => void) | undefined;

  // Made before anything can stop it: an "abort" listener added after close() would never be called.
  const stopped = new Promise<"closed">((resolve) =>
    stop.signal.addEventListener("abort", () => resolve("closed"), { once: true }),
  );
  const sleep = async (ms: number) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([new Promise((resolve) => (timer = setTimeout(resolve, ms))), stopped]);
    clearTimeout(timer);
  };
  const kitLog = (message: string, error?: unknown) => log.warn({ err: error }, `resident DJ: ${message}`);

  const clientsWith = (token: string): PlatformClients =>
    createPlatformClients(
      createBotTransport({ baseUrl: options.baseUrl, protocol: options.protocol, token: () => token }),
    );

  async function readState(): Promise<State> {
    if (!options.stateFile) return {};
    try {
      return JSON.parse(await readFile(options.stateFile, "utf8")) as State;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
      throw err;
    }
  }

  async function writeState(state: State): Promise<void> {
    if (!options.stateFile) return;
    await mkdir(path.dirname(options.stateFile), { recursive: true });
    const temporary = `${options.stateFile}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(state, null, 2) + "\n", { mode: 0o600 });
    await rename(temporary, options.stateFile);
  }

  /** The owner's user token: log in, or sign the account up the first time. */
  async function ownerToken(state: State): Promise<string> {
    let email = options.owner?.email ?? state.ownerEmail;
    let password = options.owner?.password ?? state.ownerPassword;
    if (!email || !password) {
      if (!options.stateFile) throw new Error("the resident DJ needs its owner's e-mail and password, or a state file");
      email = `resident-dj-${randomBytes(6).toString("hex")}@example.com`;
      password = randomBytes(24).toString("base64url");
      Object.assign(state, { ownerEmail: email, ownerPassword: password });
      await writeState(state);
      log.info({ email }, "resident DJ: generated its owner's account");
    }
    // Log-in and sign-up carry no token at all.
    const anonymous = createPlatformClients(
      options.protocol === "grpc"
        ? createGrpcTransport({ baseUrl: options.baseUrl })
        : createConnectTransport({ baseUrl: options.baseUrl, httpVersion: "1.1" }),
    );
    try {
      const answer = await anonymous.user.auth.login({ email, password });
      if (answer.accessToken?.token) return answer.accessToken.token;
    } catch (err) {
      const code = err instanceof ConnectError ? err.code : undefined;
      if (code !== Code.Unauthenticated && code !== Code.NotFound && code !== Code.PermissionDenied) throw err;
    }
    const signedUp = await anonymous.user.auth.signUp({ email, password });
    if (!signedUp.accessToken?.token) throw new Error("sign-up answered without a token");
    log.info({ email, owner: signedUp.user?.uuid }, "resident DJ: signed up its owner");
    return signedUp.accessToken.token;
  }

  /** The owner's room of that name, made when there is none. */
  async function ownRoom(owner: PlatformClients) {
    for (let offset = 0; ; offset += 100) {
      const page = await owner.room.room.listOwnedRooms({ limit: 100, offset });
      const found = page.rooms.find((room) => room.name === roomName);
      if (found) return found;
      if (page.rooms.length < 100) break;
    }
    const created = (await owner.room.room.createRoom({ name: roomName, description: "Music all day: join in." })).room;
    if (!created) throw new Error("CreateRoom answered without the room");
    log.info({ room: created.uuid, slug: created.slug }, "resident DJ: its owner made the room");
    return created;
  }

  /** A token of the owner's bot: the one in the state file, or a co-owner of the room that is the owner's bot, or a new one. */
  async function botToken(owner: PlatformClients, state: State, room: string): Promise<string> {
    const coOwners = (await owner.room.roles.listRoomRoles({ roomId: room, role: "coOwner", limit: 100 })).roles.map(
      (grant) => grant.userUuid,
    );
    for (const uuid of new Set([state.botUuid, ...coOwners].filter((u): u is string => !!u))) {
      try {
        const token = (await owner.user.account.getBotToken({ uuid })).accessToken?.token;
        if (token) return token;
      } catch (err) {
        // Not the owner's bot (403) or gone (404): look further.
        if (!(err instanceof ConnectError) || ![Code.PermissionDenied, Code.NotFound].includes(err.code)) throw err;
      }
    }
    throw new NoBotYet();
  }

  /** Adds the demo songs (and the named crate's) that are not in the bot's queue yet; answers the queue's length. */
  async function fillQueue(b: Bot, ownerUuid: string): Promise<number> {
    const inQueue = new Set<string>();
    for (let offset = 0; ; offset += 300) {
      const page = await b.clients.playlist.crate.listQueueSongs({ limit: 300, offset });
      for (const song of page.songs) inQueue.add(song.songId);
      if (page.songs.length < 300) break;
    }
    const wanted: string[] = [];
    const demo = await b.clients.playlist.catalogue.listSongs({ demo: true, limit: 100 });
    wanted.push(...demo.songs.map((song) => song.songId));
    if (options.crate) {
      const crates = await b.clients.playlist.crate.listUserCrates({ userUuid: ownerUuid, limit: 100 });
      const crate = crates.crates.find((c) => c.crateName === options.crate);
      if (crate) {
        const songs = await b.clients.playlist.crate.listCrateSongs({ crateUuid: crate.crateUuid, limit: 300 });
        wanted.push(...songs.songs.map((song) => song.songId));
      } else log.warn({ crate: options.crate }, "resident DJ: its owner has no public crate of that name");
    }
    const missing = [...new Set(wanted)].filter((id) => id && !inQueue.has(id));
    if (missing.length > 0) {
      await b.queueSongs(missing.map((songId) => ({ songId })));
      log.info({ added: missing.length }, "resident DJ: queued songs");
    }
    return inQueue.size + missing.length;
  }

  /** Takes a seat when the booth is empty; steps down when two others are playing. */
  async function reconcile(stage: Stage | undefined) {
    const b = bot;
    const s = session;
    if (!b || !s || !stage || acting || stop.signal.aborted) return;
    const mine = stage.seats.some((seat) => seat.userUuid === b.uuid);
    const others = stage.seats.filter((seat) => seat.userUuid !== b.uuid).length;
    let act: (() => Promise<Stage | undefined>) | undefined;
    let done = "";
    if (!mine && stage.seats.length === 0 && queued > 0) {
      act = () => s.takeSeat();
      done = "took a seat (the booth was empty)";
    } else if (mine && others >= 2) {
      act = () => s.leaveSeat();
      done = "stepped down (two DJs are playing)";
    }
    if (!act) return;
    acting = true;
    let after: Stage | undefined;
    try {
      after = await act();
      log.info({ room: roomUuid }, `resident DJ: ${done}`);
    } catch (err) {
      // Already seated or already gone (a call of an earlier moment): nothing to do.
      if (!(err instanceof ConnectError && [Code.AlreadyExists, Code.NotFound].includes(err.code)))
        log.warn({ err }, "resident DJ: taking or leaving a seat failed; trying again on the next change");
    } finally {
      acting = false;
    }
    // The stage may have moved on while the call ran: the call's answer, or the latest the stream brought.
    const latest = s.stage();
    void reconcile(after && (!latest || after.version >= latest.version) ? after : latest);
  }

  /** Greets the signed-in listeners who came since the bot did (the dancefloor's first 50), once each. */
  async function greet(stage: Stage) {
    const b = bot;
    const s = session;
    if (!b || !s) return;
    const fresh = stage.dancefloor.filter((uuid) => uuid !== b.uuid && !seen.has(uuid));
    for (const uuid of fresh) seen.add(uuid);
    if (firstStage) {
      // Whoever was here before the bot came is not a newcomer to it.
      firstStage = false;
      return;
    }
    if (fresh.length === 0) return;
    try {
      const profiles = (await b.clients.user.profile.getProfiles({ users: fresh })).profiles;
      for (const profile of profiles) {
        await s.say(
          `Welcome to the ${roomName}, @${profile.nickname}! Take a seat to play, or say "@${b.nickname} help".`,
        );
        log.info({ user: profile.uuid }, "resident DJ: greeted a newcomer");
      }
    } catch (err) {
      log.warn({ err }, "resident DJ: greeting a newcomer failed");
    }
  }

  async function answer(message: ChatMessage, s: RoomSession) {
    if (!/\bhelp\b/i.test(message.message)) return;
    await s.say(`@${message.userName} ${helpText(bot?.nickname ?? nickname, roomName)}`);
    log.info({ user: message.userUuid }, "resident DJ: answered a call for help");
  }

  const scheduleTick = (ms: number) => {
    clearTimeout(tick);
    if (stop.signal.aborted) return;
    tick = setTimeout(() => void onTick(), ms);
    tick.unref?.();
  };

  async function onTick() {
    const b = bot;
    if (!b || stop.signal.aborted) return;
    try {
      queued = await fillQueue(b, ownerUuidOf);
    } catch (err) {
      log.warn({ err }, "resident DJ: filling its queue failed");
    }
    await reconcile(session?.stage());
    scheduleTick(queued > 0 ? tickMs : EMPTY_QUEUE_TICK_MS);
  }

  /** One run: owner, room, bot, queue, join; resolves when the session ended for good (or on close). */
  async function runOnce() {
    const state = await readState();
    const ownerTokenValue = await ownerToken(state);
    const owner = clientsWith(ownerTokenValue);
    ownerUuidOf = (await owner.user.auth.getSession({})).user?.uuid ?? "";
    const room = await ownRoom(owner);
    roomUuid = room.uuid;
    let token: string;
    try {
      token = await botToken(owner, state, room.uuid);
    } catch (err) {
      if (!(err instanceof NoBotYet)) throw err;
      const made = await signUpBot({
        baseUrl: options.baseUrl,
        protocol: options.protocol,
        ownerToken: ownerTokenValue,
        nickname,
      });
      state.botUuid = made.user.uuid;
      await writeState(state);
      log.info({ bot: made.user.uuid, nickname }, "resident DJ: its owner signed up the bot");
      token = made.token;
    }
    const b = await signIn({ baseUrl: options.baseUrl, protocol: options.protocol, token, log: kitLog });
    if (state.botUuid !== b.uuid) {
      state.botUuid = b.uuid;
      await writeState(state);
    }
    // Granting a role the bot holds already only renews it: the same call on every start.
    await owner.room.roles.grantRoomRole({ roomId: room.uuid, userId: b.uuid, role: "coOwner" });
    bot = b;
    if (stop.signal.aborted) return b.close();

    const done = new Promise<string>((resolve) => (ended = resolve));
    session = b.join(room.uuid, {
      onStage: (stage) => {
        void greet(stage);
        void reconcile(stage);
      },
      onMention: answer,
      onKicked: (kicked) => ended?.(`kicked (${kicked.reason})`),
      onRefused: (error) => ended?.(`refused (${error.rawMessage})`),
      onRejoin: (reason) => log.info({ reason }, "resident DJ: rejoined the room"),
      log: kitLog,
    });
    log.info({ room: room.uuid, slug: room.slug, bot: b.uuid }, "resident DJ: joined the room");
    await onTick();
    const reason = await Promise.race([done, stopped]);
    clearTimeout(tick);
    session.close();
    b.close();
    session = undefined;
    bot = undefined;
    if (reason !== "closed") throw new Error(`the room session ended: ${reason}`);
  }

  const loop = (async () => {
    let pause = FIRST_RETRY_MS;
    while (!stop.signal.aborted) {
      const started = Date.now();
      try {
        await runOnce();
      } catch (err) {
        if (stop.signal.aborted) break;
        // A run that lasted a while was a success that ended: start over from the shortest pause.
        if (Date.now() - started > MAX_RETRY_MS) pause = FIRST_RETRY_MS;
        log.error({ err, retryInMs: pause }, "resident DJ: failed; trying again");
        await sleep(pause);
        pause = Math.min(MAX_RETRY_MS, pause * 2);
      }
    }
  })();

  return {
    botUuid: () => bot?.uuid,
    roomUuid: () => roomUuid,
    async close() {
      stop.abort();
      clearTimeout(tick);
      await loop;
    },
  };
}
