// Who listens, across instances: each instance writes one entry per room it has listeners of into the key-value
// bucket `social-presence` (key `<roomUuid>.<instanceId>`: its signed-in listeners with their join times and its
// guest count), on every change and as a heartbeat; entries expire with the bucket's TTL, so a dead instance's
// listeners disappear by themselves. The union of a room's entries gives the listener counts, the dancefloor and
// who has an open stream (DJs without one step down after the grace period).
import type { Bus, KvBucket, KvEntry, Subscription } from "@tt/kit";

export const PRESENCE_BUCKET = "social-presence";
/** How long an instance's entry lives without a heartbeat. */
export const PRESENCE_TTL_MS = 15_000;
/** How often an instance rewrites its entries. */
export const PRESENCE_HEARTBEAT_MS = 5_000;

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

  private constructor(
    private readonly kv: KvBucket,
    readonly instanceId: string,
  ) {}

  static async open(bus: Bus, instanceId: string): Promise<PresenceStore> {
    const store = new PresenceStore(await bus.kv(PRESENCE_BUCKET, { ttlMs: PRESENCE_TTL_MS }), instanceId);
    store.watch = await store.kv.watch((e) => store.take(e), { key: ">", includeCurrent: true });
    return store;
  }

  /** Writes this instance's listeners of a room (none: the entry is removed). */
  async write(roomUuid: string, users: Map<string, number>, guests: number): Promise<void> {
    const key = `${roomUuid}.${this.instanceId}`;
    if (users.size === 0 && guests === 0) {
      this.set(roomUuid, this.instanceId, undefined);
      await this.kv.delete(key);
      return;
    }
    const entry: Entry = { users: [...users.entries()], guests, at: Date.now() };
    // Our own write counts at once; the watch brings the other instances'.
    this.set(roomUuid, this.instanceId, entry);
    await this.kv.put(key, new TextEncoder().encode(JSON.stringify(entry)));
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
