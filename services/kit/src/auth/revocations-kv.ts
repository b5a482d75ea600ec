// Session revocation over the bus key-value bucket: a revoke is visible in this process at once and in
// every other process as soon as the bucket's watch delivers it. The bucket's TTL is the longest token
// lifetime, so entries vanish by themselves once no token of the session could still be valid.
import type { Bus, KvBucket, KvEntry, Subscription } from "../bus/bus.ts";
import type { SessionRevocations } from "./revocations.ts";

export const REVOCATIONS_BUCKET = "tt-revoked-sessions";

export interface SessionRevocationsOptions {
  /** Bucket TTL: the longest access token lifetime (ACCESS_TOKEN_MAX_TTL_SECONDS). */
  ttlMs: number;
  /** How often expired local entries are dropped. Default one minute. */
  pruneIntervalMs?: number;
  /** Called after the local set changed because of the bucket (another process revoked, or an entry went). */
  onUpdate?: (sessionId: string) => void;
}

export interface ManagedSessionRevocations extends SessionRevocations {
  /** Opens the bucket and loads every current revocation; resolves once they are known locally. */
  start(): Promise<void>;
  close(): Promise<void>;
}

// NATS key-value keys allow only these characters; session ids are uuids, anything else is a caller bug.
const KEY_PATTERN = /^[-/_=.a-zA-Z0-9]+$/;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function createSessionRevocations(bus: Bus, opts: SessionRevocationsOptions): ManagedSessionRevocations {
  /** Session id → end of its revocation, epoch milliseconds. */
  const revoked = new Map<string, number>();
  let bucket: KvBucket | undefined;
  let watch: Subscription | undefined;
  let pruneTimer: NodeJS.Timeout | undefined;

  const apply = (entry: KvEntry) => {
    if (entry.operation !== "PUT") {
      revoked.delete(entry.key);
      opts.onUpdate?.(entry.key);
      return;
    }
    try {
      const { exp } = JSON.parse(decoder.decode(entry.value)) as { exp?: unknown };
      // A value we cannot read is still a revocation: refusing too much beats letting a session back in.
      const until = typeof exp === "number" ? exp * 1000 : Date.now() + opts.ttlMs;
      if (until > Date.now()) revoked.set(entry.key, Math.max(until, revoked.get(entry.key) ?? 0));
    } catch {
      revoked.set(entry.key, Date.now() + opts.ttlMs);
    }
    opts.onUpdate?.(entry.key);
  };

  const prune = () => {
    const now = Date.now();
    for (const [sid, until] of revoked) if (until <= now) revoked.delete(sid);
  };

  return {
    async start() {
      bucket = await bus.kv(REVOCATIONS_BUCKET, { ttlMs: opts.ttlMs });
      watch = await bucket.watch(apply, { includeCurrent: true });
      // The watch contract does not say when the current values have all arrived; read them outright so
      // start() resolving means every revocation made so far is enforced here.
      for (const key of await bucket.keys()) {
        const entry = await bucket.get(key);
        if (entry) apply(entry);
      }
      pruneTimer = setInterval(prune, opts.pruneIntervalMs ?? 60_000);
      pruneTimer.unref();
    },

    async revoke(sessionId, expiresAt) {
      if (!KEY_PATTERN.test(sessionId)) throw new Error(`session id ${JSON.stringify(sessionId)} is not a valid key`);
      const until = expiresAt.getTime();
      if (until <= Date.now()) return;
      revoked.set(sessionId, Math.max(until, revoked.get(sessionId) ?? 0));
      if (!bucket) throw new Error("session revocations not started");
      await bucket.put(sessionId, encoder.encode(JSON.stringify({ exp: Math.ceil(until / 1000) })));
    },

    isRevoked(sessionId) {
      const until = revoked.get(sessionId);
      if (until === undefined) return false;
      if (until > Date.now()) return true;
      revoked.delete(sessionId);
      return false;
    },

    async close() {
      clearInterval(pruneTimer);
      await watch?.unsubscribe();
      watch = undefined;
      bucket = undefined;
    },
  };
}
