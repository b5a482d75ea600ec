// Who listens, across instances: each instance writes its listeners of each room into the key-value bucket
// `social-presence` (key `<roomUuid>.<instanceId>`: its signed-in listeners with their join times and its guest
// count), on every change and as a heartbeat; entries expire with the bucket's TTL, so a dead instance's listeners
// disappear by themselves. Many signed-in listeners are split into pages (`<roomUuid>.<instanceId>.<page>`, a user's
// page by a hash of their uuid), so an entry stays far below a NATS message's limit (1 MB by default) and a join
// rewrites one page, not the whole room. The union of a room's entries gives the listener counts, the dancefloor and
// who has an open stream (DJs without one step down after the grace period).
import type { Bus, KvBucket, KvEntry, Subscription } from "@tt/kit";

export const PRESENCE_BUCKET = "social-presence";
/** How long an instance's entry lives without a heartbeat. */
export const PRESENCE_TTL_MS = 15_000;
/** How often an instance rewrites its entries. */
export const PRESENCE_HEARTBEAT_MS = 5_000;
/** Signed-in listeners per page of an instance's entry of a room (2,000 users are about 110 KB of JSON). */
export const PRESENCE_PAGE_USERS = 2_000;

/** The page of a user among `pages`: a hash of the uuid, so a user stays on their page while the count holds. */
function pageOf(user: string, pages: number): number {
  let h = 0;
  for (let i = 0; i < user.length; i++) h = (Math.imul(h, 31) + user.charCodeAt(i)) | 0;
  return (h >>> 0) % pages;
}

interface Entry {
  /** [user uuid, joined at ms], one per user (the earliest of their streams on this instance). */
  users: [string, number][];
  guests: number;
  /** When the writing instance wrote it (ms): an entry older than PRESENCE_TTL_MS is a dead instance's. */
  at?: number;
}

export interface RoomPresence {
  /** Signed-in listeners by join time (earliest first), each once. */
  users: { user: string; joinedAt: number }[];
  guests: number;
}

/**
 * Reads come from a watch of the whole bucket that this store follows from its start (every instance's entries by
 * room), never from listing keys: listing keys (a JetStream consumer that ends when nothing is pending) did not end
 * while a burst of joins kept writing, and the room's driver waited on it for good (bench:stage, 300+ listeners).
 */
export class PresenceStore {
  /** room uuid → writing instance → its entry. */
  private readonly rooms = new Map<string, Map<string, Entry>>();
  private watch: Subscription | undefined;

  /** What this instance last put under each of its keys (the users and guests, without `at`), and when. */
  private readonly written = new Map<string, { body: string; at: number }>();
  /** How many pages this instance last wrote for each room. */
  private readonly pagesOf = new Map<string, number>();

  private constructor(
    private readonly kv: KvBucket,
    readonly instanceId: string,
    private readonly pageUsers: number,
  ) {}

  static async open(bus: Bus, instanceId: string, pageUsers = PRESENCE_PAGE_USERS): Promise<PresenceStore> {
    const kv = await bus.kv(PRESENCE_BUCKET, { ttlMs: PRESENCE_TTL_MS });
    const store = new PresenceStore(kv, instanceId, pageUsers);
    store.watch = await store.kv.watch((e) => store.take(e), { key: ">", includeCurrent: true });
    return store;
  }

  /**
   * Writes this instance's listeners of a room (none: its entries are removed). A page is put when it changed or
   * when its last put is a heartbeat old (the bucket's TTL would drop it otherwise).
   */
  async write(roomUuid: string, users: Map<string, number>, guests: number): Promise<void> {
    const pages = users.size === 0 && guests === 0 ? 0 : Math.max(1, Math.ceil(users.size / this.pageUsers));
    const split = Array.from({ length: pages }, () => [] as [string, number][]);
    for (const entry of users) split[pageOf(entry[0], pages)]!.push(entry);
    const now = Date.now();
    const puts: Promise<unknown>[] = [];
    for (let page = 0; page < pages; page++) {
      const writer = this.writerOf(page);
      const key = `${roomUuid}.${writer}`;
      const entry: Entry = { users: split[page]!, guests: page === 0 ? guests : 0 };
      const body = JSON.stringify(entry);
      const last = this.written.get(key);
      if (last?.body === body && now - last.at < PRESENCE_HEARTBEAT_MS) continue;
      this.written.set(key, { body, at: now });
      entry.at = now;
      // Our own write counts at once; the watch brings the other instances'.
      this.set(roomUuid, writer, entry);
      // The entry as JSON is the body with `at` added last (the body is an object: it ends with "}").
      puts.push(this.kv.put(key, new TextEncoder().encode(`${body.slice(0, -1)},"at":${now}}`)));
    }
    for (let page = pages; page < (this.pagesOf.get(roomUuid) ?? 0); page++) {
      const writer = this.writerOf(page);
      this.written.delete(`${roomUuid}.${writer}`);
      this.set(roomUuid, writer, undefined);
      puts.push(this.kv.delete(`${roomUuid}.${writer}`));
    }
    if (pages === 0) this.pagesOf.delete(roomUuid);
    else this.pagesOf.set(roomUuid, pages);
    await Promise.all(puts);
  }

  /** Who writes a page of this instance's entry of a room: the instance for the first, `<instance>.<page>` after. */
  private writerOf(page: number): string {
    return page === 0 ? this.instanceId : `${this.instanceId}.${page}`;
  }

  /** The union of every live instance's entry of the room. */
  async read(roomUuid: string): Promise<RoomPresence> {
    const first = new Map<string, number>();
    let guests = 0;
    const oldest = Date.now() - PRESENCE_TTL_MS;
    for (const entry of this.rooms.get(roomUuid)?.values() ?? []) {
      if (entry.at !== undefined && entry.at < oldest) continue;
      guests += entry.guests;
      for (const [user, at] of entry.users) {
        const known = first.get(user);
        if (known === undefined || at < known) first.set(user, at);
      }
    }
    const users = [...first.entries()]
      .map(([user, joinedAt]) => ({ user, joinedAt }))
      .sort((a, b) => a.joinedAt - b.joinedAt || a.user.localeCompare(b.user));
    return { users, guests };
  }

  /**
   * The rooms where a user has an open stream on any live instance, with the earliest join time of each, earliest
   * first. Looks through every room this store follows (the whole bucket): the profile page's "in <room> now".
   */
  roomsOf(user: string): { room: string; joinedAt: number }[] {
    const found: { room: string; joinedAt: number }[] = [];
    const oldest = Date.now() - PRESENCE_TTL_MS;
    for (const [room, instances] of this.rooms) {
      let first: number | undefined;
      for (const entry of instances.values()) {
        if (entry.at !== undefined && entry.at < oldest) continue;
        for (const [listener, at] of entry.users) {
          if (listener === user && (first === undefined || at < first)) first = at;
        }
      }
      if (first !== undefined) found.push({ room, joinedAt: first });
    }
    return found.sort((a, b) => a.joinedAt - b.joinedAt || a.room.localeCompare(b.room));
  }

  async close(): Promise<void> {
    await this.watch?.unsubscribe();
  }

  private take(e: KvEntry): void {
    const dot = e.key.indexOf(".");
    if (dot <= 0) return;
    const room = e.key.slice(0, dot);
    const instance = e.key.slice(dot + 1);
    if (e.operation !== "PUT") {
      this.set(room, instance, undefined);
      return;
    }
    try {
      this.set(room, instance, JSON.parse(new TextDecoder().decode(e.value)) as Entry);
    } catch {
      // Not an entry this store wrote: leave it out.
    }
  }

  private set(room: string, instance: string, entry: Entry | undefined): void {
    let instances = this.rooms.get(room);
    if (!entry) {
      instances?.delete(instance);
      if (instances?.size === 0) this.rooms.delete(room);
      return;
    }
    if (!instances) this.rooms.set(room, (instances = new Map()));
    instances.set(instance, entry);
  }
}
