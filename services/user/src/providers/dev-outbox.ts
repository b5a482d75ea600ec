// Where e-mails and SMS land when no real sender is configured, so sign-up and phone codes can be tried
// on a laptop. The interface is what a table-backed outbox and an admin RPC need, nothing more.
import { randomUUID } from "node:crypto";

export type DevOutboxChannel = "email" | "sms";

export interface DevOutboxMessage {
  channel: DevOutboxChannel;
  to: string;
  subject?: string;
  body: string;
}

export interface DevOutboxEntry extends DevOutboxMessage {
  id: string;
  createdAt: Date;
}

export interface DevOutbox {
  add(message: DevOutboxMessage): Promise<DevOutboxEntry>;
  /** Newest first; `to` matches the recipient exactly. */
  list(query: { to?: string; limit: number }): Promise<DevOutboxEntry[]>;
}

export const DEFAULT_DEV_OUTBOX_CAPACITY = 500;

/** Keeps the newest `capacity` messages in memory; older ones are dropped, as a dev tool may. */
export function createInMemoryDevOutbox(options: { capacity?: number; now?: () => Date } = {}): DevOutbox {
  const capacity = options.capacity ?? DEFAULT_DEV_OUTBOX_CAPACITY;
  const now = options.now ?? (() => new Date());
  if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError("capacity must be a positive integer");
  // Oldest first, so adding is a push and trimming a shift.
  const entries: DevOutboxEntry[] = [];
  return {
    async add(message) {
      const entry: DevOutboxEntry = { ...message, id: randomUUID(), createdAt: now() };
      entries.push(entry);
      if (entries.length > capacity) entries.shift();
      return { ...entry };
    },
    async list({ to, limit }) {
      const found: DevOutboxEntry[] = [];
      for (let i = entries.length - 1; i >= 0 && found.length < limit; i--) {
        const entry = entries[i]!;
        if (to === undefined || entry.to === to) found.push({ ...entry });
      }
      return found;
    },
  };
}
