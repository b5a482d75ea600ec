// Stale-while-error for what the social service asks the room service (issue 28): when the room service cannot be
// reached, a public room goes on from the last answer this instance had (its settings, a caller's roles), for a
// bounded time, and says so in the log at most once a minute. Only "could not be reached" counts (Unavailable,
// DeadlineExceeded): NotFound, PermissionDenied and the like are answers and are passed on as they are.
import { Code, ConnectError } from "@connectrpc/connect";
import type { Logger } from "pino";

/** The longest a last good answer is served while the room service cannot be reached. */
export const STALE_MAX_MS = 10 * 60_000;
/** At most one log line per outage and this period. */
const OUTAGE_LOG_MS = 60_000;
const LAST_GOOD_MAX = 50_000;

/** Whether a call to another service failed for want of reaching it (not an answer), and not by the caller's abort. */
export function unreachable(err: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return false;
  const { code } = ConnectError.from(err);
  return code === Code.Unavailable || code === Code.DeadlineExceeded;
}

/** The last good answers by key, each served for at most STALE_MAX_MS after it was received. */
export class LastGood<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();

  set(key: string, value: V): void {
    if (this.entries.size >= LAST_GOOD_MAX) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.delete(key);
    this.entries.set(key, { value, at: Date.now() });
  }

  /** The answer received at most STALE_MAX_MS ago, or undefined. */
  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (Date.now() - hit.at > STALE_MAX_MS) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

/** A warning logged at most once a minute (an outage's every call must not flood the log). */
export class OutageLog {
  private last = -Infinity;
  constructor(private readonly logger: Logger | undefined) {}

  warn(fields: Record<string, unknown>, message: string): void {
    const now = Date.now();
    if (now - this.last < OUTAGE_LOG_MS) return;
    this.last = now;
    this.logger?.warn(fields, message);
  }
}

/** The 503 a caller gets when the room service cannot be reached and nothing may be served in its stead. */
export function roomServiceUnavailable(cause: unknown): ConnectError {
  return new ConnectError(
    "The room service cannot be reached, try again shortly",
    Code.Unavailable,
    undefined,
    undefined,
    cause,
  );
}
