// Transactional outbox: an event that must not be lost is written as a row in the same database transaction
// as the business change, and a relay publishes it to a durable stream afterwards. The row id is the
// JetStream msgId, so a relay that dies between publishing and marking the row republishes it next round
// and the stream stores it once (within the stream's duplicate window, two minutes by default).
import { randomUUID } from "node:crypto";
import { defineEntity, LockMode, p } from "@mikro-orm/core";
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import type { Bus } from "./bus.ts";
import { defaultBusLogger, type BusLogger } from "./bus-logger.ts";
import { validateSubject } from "./subject.ts";

export const OutboxMessageSchema = defineEntity({
  name: "OutboxMessage",
  properties: {
    // A uuid, not a serial: it is the msgId, and services sharing a stream must never reuse one.
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    // Insertion order: events of one transaction share a timestamp, and uuids are random.
    seq: p.bigint("number").autoincrement().unique(),
    subject: p.string().length(255),
    payload: p.uint8array(),
    headers: p.json<Record<string, string>>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    publishedAt: p.datetime().nullable().index(),
  },
});

export class OutboxMessage extends OutboxMessageSchema.class {}
OutboxMessageSchema.setClass(OutboxMessage);

/**
 * Adds an event to the outbox. Call it with the EntityManager of the transaction that makes the business
 * change (inside `em.transactional`), so the event is stored exactly when the change commits.
 */
export function enqueue(
  em: EntityManager,
  subject: string,
  data: Uint8Array,
  headers?: Record<string, string>,
): OutboxMessage {
  validateSubject(subject);
  return em.create(OutboxMessage, { subject, payload: data, headers: headers ?? null });
}

/**
 * Publishes up to `batchSize` unpublished rows, oldest first, and marks them. Stops at the first failed
 * publish, so events leave in order and the failed one is the first of the next round. Rows locked by
 * another relay (another replica) are skipped. Returns how many were published.
 */
export async function relayOutboxOnce(orm: MikroORM, bus: Bus, batchSize = 100, logger?: BusLogger): Promise<number> {
  return orm.em.fork().transactional(async (em) => {
    const rows = await em.find(
      OutboxMessage,
      { publishedAt: null },
      { orderBy: { seq: "asc" }, limit: batchSize, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
    );
    let published = 0;
    for (const row of rows) {
      try {
        await bus.publishDurable(row.subject, row.payload, { msgId: row.id, headers: row.headers ?? undefined });
      } catch (err) {
        logger?.warn({ err, id: row.id, subject: row.subject }, "outbox publish failed; retrying next round");
        break;
      }
      row.publishedAt = new Date();
      published++;
    }
    return published;
  });
}

export interface OutboxRelayOptions {
  orm: MikroORM;
  bus: Bus;
  /** Aborting stops the relay after the round in progress. */
  signal: AbortSignal;
  /** Rows per round (one transaction); default 100. */
  batchSize?: number;
  /** Pause between rounds that found nothing (or failed); default 500. */
  intervalMs?: number;
  /** Published rows older than this are deleted; default one day. */
  keepPublishedMs?: number;
  logger?: BusLogger;
}

export interface OutboxRelay {
  /** Starts a round now instead of at the end of the pause (call after committing an enqueue). */
  wake(): void;
  /** Settles when the relay has stopped after `signal` aborted. */
  stopped: Promise<void>;
}

export function startOutboxRelay(opts: OutboxRelayOptions): OutboxRelay {
  const { orm, bus, signal } = opts;
  const batchSize = opts.batchSize ?? 100;
  const intervalMs = opts.intervalMs ?? 500;
  const keepPublishedMs = opts.keepPublishedMs ?? 86_400_000;
  const logger = opts.logger ?? defaultBusLogger();
  let wake: (() => void) | undefined;
  let woken = false;

  const pause = () =>
    new Promise<void>((resolve) => {
      if (woken || signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, intervalMs);
      signal.addEventListener("abort", done);
      wake = done;
    });

  const stopped = (async () => {
    let lastCleanup = 0;
    while (!signal.aborted) {
      woken = false;
      let published = 0;
      try {
        published = await relayOutboxOnce(orm, bus, batchSize, logger);
        if (Date.now() - lastCleanup > Math.min(keepPublishedMs, 3_600_000)) {
          lastCleanup = Date.now();
          await orm.em
            .fork()
            .nativeDelete(OutboxMessage, { publishedAt: { $lt: new Date(Date.now() - keepPublishedMs) } });
        }
      } catch (err) {
        logger.error({ err }, "outbox relay round failed");
      }
      // A full batch means more may be waiting: go again at once.
      if (published < batchSize) await pause();
    }
  })();

  return {
    wake() {
      woken = true;
      wake?.();
    },
    stopped,
  };
}
