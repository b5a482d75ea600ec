// Who listens, across instances: each instance writes one entry per room it has listeners of into the key-value
// bucket `social-presence` (key `<roomUuid>.<instanceId>`: its signed-in listeners with their join times and its
// guest count), on every change and as a heartbeat; entries expire with the bucket's TTL, so a dead instance's
// listeners disappear by themselves. The union of a room's entries gives the listener counts, the dancefloor and
// who has an open stream (DJs without one step down after the grace period).
import type { Bus, KvBucket } from "@tt/kit";

export const PRESENCE_BUCKET = "social-presence";
/** How long an instance's entry lives without a heartbeat. */
export const PRESENCE_TTL_MS = 15_000;
/** How often an instance rewrites its entries. */
export const PRESENCE_HEARTBEAT_MS = 5_000;

interface Entry {
  /** [user uuid, joined at ms], one per user (the earliest of their streams on this instance). */
  users: [string, number][];
  guests: number;
}

export interface RoomPresence {
  /** Signed-in listeners by join time (earliest first), each once. */
  users: { user: string; joinedAt: number }[];
  guests: number;
}

export class PresenceStore {
  private constructor(
    private readonly kv: KvBucket,
    readonly instanceId: string,
  ) {}

  static async open(bus: Bus, instanceId: string): Promise<PresenceStore> {
    return new PresenceStore(await bus.kv(PRESENCE_BUCKET, { ttlMs: PRESENCE_TTL_MS }), instanceId);
  }

  /** Writes this instance's listeners of a room (none: the entry is removed). */
  async write(roomUuid: string, users: Map<string, number>, guests: number): Promise<void> {
    const key = `${roomUuid}.${this.instanceId}`;
    if (users.size === 0 && guests === 0) {
      await this.kv.delete(key);
      return;
    }
    const entry: Entry = { users: [...users.entries()], guests };
    await this.kv.put(key, new TextEncoder().encode(JSON.stringify(entry)));
  }

  /** The union of every instance's entry of the room. */
  async read(roomUuid: string): Promise<RoomPresence> {
    const keys = await this.kv.keys(`${roomUuid}.*`);
    const first = new Map<string, number>();
    let guests = 0;
    await Promise.all(
      keys.map(async (key) => {
        const entry = await this.kv.get(key);
        if (!entry || entry.operation !== "PUT") return;
        const value = JSON.parse(new TextDecoder().decode(entry.value)) as Entry;
        guests += value.guests;
        for (const [user, at] of value.users) {
          const known = first.get(user);
          if (known === undefined || at < known) first.set(user, at);
        }
      }),
    );
    const users = [...first.entries()]
      .map(([user, joinedAt]) => ({ user, joinedAt }))
      .sort((a, b) => a.joinedAt - b.joinedAt || a.user.localeCompare(b.user));
    return { users, guests };
  }
}
