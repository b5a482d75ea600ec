// The live stage at run time (issue 14): rooms resolved through the room service, the stages in the key-value store
// (store.ts), this instance's listeners (hub.ts) and their presence (presence.ts), and one driver per room this
// instance tracks. A driver holds or waits for the room's lease (a key with a TTL in `social-lease`): the holder runs
// the song timer, the rotation (the first DJ's queue top from the playlist service) and the presence reconciliation;
// when the holder dies its lease expires and another instance with the room takes over. Every change is a
// compare-and-set, so two instances never both advance the same song.
import { randomUUID } from "node:crypto";
import { create, fromBinary, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import DataLoader from "dataloader";
import type { MikroORM } from "@mikro-orm/postgresql";
import {
  BusUnavailableError,
  consumeEvents,
  isUuid,
  KvConflictError,
  ROOM_LIVE_BUCKET,
  publishEvent,
  type Bus,
  type DirectStream,
  type KvBucket,
  type Subscription,
} from "@tt/kit";
import type { CrateSong } from "@tt/proto/tt/playlist/v1/crate_pb";
import type { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import {
  RoomDeletedSchema,
  RoomSettingsChangedSchema,
  RoomUserBannedSchema,
  RoomUserKickedSchema,
} from "@tt/proto/tt/room/v1/events_pb";
import type { Room } from "@tt/proto/tt/room/v1/room_pb";
import type { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import type { RoomUserRoleService } from "@tt/proto/tt/room/v1/room_user_role_service_pb";
import { ChatEventSchema } from "@tt/proto/tt/social/v1/chat_pb";
import { PlayedSongSchema, SongPlayedSchema, SongStartedSchema } from "@tt/proto/tt/social/v1/events_pb";
import {
  RoomActivityKind,
  RoomActivitySchema,
  type KickedSchema,
  type Stage,
  type StagePlay,
} from "@tt/proto/tt/social/v1/stage_pb";
import type { JoinResponse } from "@tt/proto/tt/social/v1/stage_service_pb";
import type { Logger } from "pino";
import type { StageConfig } from "../../config.ts";
import {
  activitySubject,
  blocksSubject,
  chatUserSubject,
  kickSubject,
  presenceSubject,
  resetSubject,
  stagePatchSubject,
} from "../../subjects.ts";
import {
  DANCEFLOOR_CAP,
  listenersOf,
  roomActivities,
  type EndReason,
  type RoomSettings,
  type StageAction,
  type StageEffect,
} from "./domain.ts";
import { blockedByEach, roomSequence, roomSequences } from "../chat/chat-store.ts";
import { AdmissionBatches } from "./admission-batch.ts";
import { LastGood, OutageLog, roomServiceUnavailable, STALE_MAX_MS, unreachable } from "../last-good.ts";
import { Listener, outgoing, RoomHub } from "./hub.ts";
import { PRESENCE_HEARTBEAT_MS, PresenceStore, type RoomPresence } from "./presence.ts";
import { LiveSummaries } from "./live-summary.ts";
import { StageStore } from "./store.ts";

export interface StageRuntimeDeps {
  bus: Bus;
  orm: MikroORM;
  logger: Logger;
  config: StageConfig;
  rooms: Client<typeof RoomService>;
  roles: Client<typeof RoomUserRoleService>;
  crates: Client<typeof CrateService>;
}

/** A room as the stage knows it: its uuid and the settings the clients need. */
export interface ResolvedRoom {
  uuid: string;
  settings: RoomSettings;
}

/** The longest delay a Node timer holds (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * How long an admission (RoomService.AdmitToStage) is reused for a caller's stage actions and reads. A join always
 * asks afresh; a kick or ban of the user in the room forgets it at once on every instance.
 */
export const ADMISSION_CACHE_MS = 30_000;
/** The user of a `live.social.chat.user.<user>` subject. */
const USER_SUBJECT_PREFIX = chatUserSubject("");
const LEASE_BUCKET = "social-lease";
/** A non-holder ends a play this long after its end when the holder has not (it died and its lease has not expired). */
const BACKUP_END_MS = 1_500;
/**
 * The shortest time between two presence reconciliations of a room (joins in between are counted together): each is a
 * patch to every listener, so a big room gets fewer, at most PRESENCE_PATCHED_LISTENERS_PER_S / listeners a second
 * (1,000 listeners: 4 a second; 10,000: one).
 */
const PRESENCE_MIN_GAP_MS = 250;
const PRESENCE_MAX_GAP_MS = 1_000;
const PRESENCE_PATCHED_LISTENERS_PER_S = 10_000;

function presenceGap(stage: Stage): number {
  const gap = (1000 * listenersOf(stage)) / PRESENCE_PATCHED_LISTENERS_PER_S;
  return Math.min(PRESENCE_MAX_GAP_MS, Math.max(PRESENCE_MIN_GAP_MS, gap));
}
/**
 * How long after a change this instance's presence entry of a room is written (the changes in between go together):
 * 50 ms, longer in a room of many signed-in listeners, whose entry is the JSON of every one of them (10,000: about
 * 550 KB built a write), so that at most PRESENCE_WRITTEN_USERS_PER_S are written a second (10,000: every 500 ms). The
 * reconciliation reads a room of 10,000 once a second anyway (presenceGap).
 */
const PRESENCE_WRITE_DELAY_MS = 50;
const PRESENCE_WRITTEN_USERS_PER_S = 20_000;

function presenceWriteDelay(users: number): number {
  return Math.min(
    PRESENCE_MAX_GAP_MS,
    Math.max(PRESENCE_WRITE_DELAY_MS, (1000 * users) / PRESENCE_WRITTEN_USERS_PER_S),
  );
}
/** The most signed-in listeners whose blocks one statement reads. */
const BLOCKS_BATCH_MAX = 500;
/** How often a driver that could not reach NATS looks whether it is back (issue 28: no wait for a timeout). */
const BUS_RETRY_MS = 100;

const END_REASONS: Record<EndReason, string> = {
  ended: "ended",
  skipped: "dj-skip",
  moderatorSkipped: "moderator-skip",
  voteSkipped: "vote-skip",
  left: "dj-left",
  removed: "dj-left",
  room: "room-reset",
};

export function roomSettings(room: Room): RoomSettings {
  return {
    uuid: room.uuid,
    slug: room.slug,
    name: room.name,
    ownerUuid: room.ownerUuid,
    type: room.type,
    djType: room.djType,
    numberOfDjs: room.numberOfDjs,
    isLive: room.isLive,
    liveAudio: room.liveAudio,
    design: room.design,
    posterUrl: room.posterUrl,
  };
}

export class StageRuntime {
  private readonly hubs = new Map<string, { hub: RoomHub; refs: number }>();
  private readonly drivers = new Map<string, RoomDriver>();
  /**
   * Rooms by uuid and by slug: fresh for ROOM_CACHE_MS (unless `expired` by a settings change), then kept as the last
   * good answer, served for a public room while the room service cannot be reached (issue 28, STALE_MAX_MS).
   */
  private readonly roomCache = new Map<string, { room: ResolvedRoom; at: number; expired?: boolean }>();
  /** The last roles the room service gave, by `<roomUuid> <user or g:guest>` (admissions and rolesOf). */
  private readonly lastRoles = new LastGood<string[]>();
  /** The room service's outages, logged at most once a minute (made on first use: `deps` is set after the fields). */
  private outageLog?: OutageLog;
  /** The admissions asked of the room service, batched by room (made on first use, as outageLog). */
  private batches?: AdmissionBatches;
  /** NATS's outages as the rooms' drivers and presence writes meet them, logged at most once a minute. */
  private busOutageLog?: OutageLog;
  /** The signed-in listeners' blocks, read for the joins of a turn of the event loop together (made on first use). */
  private blockLoader?: DataLoader<string, Set<string>>;
  /** Admissions by `<roomUuid> <user or g:guest>`: the caller's roles in the room (null: not known, see admit). */
  private readonly admissions = new Map<string, { roles: string[] | null; at: number }>();
  /** This instance's join streams of signed-in users, by user (one wildcard subscription feeds their DMs). */
  private readonly userListeners = new Map<string, Set<Listener>>();
  private readonly presenceTimers = new Map<string, NodeJS.Timeout>();
  private readonly subscriptions: Subscription[] = [];
  private heartbeat: NodeJS.Timeout | null = null;
  private chatCheck: NodeJS.Timeout | null = null;
  private chatChecking = false;
  /** The database's outages while checking the rooms' chat, logged at most once a minute. */
  private chatCheckLog?: OutageLog;
  private nextListenerId = 1;
  private closed = false;

  private constructor(
    /** This instance's id (its presence entries and the leases it holds name it). */
    readonly instanceId: string,
    readonly deps: StageRuntimeDeps,
    readonly store: StageStore,
    readonly presence: PresenceStore,
    readonly leases: KvBucket,
  ) {}

  static async start(deps: StageRuntimeDeps): Promise<StageRuntime> {
    const id = randomUUID();
    const runtime = new StageRuntime(
      id,
      deps,
      await StageStore.open(
        deps.bus,
        deps.config.SOCIAL_STAGE_BUCKET,
        new LiveSummaries(await deps.bus.kv(ROOM_LIVE_BUCKET), deps.logger),
      ),
      await PresenceStore.open(deps.bus, id),
      await deps.bus.kv(LEASE_BUCKET, { ttlMs: deps.config.SOCIAL_LEASE_TTL_MS }),
    );
    await runtime.consumeRoomEvents();
    // A deleted room is forgotten by every instance at once (its stage must not be made again from a cached room).
    runtime.subscriptions.push(
      await deps.bus.subscribe(resetSubject("*"), () => {
        runtime.roomCache.clear();
        runtime.admissions.clear();
        runtime.lastRoles.clear();
      }),
      // A kicked or banned user's admissions are forgotten everywhere (their next action asks the room service).
      await deps.bus.subscribe(kickSubject("*"), (msg) => runtime.forgetAdmission(msg.subject, msg.data)),
      // One subscription for every signed-in listener's direct messages, routed here by user (not one per stream).
      await deps.bus.subscribe(chatUserSubject("*"), (msg) => runtime.onUserChat(msg.subject, msg.data)),
      // A user blocked someone or ended a block: their streams here follow.
      await deps.bus.subscribe(blocksSubject("*"), (msg) => runtime.onBlock(msg.subject, msg.data)),
    );
    runtime.heartbeat = setInterval(() => {
      for (const room of runtime.hubs.keys()) runtime.presenceChanged(room);
    }, PRESENCE_HEARTBEAT_MS);
    runtime.heartbeat.unref();
    runtime.chatCheck = setInterval(() => void runtime.checkChat(), deps.config.SOCIAL_CHAT_CHECK_MS);
    runtime.chatCheck.unref();
    return runtime;
  }

  /** Hands every room hub here the store's chat sequence of its room (hub.ts checkChat), in one query. */
  private async checkChat(): Promise<void> {
    if (this.chatChecking || this.hubs.size === 0) return;
    this.chatChecking = true;
    try {
      const stored = await roomSequences(this.deps.orm.em.fork(), [...this.hubs.keys()]);
      for (const [room, { hub }] of this.hubs) hub.checkChat(stored.get(room) ?? 0n);
    } catch (err) {
      (this.chatCheckLog ??= new OutageLog(this.logger)).warn({ err }, "could not read the rooms' chat sequences");
    } finally {
      this.chatChecking = false;
    }
  }

  get logger(): Logger {
    return this.deps.logger;
  }

  private get outage(): OutageLog {
    return (this.outageLog ??= new OutageLog(this.logger));
  }

  private get admissionBatches(): AdmissionBatches {
    return (this.batches ??= new AdmissionBatches(this.deps.rooms));
  }

  get busOutage(): OutageLog {
    return (this.busOutageLog ??= new OutageLog(this.logger));
  }

  // ---- rooms ----

  /**
   * A room by uuid or slug (the room service answers; cached briefly). 404 "Room not found". When the room service
   * cannot be reached, a public room is served as it was last known (at most STALE_MAX_MS old, issue 28) unless
   * `fresh`; a private room, or one never known, is a 503.
   */
  async resolveRoom(ref: string, signal?: AbortSignal, opts: { fresh?: boolean } = {}): Promise<ResolvedRoom> {
    const key = ref.toLowerCase();
    const cached = this.roomCache.get(key);
    const ttl = this.deps.config.SOCIAL_ROOM_CACHE_MS;
    if (cached && !cached.expired && !opts.fresh && Date.now() - cached.at < ttl) return cached.room;
    let room: Room | undefined;
    try {
      ({ room } = await this.deps.rooms.getServiceRoom({ id: ref }, { signal }));
    } catch (err) {
      if (!unreachable(err, signal)) throw err;
      // What this instance last had, else what the stage itself holds of a room (shared by every instance: a
      // replica that started during the outage knows the room from there).
      const stale =
        (cached && Date.now() - cached.at < STALE_MAX_MS ? cached.room : undefined) ??
        (opts.fresh ? undefined : await this.roomFromStage(key));
      if (stale && stale.settings.type !== "PRIVATE" && !opts.fresh) {
        this.outage.warn(
          { err, room: stale.uuid },
          "room service unreachable: public rooms go on from their last known settings",
        );
        return stale;
      }
      throw roomServiceUnavailable(err);
    }
    if (!room) throw new ConnectError("Room not found", Code.NotFound);
    const resolved = { uuid: room.uuid, settings: roomSettings(room) };
    const at = Date.now();
    if (this.roomCache.size > 100_000) this.roomCache.clear();
    this.roomCache.set(key, { room: resolved, at });
    this.roomCache.set(room.uuid, { room: resolved, at });
    return resolved;
  }

  /** The room's settings as its stage holds them (kept current by the room's events), by uuid; undefined when unknown. */
  async roomFromStage(roomUuid: string): Promise<ResolvedRoom | undefined> {
    if (!isUuid(roomUuid)) return undefined;
    const room = (await this.store.read(roomUuid).catch(() => null))?.stage.room;
    if (!room?.uuid) return undefined;
    const { $typeName: _, $unknown: __, ...settings } = room;
    return { uuid: room.uuid, settings };
  }

  /** The room as last known here, if it is public (a stale answer may be served for it). */
  private knownPublic(roomUuid: string): boolean {
    const cached = this.roomCache.get(roomUuid);
    return cached !== undefined && cached.room.settings.type !== "PRIVATE";
  }

  /**
   * Whether the caller may enter the room's stage (the room service decides: RoomService.AdmitToStage, as JoinRoom;
   * callers without a guest password are asked together with the room's other callers of the moment, in one
   * AdmitManyToStage call): the refusal (403 with its reason, 404) is thrown as the room service gave it. Answers the
   * caller's roles (when the room service could not be reached for a public room: the last roles it gave for the
   * caller, at most STALE_MAX_MS old, or null, and the room is then entered as a guest would). A private room fails
   * closed: 503 when the room service cannot answer. `fresh` asks even when a recent answer is kept (joins);
   * otherwise an open join stream of the caller on this instance, or an answer of the last ADMISSION_CACHE_MS, admits.
   */
  async admit(
    room: ResolvedRoom,
    caller: { user?: string; guest?: string },
    opts: { guestPassword?: string; fresh?: boolean; signal?: AbortSignal } = {},
  ): Promise<string[] | null> {
    const key = `${room.uuid} ${caller.user ?? `g:${caller.guest ?? ""}`}`;
    if (!opts.fresh) {
      const kept = this.admissions.get(key);
      if (kept && Date.now() - kept.at < ADMISSION_CACHE_MS) return kept.roles;
      if (!caller.user && this.joinedHere(room.uuid, caller)) return ["guest"];
    }
    let roles: string[] | null;
    try {
      // A guest password is checked (and its guesses counted) by AdmitToStage alone; the other callers of the room
      // asked at the same time go together (admission-batch.ts).
      ({ roles } = opts.guestPassword
        ? await this.deps.rooms.admitToStage(
            {
              room: room.uuid,
              userUuid: caller.user ?? "",
              guestSubject: caller.user ? "" : (caller.guest ?? ""),
              guestPassword: opts.guestPassword,
            },
            { signal: opts.signal },
          )
        : await this.admissionBatches.admit(room.uuid, caller, opts.signal));
    } catch (err) {
      const e = ConnectError.from(err);
      if (e.code === Code.PermissionDenied || e.code === Code.NotFound || e.code === Code.InvalidArgument) {
        this.admissions.delete(key);
        this.lastRoles.delete(key);
        throw new ConnectError(e.rawMessage, e.code);
      }
      // Too many password guesses (issue 23): the caller waits as the room service says, with its retry-after.
      if (e.code === Code.ResourceExhausted) {
        this.admissions.delete(key);
        const retryAfter = e.metadata.get("retry-after");
        throw new ConnectError(e.rawMessage, e.code, retryAfter ? { "retry-after": retryAfter } : undefined);
      }
      if (opts.signal?.aborted) throw e;
      if (room.settings.type === "PRIVATE") {
        this.logger.warn({ err, room: room.uuid }, "room service unreachable: a private room's stage is refused");
        throw new ConnectError(
          "The room service cannot be reached to admit you to this private room, try again shortly",
          Code.Unavailable,
        );
      }
      const last = this.lastRoles.get(key) ?? null;
      this.outage.warn(
        { err, room: room.uuid },
        "room service unreachable: public rooms' stages are entered with the last known roles, or none",
      );
      return last;
    }
    if (this.admissions.size > 100_000) this.admissions.clear();
    this.admissions.set(key, { roles, at: Date.now() });
    this.lastRoles.set(key, roles);
    return roles;
  }

  /** Whether the caller has an open join stream of the room on this instance (kicks end those). */
  private joinedHere(roomUuid: string, caller: { user?: string; guest?: string }): boolean {
    const hub = this.hubs.get(roomUuid)?.hub;
    const streams = caller.user ? hub?.byUser.get(caller.user) : hub?.byGuest.get(caller.guest ?? "");
    for (const l of streams ?? []) if (!l.ended) return true;
    return false;
  }

  private forgetAdmission(subject: string, data: Uint8Array): void {
    try {
      const room = subject.slice(kickSubject("").length);
      const { user } = JSON.parse(new TextDecoder().decode(data)) as { user: string };
      this.admissions.delete(`${room} ${user}`);
      this.lastRoles.delete(`${room} ${user}`);
    } catch {
      this.admissions.clear();
      this.lastRoles.clear();
    }
  }

  /** A direct-message event of a user: to their join streams on this instance, if any. */
  private onUserChat(subject: string, data: Uint8Array): void {
    const listeners = this.userListeners.get(subject.slice(USER_SUBJECT_PREFIX.length));
    if (!listeners) return;
    const chat = outgoing({ case: "chat", value: fromBinary(ChatEventSchema, data) });
    for (const l of listeners) l.send(chat);
  }

  /** The room's stage (created from its settings on first use). */
  async stageOf(room: ResolvedRoom): Promise<Stage> {
    return this.store.ensure(room.uuid, async () => room.settings);
  }

  /**
   * The caller's effective roles in the room (RoomRole wire names, the account's global role included). Asked every
   * time; when the room service cannot be reached, a public room's last answer for the caller (STALE_MAX_MS), else 503.
   */
  async rolesOf(roomUuid: string, user: string, signal?: AbortSignal): Promise<string[]> {
    const key = `${roomUuid} ${user}`;
    try {
      const { roles } = await this.deps.roles.getUserRoomRoles({ roomId: roomUuid, userId: user }, { signal });
      this.lastRoles.set(key, roles);
      return roles;
    } catch (err) {
      if (!unreachable(err, signal)) throw err;
      const last = this.knownPublic(roomUuid) ? this.lastRoles.get(key) : undefined;
      if (!last) throw roomServiceUnavailable(err);
      this.outage.warn(
        { err, room: roomUuid },
        "room service unreachable: public rooms go on with the last known roles",
      );
      return last;
    }
  }

  // ---- actions ----

  /**
   * Applies an action to a room's stage (compare-and-set), publishes its patch, writes its events and lets the
   * room's driver react (next song, timers).
   */
  async act(
    room: ResolvedRoom,
    action: StageAction | ((stage: Stage) => StageAction | null),
    opts: { by?: string } = {},
  ): Promise<Stage> {
    const result = await this.store.apply(room.uuid, action, { settings: async () => room.settings });
    if (result.changed) {
      await this.writeEvents(result.stage, result.effects, opts.by ?? "");
      this.track(room.uuid).poke();
    }
    return result.stage;
  }

  /**
   * Writes the played-song events of a change (outbox: SongStarted, SongPlayed) and announces to the room what was
   * not a natural song end (RoomActivity: skips, seats taken and left).
   */
  async writeEvents(stage: Stage, effects: StageEffect[], by: string): Promise<void> {
    if (effects.length === 0) return;
    await this.announce(stage.room?.uuid ?? "", roomActivities(effects, by));
    const plays = effects.filter((e) => e.kind === "songStarted" || e.kind === "songEnded");
    if (plays.length === 0) return;
    const room = stage.room!;
    const listeners = stage.listeners?.users ?? 0;
    const guests = stage.listeners?.guests ?? 0;
    try {
      await this.deps.orm.em.fork().transactional(async (em) => {
        for (const effect of plays) {
          const common = {
            roomUuid: room.uuid,
            roomSlug: room.slug,
            playId: effect.play.playId,
            djUuid: effect.play.djUuid,
            song: playedSong(effect.play.song),
            startedAt: effect.play.startedAt,
            roomOwnerUuid: room.ownerUuid,
            roomName: room.name,
            listeners,
            guests,
          };
          if (effect.kind === "songStarted") {
            publishEvent(em, SongStartedSchema, common);
          } else {
            const started = effect.play.startedAt ? timestampDate(effect.play.startedAt).getTime() : 0;
            const seconds = Math.max(0, (effect.endedAt.getTime() - started) / 1000);
            publishEvent(em, SongPlayedSchema, {
              ...common,
              endedAt: timestampFromDate(effect.endedAt),
              playedSeconds: effect.play.duration > 0 ? Math.min(seconds, effect.play.duration) : seconds,
              likes: effect.votes.likes,
              dislikes: effect.votes.dislikes,
              grabs: effect.votes.grabs,
              skipped: effect.reason !== "ended",
              endReason: END_REASONS[effect.reason],
              endedBy: effect.reason === "moderatorSkipped" || effect.reason === "removed" ? by : "",
            });
          }
        }
      });
    } catch (err) {
      // The stage has moved on; an event that could not be written is logged, never retried into a second play.
      this.logger.error({ err, room: room.uuid }, "could not write the stage's events");
    }
  }

  /** Sends room activities to every join stream of the room (on every instance; ephemeral, not stored). */
  async announce(roomUuid: string, activities: MessageInitShape<typeof RoomActivitySchema>[]): Promise<void> {
    if (!roomUuid) return;
    for (const activity of activities) {
      try {
        await this.deps.bus.publish(
          activitySubject(roomUuid),
          toBinary(RoomActivitySchema, create(RoomActivitySchema, activity)),
        );
      } catch (err) {
        this.logger.warn({ err, room: roomUuid }, "could not announce a room activity");
      }
    }
  }

  // ---- listeners ----

  /**
   * Opens a join stream: the full stage, then patches, chat, kicks and resets, until the caller leaves. With the
   * call's direct stream, everything after the state is written to it directly (hub.ts).
   */
  async *join(
    room: ResolvedRoom,
    caller: { user?: string; guest?: string },
    signal: AbortSignal,
    direct?: DirectStream,
  ): AsyncGenerator<JoinResponse> {
    // A hub held here read the room's stage: only a room's first join here makes sure it has one (a read of the bucket).
    if (!this.hubs.has(room.uuid)) await this.stageOf(room);
    const hub = await this.acquireHub(room.uuid);
    const listener = new Listener(this.nextListenerId++, caller.user, caller.guest, Date.now());
    const leave = async () => {
      hub.remove(listener);
      if (caller.user) {
        const mine = this.userListeners.get(caller.user);
        mine?.delete(listener);
        if (mine?.size === 0) this.userListeners.delete(caller.user);
      }
      this.presenceChanged(room.uuid);
      await this.releaseHub(room.uuid);
    };
    try {
      if (caller.user) {
        let mine = this.userListeners.get(caller.user);
        if (!mine) this.userListeners.set(caller.user, (mine = new Set()));
        mine.add(listener);
        await this.loadBlocks(listener);
      }
      hub.add(listener);
      this.presenceChanged(room.uuid);
      // Handed over to the kit after the first message when it can hold the call: the listener leaves when the call
      // is over.
      yield* listener.messages(signal, direct, () => {
        leave().catch((err: unknown) => this.logger.error({ err, room: room.uuid }, "a listener's leave failed"));
      });
    } finally {
      if (!listener.handedOver) await leave();
    }
  }

  private onBlock(subject: string, data: Uint8Array): void {
    try {
      const { blocked, on } = JSON.parse(new TextDecoder().decode(data)) as { blocked: string; on: boolean };
      for (const l of this.userListeners.get(subject.slice(blocksSubject("").length)) ?? []) {
        const next = new Set(l.blocked);
        if (on) next.add(blocked);
        else next.delete(blocked);
        l.blocked = next;
      }
    } catch (err) {
      this.logger.warn({ err, subject }, "undecodable block change ignored");
    }
  }

  /** Whom the listener's user blocked (their room chat is left out of the stream). */
  private async loadBlocks(listener: Listener): Promise<void> {
    if (!listener.user) return;
    try {
      // A burst of joins (10,000 listeners arriving) reads their blocks in a statement per turn, not one each.
      this.blockLoader ??= new DataLoader((users) => blockedByEach(this.deps.orm.em.fork(), users), {
        cache: false,
        maxBatchSize: BLOCKS_BATCH_MAX,
        batchScheduleFn: (flush) => setImmediate(flush),
      });
      listener.blocked = await this.blockLoader.load(listener.user);
    } catch (err) {
      this.logger.warn({ err, user: listener.user }, "could not read the listener's blocks");
    }
  }

  private async acquireHub(roomUuid: string): Promise<RoomHub> {
    let held = this.hubs.get(roomUuid);
    if (!held) {
      const hub = new RoomHub(
        roomUuid,
        this.deps.bus,
        async () => (await this.store.read(roomUuid))?.stage ?? Promise.reject(new Error("the room has no stage")),
        (err) => this.logger.warn({ err, room: roomUuid }, "stage hub could not resync"),
        [
          [kickSubject(roomUuid), (data) => this.onKick(roomUuid, data)],
          [resetSubject(roomUuid), (data) => hub.reset(new TextDecoder().decode(data) || "restarted")],
          [
            activitySubject(roomUuid),
            (data) => hub.broadcast(outgoing({ case: "activity", value: fromBinary(RoomActivitySchema, data) })),
          ],
        ],
        () => roomSequence(this.deps.orm.em.fork(), roomUuid),
      );
      held = { hub, refs: 0 };
      this.hubs.set(roomUuid, held);
      this.track(roomUuid);
    }
    held.refs += 1;
    try {
      await held.hub.ready;
    } catch (err) {
      await this.releaseHub(roomUuid);
      throw err;
    }
    return held.hub;
  }

  private async releaseHub(roomUuid: string): Promise<void> {
    const held = this.hubs.get(roomUuid);
    if (!held) return;
    held.refs -= 1;
    if (held.refs > 0) return;
    this.hubs.delete(roomUuid);
    await held.hub.close();
  }

  private onKick(roomUuid: string, data: Uint8Array): void {
    const kick = JSON.parse(new TextDecoder().decode(data)) as {
      user: string;
      until?: string;
      by: string;
      reason: string;
    };
    const value: MessageInitShape<typeof KickedSchema> = {
      room: roomUuid,
      by: kick.by,
      reason: kick.reason,
      ...(kick.until ? { until: timestampFromDate(new Date(kick.until)) } : {}),
    };
    this.hubs.get(roomUuid)?.hub.kick(kick.user, value);
  }

  /** This instance's listeners of a room changed: its presence entry is rewritten soon (debounced). */
  presenceChanged(roomUuid: string): void {
    if (this.closed || this.presenceTimers.has(roomUuid)) return;
    const users = this.hubs.get(roomUuid)?.hub.byUser.size ?? 0;
    const timer = setTimeout(() => {
      this.presenceTimers.delete(roomUuid);
      void this.writePresence(roomUuid);
    }, presenceWriteDelay(users));
    this.presenceTimers.set(roomUuid, timer);
  }

  private async writePresence(roomUuid: string): Promise<void> {
    const hub = this.hubs.get(roomUuid)?.hub;
    const users = new Map<string, number>();
    for (const [user, streams] of hub?.byUser ?? []) {
      let first = Infinity;
      for (const l of streams) first = Math.min(first, l.joinedAt);
      users.set(user, first);
    }
    try {
      await this.presence.write(roomUuid, users, hub?.byGuest.size ?? 0);
      await this.deps.bus.publish(presenceSubject(roomUuid), new Uint8Array());
    } catch (err) {
      if (this.closed) return;
      // While NATS is away every heartbeat fails: said once a minute, not once per room and heartbeat.
      if (err instanceof BusUnavailableError) {
        this.busOutage.warn(
          { err, room: roomUuid },
          "NATS cannot be reached: presence is written again when it is back",
        );
      } else this.logger.warn({ err, room: roomUuid }, "could not write the room's presence");
    }
  }

  /** The room's listeners across instances. */
  async listeners(roomUuid: string): Promise<RoomPresence> {
    return this.presence.read(roomUuid);
  }

  /** The rooms a signed-in user listens to now across instances (room uuid, first join), earliest first. */
  roomsOfUser(user: string): { room: string; joinedAt: number }[] {
    return this.presence.roomsOf(user);
  }

  // ---- drivers ----

  /** The driver of a room this instance tracks (started when missing). */
  track(roomUuid: string): RoomDriver {
    let driver = this.drivers.get(roomUuid);
    if (!driver) {
      driver = new RoomDriver(this, roomUuid);
      this.drivers.set(roomUuid, driver);
      driver.start();
    }
    return driver;
  }

  /**
   * Whether this instance has listeners of the room, joining ones included: a join takes the hub (which starts the
   * room's driver) before it adds its listener, and a driver that looked in between stopped for good, so a
   * survivor never took a dead holder's song timer over (issue 14, tests/e2e/social-instances.e2e.test.ts).
   */
  hasListeners(roomUuid: string): boolean {
    const held = this.hubs.get(roomUuid);
    return held !== undefined && (held.refs > 0 || held.hub.listeners.size > 0);
  }

  /** This instance's listeners of the room get the stored stage if their hub fell behind (after a NATS outage). */
  catchUpHub(roomUuid: string): void {
    void this.hubs.get(roomUuid)?.hub.catchUp();
  }

  dropDriver(roomUuid: string, driver: RoomDriver): void {
    if (this.drivers.get(roomUuid) === driver) this.drivers.delete(roomUuid);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  // ---- room events ----

  private async consumeRoomEvents(): Promise<void> {
    const { bus, orm, logger } = this.deps;
    // The bus keeps another deployment's consumers apart (issue 23): the names are the service's own.
    const opts = (name: string) => ({ durable: `social-stage-${name}`, orm, logger, deliver: "new" as const });
    this.subscriptions.push(
      await consumeEvents(
        bus,
        RoomSettingsChangedSchema,
        async (event) => {
          // Every room asks afresh (a slug may have changed), each kept as its last good answer meanwhile.
          for (const entry of this.roomCache.values()) entry.expired = true;
          if (!(await this.store.read(event.roomUuid))) return;
          const room = await this.resolveRoom(event.roomUuid, undefined, { fresh: true });
          await this.act(room, { kind: "room", room: room.settings });
        },
        opts("settings"),
      ),
      await consumeEvents(
        bus,
        RoomUserKickedSchema,
        (event) => this.kickOut(event.roomUuid, event.userUuid, event.until, event.kickedBy, "kicked"),
        opts("kicked"),
      ),
      await consumeEvents(
        bus,
        RoomUserBannedSchema,
        (event) => this.kickOut(event.roomUuid, event.userUuid, event.until, event.bannedBy, "banned"),
        opts("banned"),
      ),
      await consumeEvents(
        bus,
        RoomDeletedSchema,
        async (event) => {
          this.roomCache.clear();
          await this.store.remove(event.roomUuid);
          await bus.publish(resetSubject(event.roomUuid), new TextEncoder().encode("deleted"));
        },
        opts("deleted"),
      ),
    );
  }

  /** A kicked or banned user: their streams get `kicked` and end, and they leave their seat. */
  private async kickOut(
    roomUuid: string,
    user: string,
    until: Timestamp | undefined,
    by: string,
    reason: string,
  ): Promise<void> {
    const kick = { user, by, reason, ...(until ? { until: timestampDate(until).toISOString() } : {}) };
    // The room is told when the user was in it (a listener on any instance; read before their streams end).
    const present = await this.presence.read(roomUuid).catch(() => null);
    await this.deps.bus.publish(kickSubject(roomUuid), new TextEncoder().encode(JSON.stringify(kick)));
    if (present?.users.some((u) => u.user === user)) {
      await this.announce(roomUuid, [
        {
          kind: reason === "banned" ? RoomActivityKind.BANNED : RoomActivityKind.KICKED,
          userUuid: user,
          byUuid: by,
        },
      ]);
    }
    const current = await this.store.read(roomUuid);
    if (!current?.stage.seats.some((s) => s.userUuid === user)) return;
    const result = await this.store.apply(roomUuid, (stage) =>
      stage.seats.some((s) => s.userUuid === user) ? { kind: "removeFromSeat", user } : null,
    );
    if (result.changed) {
      await this.writeEvents(result.stage, result.effects, by);
      this.track(roomUuid).poke();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.chatCheck) clearInterval(this.chatCheck);
    for (const t of this.presenceTimers.values()) clearTimeout(t);
    await Promise.all([...this.drivers.values()].map((d) => d.stop(true)));
    await Promise.all([...this.hubs.values()].map((h) => h.hub.close()));
    for (const room of this.hubs.keys()) await this.presence.write(room, new Map(), 0).catch(() => undefined);
    await this.presence.close();
    this.store.close();
    this.hubs.clear();
    await Promise.all(this.subscriptions.map((s) => s.unsubscribe()));
  }
}

/**
 * One room on this instance: holds (or waits for) the room's lease; the holder ends plays on time, starts the next
 * DJ's song, steps down DJs with an empty queue and reconciles presence. A non-holder only ends a play that is well
 * past its end (its holder died), by compare-and-set.
 */
export class RoomDriver {
  private holder = false;
  private leaseRevision = 0;
  private tickTimer: NodeJS.Timeout | null = null;
  private endTimer: NodeJS.Timeout | null = null;
  /** Looks whether NATS is back, while it cannot be reached (issue 28). */
  private busTimer: NodeJS.Timeout | null = null;
  /** Since when this driver could not reach NATS (ms), or null. */
  private unreachableSince: number | null = null;
  /**
   * A song taken from the first DJ's queue whose start could not be written (NATS away): started when NATS is back,
   * rather than taking the next one (which would pass this one over: the take moved it to the back of the queue).
   */
  private pendingStart: { dj: string; song: CrateSong; playId: string } | null = null;
  private running = false;
  private again = false;
  private stopped = false;
  private lastPresence = 0;
  private presenceDirty = true;
  private subscriptions: Subscription[] = [];

  constructor(
    private readonly runtime: StageRuntime,
    private readonly roomUuid: string,
  ) {}

  start(): void {
    const every = Math.max(100, Math.floor(this.runtime.deps.config.SOCIAL_LEASE_TTL_MS / 4));
    this.tickTimer = setInterval(() => this.poke(), every);
    void (async () => {
      try {
        const bus = this.runtime.deps.bus;
        const subs = await Promise.all([
          bus.subscribe(stagePatchSubject(this.roomUuid), () => this.poke()),
          bus.subscribe(presenceSubject(this.roomUuid), () => {
            this.presenceDirty = true;
            this.poke();
          }),
        ]);
        if (this.stopped) await Promise.all(subs.map((s) => s.unsubscribe()));
        else this.subscriptions = subs;
      } catch (err) {
        this.runtime.logger.warn({ err, room: this.roomUuid }, "stage driver could not subscribe");
      }
    })();
    this.poke();
  }

  /** Re-evaluates the room soon (at most one evaluation at a time). */
  poke(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.evaluate()
      .then(() => {
        if (this.unreachableSince === null) return;
        this.runtime.logger.info(
          { room: this.roomUuid, outageMs: Date.now() - this.unreachableSince },
          "NATS is back: the stage driver caught up",
        );
        this.unreachableSince = null;
        this.runtime.catchUpHub(this.roomUuid);
      })
      .catch((err: unknown) => {
        if (this.stopped) return;
        if (err instanceof BusUnavailableError) {
          this.unreachableSince ??= Date.now();
          this.runtime.busOutage.warn(
            { err, room: this.roomUuid },
            "NATS cannot be reached: the stage drivers keep time and catch up when it is back",
          );
          this.retryWhenBusIsBack();
          return;
        }
        this.runtime.logger.warn({ err, room: this.roomUuid }, "stage driver failed");
      })
      .finally(() => {
        this.running = false;
        if (this.again && !this.stopped) {
          this.again = false;
          this.poke();
        }
      });
  }

  /**
   * NATS could not be reached: the room is evaluated again as soon as the bus is connected (looked at every
   * BUS_RETRY_MS, without asking NATS), not at the next tick or after a request's timeout. A song that ended
   * meanwhile is then ended at once, and the next one starts: late by the outage, not more.
   */
  private retryWhenBusIsBack(): void {
    if (this.busTimer || this.stopped) return;
    const look = async () => {
      this.busTimer = null;
      if (this.stopped) return;
      if (await this.runtime.deps.bus.healthy()) this.poke();
      else this.busTimer = setTimeout(() => void look(), BUS_RETRY_MS);
    };
    this.busTimer = setTimeout(() => void look(), BUS_RETRY_MS);
  }

  private async evaluate(): Promise<void> {
    await this.lease();
    const { store, deps } = this.runtime;
    const now = Date.now();
    const current = await store.read(this.roomUuid);
    if (!current) {
      if (!this.runtime.hasListeners(this.roomUuid)) await this.stop(false);
      return;
    }
    let stage = current.stage;
    if (this.holder) {
      const interval = deps.config.SOCIAL_PRESENCE_INTERVAL_MS;
      // A burst of joins is reconciled at most every presenceGap (one patch for many joins).
      const since = now - this.lastPresence;
      if ((this.presenceDirty && since >= Math.min(presenceGap(stage), interval)) || since >= interval) {
        this.presenceDirty = false;
        this.lastPresence = now;
        stage = await this.reconcilePresence();
      }
      if (stage.play && now >= playEnd(stage.play)) {
        stage = await this.apply({ kind: "endSong", playId: stage.play.playId });
      }
      if (!stage.play && stage.seats.length > 0) stage = await this.advance();
      this.scheduleEnd(stage.play);
      const idle = !stage.play && stage.seats.length === 0;
      if (idle && !this.runtime.hasListeners(this.roomUuid)) await this.stop(true);
    } else {
      if (stage.play && now >= playEnd(stage.play) + BACKUP_END_MS) {
        await this.apply({ kind: "endSong", playId: stage.play.playId });
      }
      if (!this.runtime.hasListeners(this.roomUuid)) await this.stop(false);
    }
  }

  private async apply(action: StageAction, by = ""): Promise<Stage> {
    const result = await this.runtime.store.apply(this.roomUuid, action);
    if (result.changed) await this.runtime.writeEvents(result.stage, result.effects, by);
    return result.stage;
  }

  /** The first DJ plays the top of their queue; a DJ with an empty queue steps down, and the next one is asked. */
  private async advance(): Promise<Stage> {
    const { store, deps } = this.runtime;
    for (let i = 0; i < 20; i++) {
      const current = await store.read(this.roomUuid);
      if (!current) throw new Error("the room has no stage");
      const stage = current.stage;
      // A start kept from before an outage is dropped once something else plays or another DJ is first.
      if (stage.play || this.pendingStart?.dj !== stage.seats[0]?.userUuid) this.pendingStart = null;
      if (stage.play || stage.seats.length === 0 || !this.holder) return stage;
      const dj = stage.seats[0]!.userUuid;
      if (!this.pendingStart) {
        const { song } = await deps.crates.serviceTakeQueueSong({ userUuid: dj });
        if (!song) {
          await this.apply({ kind: "stepDown", user: dj });
          continue;
        }
        this.pendingStart = { dj, song, playId: randomUUID() };
      }
      const started = await this.apply({ kind: "startSong", ...this.pendingStart });
      this.pendingStart = null;
      return started;
    }
    return (await store.read(this.roomUuid))!.stage;
  }

  private async reconcilePresence(): Promise<Stage> {
    const presence = await this.runtime.presence.read(this.roomUuid);
    return this.apply({
      kind: "presence",
      users: presence.users.length,
      guests: presence.guests,
      dancefloor: presence.users.slice(0, DANCEFLOOR_CAP).map((u) => u.user),
      present: new Set(presence.users.map((u) => u.user)),
      graceMs: this.runtime.deps.config.SOCIAL_DJ_GRACE_MS,
    });
  }

  private scheduleEnd(play: StagePlay | undefined): void {
    if (this.endTimer) clearTimeout(this.endTimer);
    this.endTimer = null;
    if (!play) return;
    // A song's duration is whatever its DJ's crate says (seconds, unbounded): a timer longer than Node can hold
    // would fire at once (TimeoutOverflowWarning, then 1 ms, then again: a busy loop). It fires at the longest
    // possible delay instead and is armed again.
    const delay = Math.min(Math.max(0, playEnd(play) - Date.now()) + 5, MAX_TIMER_MS);
    this.endTimer = setTimeout(() => this.poke(), delay);
  }

  /**
   * Takes, renews or loses the room's lease. A holder acts only in an evaluation whose renewal succeeded: while NATS
   * cannot be reached the renewal fails (BusUnavailableError) and nothing is written, and when NATS is back a lease
   * that expired meanwhile is lost (its revision is gone) and taken again only if no other instance took it first
   * (issue 28).
   */
  private async lease(): Promise<void> {
    const leases = this.runtime.leases;
    const me = this.runtime.instanceId;
    try {
      if (this.holder) {
        try {
          this.leaseRevision = await leases.update(this.roomUuid, new TextEncoder().encode(me), this.leaseRevision);
          return;
        } catch (err) {
          if (!(err instanceof KvConflictError)) throw err;
          this.holder = false;
        }
      }
      const entry = await leases.get(this.roomUuid);
      if (entry) {
        // Ours after all (a renewal whose answer was lost with the connection): renewed from its revision.
        if (new TextDecoder().decode(entry.value) === me) {
          this.leaseRevision = await leases.update(this.roomUuid, entry.value, entry.revision);
          this.holder = true;
        }
        return;
      }
      this.leaseRevision = await leases.create(this.roomUuid, new TextEncoder().encode(me));
      this.holder = true;
      this.presenceDirty = true;
    } catch (err) {
      if (!(err instanceof KvConflictError)) throw err;
      this.holder = false;
    }
  }

  async stop(release: boolean): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.tickTimer) clearInterval(this.tickTimer);
    if (this.endTimer) clearTimeout(this.endTimer);
    if (this.busTimer) clearTimeout(this.busTimer);
    this.runtime.dropDriver(this.roomUuid, this);
    if (release && this.holder) {
      this.holder = false;
      await this.runtime.leases.delete(this.roomUuid).catch(() => undefined);
    }
    await Promise.all(this.subscriptions.map((s) => s.unsubscribe().catch(() => undefined)));
    this.subscriptions = [];
  }
}

/** When a play ends (ms): its start plus its duration (at least a second, so a song without one still ends). */
function playEnd(play: StagePlay): number {
  const start = play.startedAt ? timestampDate(play.startedAt).getTime() : 0;
  return start + Math.max(1, play.duration) * 1000;
}

function playedSong(song: CrateSong | undefined) {
  if (!song) return create(PlayedSongSchema, {});
  return create(PlayedSongSchema, {
    songId: song.songId,
    crateSongUuid: song.crateSongUuid,
    title: song.trackName,
    artist: song.artistName,
    duration: song.duration,
    isrc: song.isrc,
    explicit: song.explicit,
    musicProviders: song.musicProviders,
    thumbnails: song.thumbnails,
    genre: song.genre,
    albumName: song.albumName,
    releaseYear: song.releaseYear,
    songShortId: song.songShortId,
  });
}
