// The room lists' data in memory (issue 29): GET /rooms/public, /rooms/promoted-rooms, /rooms/mine/list and
// /rooms/recent answer from a snapshot of the room table and the rooms' live summaries instead of two or three ORM
// queries a call (the profile: MikroORM's query building and hydration, and PostgreSQL's count and deep-offset scans,
// took most of a list call's time). The snapshot is every room as its wire message, with the orders the lists use,
// loaded in one typed statement. A change of a room this instance stores (a flush touching a room, a room's
// deletion) invalidates it: the next list call waits for a fresh one, so a caller reads their own change. Changes
// made through another instance show within about maxAgeMs: a list call finding the snapshot older than that has the
// room count and latest change (an index lookup) compared, and the snapshot reloaded in the background when they
// moved. A user's manager grants (mine) and visits (recent) are read by index and kept for maxAgeMs, forgotten when
// this instance stores a grant or records their visit. The live summaries (listeners, the song, the
// DJs) are the social service's, kept by a watch of its ROOM_LIVE_BUCKET
// (docs/decisions/0331-the-live-directory-cards-live-data-and-the-lists.md).
import { fromBinary } from "@bufbuild/protobuf";
import type { EventSubscriber, FlushEventArgs } from "@mikro-orm/core";
import type { MikroORM } from "@mikro-orm/postgresql";
import { compiledOnce, ROOM_LIVE_BUCKET, type Bus, type Subscription } from "@tt/kit";
import { RoomLiveSchema, type Room as RoomMessage, type RoomLive } from "@tt/proto/tt/room/v1/room_pb";
import type { Logger } from "pino";
import { autoCommitDb, db } from "../../db.ts";
import { Room } from "./room.entity.ts";
import { RoomUserRole } from "./room-user-role.entity.ts";
import { toRoomMessage } from "./room-store.ts";

/** How old the snapshot may get before a list call has it reloaded (changes made through other instances). */
export const DIRECTORY_MAX_AGE_MS = 1_000;

interface Entry {
  id: string;
  message: RoomMessage;
  isPublic: boolean;
  isLive: boolean;
  createdAt: number;
  promoted: boolean;
  promotedAt: number;
  ownerId: string;
  /** The name in lower case (the search). */
  name: string;
  providers: string[];
}

interface Snapshot {
  generation: number;
  /** When it was loaded or last found current. */
  loadedAt: number;
  /** The room count and latest change it was loaded at (fingerprint). */
  print: string;
  byId: Map<string, Entry>;
  /** Public rooms, live first, then newest. */
  publicOrder: Entry[];
  /** Public promoted rooms, newest promotion first. */
  promotedOrder: Entry[];
  /** Each owner's rooms, newest first. */
  byOwner: Map<string, Entry[]>;
}

export interface Page {
  rooms: RoomMessage[];
  total: number;
}

const newestFirst = (a: Entry, b: Entry) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
const time = (value: Date | string | null) => (value === null ? 0 : new Date(value).getTime());

const loadRooms = compiledOnce(autoCommitDb, (q, _p: Record<string, never>) =>
  q
    .selectFrom("room")
    .select([
      "id",
      "slug",
      "name",
      "description",
      "owner_id",
      "type",
      "design",
      "dj_type",
      "number_of_djs",
      "is_live",
      "live_audio",
      "pinned_messages",
      "poster_key",
      "external_url",
      "discord_guild",
      "guest_password_hash",
      "promoted",
      "promoted_at",
      "music_providers",
      "created_at",
      "updated_at",
      "conversation_cleared_at",
    ]),
);

/** How many rooms there are and their latest change: a snapshot with the same two is current. */
const fingerprint = compiledOnce(autoCommitDb, (q, _p: Record<string, never>) =>
  q.selectNoFrom((eb) => [
    eb
      .selectFrom("room")
      .select((e) => e.fn.countAll<string>().as("n"))
      .as("n"),
    eb
      .selectFrom("room")
      .select((e) => e.fn.max("updated_at").as("at"))
      .as("at"),
  ]),
);
const printOf = (row: { n: string | number | null; at: Date | string | null } | undefined) =>
  `${row?.n ?? 0}/${row?.at === null || row?.at === undefined ? "" : new Date(row.at).toISOString()}`;

const managerGrants = compiledOnce(db, (q, p: { userId: string; now: Date }) =>
  q
    .selectFrom("room_user_role")
    .select("room_id")
    .where("user_id", "=", p.userId)
    .where("role", "in", ["coOwner", "moderator"])
    .where((w) => w.or([w("expires_at", "is", null), w("expires_at", ">", p.now)]))
    .limit(1000),
);

const visitsOf = compiledOnce(db, (q, p: { userId: string; kept: number }) =>
  q
    .selectFrom("room_visit")
    .select(["room_id", "visited_at"])
    .where("user_id", "=", p.userId)
    .orderBy("visited_at", "desc")
    .orderBy("id", "desc")
    .limit(p.kept),
);

/** The users whose grants or visits are kept at most (beyond, all are forgotten at once). */
const USERS_KEPT = 10_000;

/** A per-user read kept for maxAgeMs (a failed read is not kept). */
class PerUser<T> {
  private readonly kept = new Map<string, { at: number; value: Promise<T> }>();

  constructor(private readonly maxAgeMs: number) {}

  get(userId: string, read: () => Promise<T>): Promise<T> {
    const hit = this.kept.get(userId);
    if (hit && Date.now() - hit.at <= this.maxAgeMs) return hit.value;
    if (this.kept.size >= USERS_KEPT) this.kept.clear();
    const value = read();
    const entry = { at: Date.now(), value };
    this.kept.set(userId, entry);
    value.catch(() => {
      if (this.kept.get(userId) === entry) this.kept.delete(userId);
    });
    return value;
  }

  forget(userId: string): void {
    this.kept.delete(userId);
  }

  clear(): void {
    this.kept.clear();
  }
}

export class Directory {
  /** Room uuid → its live summary (rooms with listeners or a song). */
  private readonly live = new Map<string, RoomLive>();
  private snapshot: Snapshot | undefined;
  private loading: { generation: number; snapshot: Promise<Snapshot> } | undefined;
  private generation = 0;
  private watch: Subscription | undefined;
  private checking = false;
  private readonly grants: PerUser<Set<string>>;
  private readonly visits: PerUser<{ roomId: string; visitedAt: Date }[]>;

  private constructor(
    private readonly orm: MikroORM,
    private readonly mediaBaseUrl: string,
    private readonly logger: Logger,
    private readonly maxAgeMs: number,
  ) {
    this.grants = new PerUser(maxAgeMs);
    this.visits = new PerUser(maxAgeMs);
  }

  /** The directory of this ORM's rooms; its live summaries come from `bus` (absent: none). */
  static async start(opts: {
    orm: MikroORM;
    bus?: Bus;
    mediaBaseUrl: string;
    logger: Logger;
    maxAgeMs?: number;
  }): Promise<Directory> {
    const directory = new Directory(opts.orm, opts.mediaBaseUrl, opts.logger, opts.maxAgeMs ?? DIRECTORY_MAX_AGE_MS);
    opts.orm.em.getEventManager().registerSubscriber(directory.subscriber());
    // Loaded now, so the first list call does not wait for it (a failure is retried by that call).
    directory.load().catch((err: unknown) => opts.logger.warn({ err }, "the room directory could not be loaded"));
    if (opts.bus) {
      const bucket = await opts.bus.kv(ROOM_LIVE_BUCKET);
      directory.watch = await bucket.watch((entry) => {
        const live = entry.operation === "PUT" ? fromBinary(RoomLiveSchema, entry.value) : undefined;
        if (live && (live.listeners > 0 || live.nowPlaying !== undefined)) directory.live.set(entry.key, live);
        else directory.live.delete(entry.key);
      });
    }
    return directory;
  }

  async close(): Promise<void> {
    await this.watch?.unsubscribe();
  }

  /** Forgets the snapshot: the next list call loads a fresh one. */
  invalidate(): void {
    this.generation++;
  }

  /** The user visited a room here (joined it, or recorded the visit): their recent rooms are read afresh. */
  visited(userId: string): void {
    this.visits.forget(userId);
  }

  /** The room's live summary, when it has listeners or a song. */
  liveOf(roomUuid: string): RoomLive | undefined {
    return this.live.get(roomUuid);
  }

  /** The directory: public rooms, live first then newest; `search` narrows by name (case-insensitive). */
  async publicRooms(search: string, limit: number, offset: number): Promise<Page> {
    const rooms = (await this.current()).publicOrder;
    const needle = search.toLowerCase();
    return this.page(needle ? rooms.filter((r) => r.name.includes(needle)) : rooms, limit, offset);
  }

  /** Public promoted rooms, newest promotion first, those playing from any of `providers` when given. */
  async promotedRooms(providers: string[], limit: number, offset: number): Promise<Page> {
    const rooms = (await this.current()).promotedOrder;
    return this.page(
      providers.length > 0 ? rooms.filter((r) => r.providers.some((p) => providers.includes(p))) : rooms,
      limit,
      offset,
    );
  }

  /** The rooms the user owns or manages (co-owner, moderator), newest first. */
  async myRooms(userId: string, limit: number, offset: number): Promise<Page> {
    const [snapshot, grants] = await Promise.all([
      this.current(),
      this.grants.get(userId, async () => {
        const rows = await managerGrants(this.orm.em.fork(), { userId, now: new Date() });
        return new Set(rows.map((r) => r.room_id));
      }),
    ]);
    const mine = new Map((snapshot.byOwner.get(userId) ?? []).map((r) => [r.id, r] as const));
    for (const roomId of grants) {
      const room = snapshot.byId.get(roomId);
      if (room) mine.set(room.id, room);
    }
    return this.page([...mine.values()].sort(newestFirst), limit, offset);
  }

  /** The rooms the user visited (the latest `kept` visits), latest first, with the time of each visit. */
  async visitedRooms(
    userId: string,
    kept: number,
    limit: number,
    offset: number,
  ): Promise<{ rooms: { room: RoomMessage; visitedAt: Date }[]; total: number }> {
    const [snapshot, visits] = await Promise.all([
      this.current(),
      this.visits.get(userId, async () =>
        (await visitsOf(this.orm.em.fork(), { userId, kept })).map((v) => ({
          roomId: v.room_id,
          visitedAt: new Date(v.visited_at),
        })),
      ),
    ]);
    const found = visits.flatMap((v) => {
      const room = snapshot.byId.get(v.roomId);
      return room ? [{ room, visitedAt: v.visitedAt }] : [];
    });
    return {
      rooms: found.slice(offset, offset + limit).map((f) => ({ room: this.withLive(f.room), visitedAt: f.visitedAt })),
      total: found.length,
    };
  }

  private page(rooms: Entry[], limit: number, offset: number): Page {
    return { rooms: rooms.slice(offset, offset + limit).map((r) => this.withLive(r)), total: rooms.length };
  }

  private withLive(room: Entry): RoomMessage {
    const live = this.live.get(room.id);
    return live ? { ...room.message, live } : room.message;
  }

  private current(): Promise<Snapshot> {
    const snapshot = this.snapshot;
    if (snapshot?.generation !== this.generation) return this.load();
    if (Date.now() - snapshot.loadedAt > this.maxAgeMs && !this.checking) {
      this.checking = true;
      this.refresh(snapshot)
        .catch((err: unknown) => this.logger.warn({ err }, "the room directory could not be reloaded"))
        .finally(() => (this.checking = false));
    }
    return Promise.resolve(snapshot);
  }

  /** Reloads the snapshot when a room was created, changed or deleted since it was loaded (by another instance). */
  private async refresh(snapshot: Snapshot): Promise<void> {
    const checkedAt = Date.now();
    const [print] = await fingerprint(this.orm.em.fork(), {});
    if (printOf(print) === snapshot.print) snapshot.loadedAt = checkedAt;
    else await this.load();
  }

  /** One load per generation at a time. */
  private load(): Promise<Snapshot> {
    const generation = this.generation;
    if (this.loading?.generation === generation) return this.loading.snapshot;
    const snapshot = this.read(generation).then(
      (loaded) => {
        if (!this.snapshot || this.snapshot.generation <= generation) this.snapshot = loaded;
        if (this.loading?.snapshot === snapshot) this.loading = undefined;
        return loaded;
      },
      (err: unknown) => {
        if (this.loading?.snapshot === snapshot) this.loading = undefined;
        throw err;
      },
    );
    this.loading = { generation, snapshot };
    return snapshot;
  }

  private async read(generation: number): Promise<Snapshot> {
    const loadedAt = Date.now();
    // The fingerprint first: a change made between the two statements makes the next check reload again.
    const em = this.orm.em.fork();
    const [print] = await fingerprint(em, {});
    const rows = await loadRooms(em, {});
    const byId = new Map<string, Entry>();
    const byOwner = new Map<string, Entry[]>();
    const publicOrder: Entry[] = [];
    const promotedOrder: Entry[] = [];
    for (const row of rows) {
      const entry: Entry = {
        id: row.id,
        message: toRoomMessage(
          {
            id: row.id,
            slug: row.slug,
            name: row.name,
            description: row.description,
            ownerId: row.owner_id,
            type: row.type,
            design: row.design,
            djType: row.dj_type,
            numberOfDjs: row.number_of_djs,
            isLive: row.is_live,
            liveAudio: row.live_audio,
            pinnedMessages: row.pinned_messages,
            posterKey: row.poster_key,
            externalUrl: row.external_url,
            discordGuild: row.discord_guild,
            guestPasswordHash: row.guest_password_hash,
            promoted: row.promoted,
            musicProviders: row.music_providers,
            createdAt: new Date(row.created_at),
            updatedAt: new Date(row.updated_at),
            conversationClearedAt: row.conversation_cleared_at ? new Date(row.conversation_cleared_at) : null,
          },
          this.mediaBaseUrl,
        ),
        isPublic: row.type === "PUBLIC",
        isLive: row.is_live,
        createdAt: time(row.created_at),
        promoted: row.promoted,
        promotedAt: time(row.promoted_at),
        ownerId: row.owner_id,
        name: row.name.toLowerCase(),
        providers: row.music_providers,
      };
      byId.set(entry.id, entry);
      const owned = byOwner.get(entry.ownerId);
      if (owned) owned.push(entry);
      else byOwner.set(entry.ownerId, [entry]);
      if (entry.isPublic) {
        publicOrder.push(entry);
        if (entry.promoted) promotedOrder.push(entry);
      }
    }
    publicOrder.sort((a, b) => Number(b.isLive) - Number(a.isLive) || newestFirst(a, b));
    promotedOrder.sort((a, b) => b.promotedAt - a.promotedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    for (const owned of byOwner.values()) owned.sort(newestFirst);
    return { generation, loadedAt, print: printOf(print), byId, publicOrder, promotedOrder, byOwner };
  }

  /**
   * Invalidates the snapshot after a flush that stores a room, and again when the transaction it ran in commits (a
   * flush inside a transaction is seen before the commit). A room's deletion (its own statements) calls invalidate().
   */
  private subscriber(): EventSubscriber {
    let inTransaction = 0;
    return {
      afterFlush: (args: FlushEventArgs) => {
        const sets = args.uow.getChangeSets();
        if (sets.some((cs) => cs.entity instanceof RoomUserRole)) this.grants.clear();
        if (!sets.some((cs) => cs.entity instanceof Room)) return;
        this.invalidate();
        if (args.em.isInTransaction()) inTransaction++;
      },
      afterTransactionCommit: () => {
        if (inTransaction === 0) return;
        inTransaction = 0;
        this.invalidate();
      },
    };
  }
}
