// Analytics ingest: POST /kinesis answers once its event is stored in a JetStream stream; a durable consumer
// writes the stream to PostgreSQL. Accepted events are grouped while a stream publish is in flight (group
// commit: no timer, one event alone leaves at once), so one stream message — and later one INSERT — carries
// many events under load.
import type { MikroORM } from "@mikro-orm/postgresql";
import { jsonRows, type Bus, type BusLogger, type StreamOptions, type Subscription } from "@tt/kit";
import { autoCommitDb } from "../../db.ts";

/** One accepted event as it travels in the stream and lands in `analytics_event`. */
export interface AcceptedEvent {
  id: string;
  topic: string;
  record: Record<string, unknown>;
  platform: string;
  is_discord: boolean;
  is_logged_in: boolean;
  user_uuid: string | null;
  created_at: string;
}

/** The stored columns of an accepted event, with their PostgreSQL types (the batch insert's one jsonb parameter). */
const STORED_TYPES = {
  id: "uuid",
  topic: "varchar(40)",
  record: "jsonb",
  platform: "varchar(10)",
  is_discord: "boolean",
  is_logged_in: "boolean",
  user_uuid: "uuid",
  created_at: "timestamptz",
} as const satisfies Record<keyof AcceptedEvent, string>;
const STORED = Object.keys(STORED_TYPES) as (keyof typeof STORED_TYPES)[];

export interface AnalyticsIngest {
  readonly stream: string;
  readonly subject: string;
  /** Resolves once the event is stored in the stream (it reaches PostgreSQL soon after). */
  accept(event: AcceptedEvent): Promise<void>;
  /** Starts the writer (the durable consumer). */
  startWriter(orm: MikroORM, durable: string): Promise<Subscription>;
  /** Waits for the publishes under way. */
  close(): Promise<void>;
}

interface Pending {
  event: AcceptedEvent;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** The analytics stream, over `audit-analytics.>`. */
export const ANALYTICS_STREAM = "AUDIT_ANALYTICS";
export const ANALYTICS_SUBJECT_PREFIX = "audit-analytics";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function createAnalyticsIngest(
  bus: Bus,
  name: string,
  batchSize: number,
  logger: BusLogger,
  /** The stream's retention (docs/decisions/0192-audit-analytics-keeps-a-week-and-1-gib.md). */
  limits: StreamOptions = {},
): AnalyticsIngest {
  // The deployment's own stream (the bus namespaces it, issue 23); the writer reads this subject only.
  const stream = ANALYTICS_STREAM;
  const subject = `${ANALYTICS_SUBJECT_PREFIX}.${name}`;
  let ready: Promise<void> | undefined;
  const queue: Pending[] = [];
  let flushing: Promise<void> | undefined;

  const ensure = () => {
    ready ??= bus.ensureStream(stream, [`${ANALYTICS_SUBJECT_PREFIX}.>`], limits).catch((err: unknown) => {
      ready = undefined;
      throw err;
    });
    return ready;
  };

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0, batchSize);
      try {
        await ensure();
        const data = encoder.encode(JSON.stringify(batch.map((p) => p.event)));
        // The first event's id deduplicates a batch the client library retried.
        await bus.publishDurable(subject, data, { msgId: batch[0]?.event.id });
        for (const p of batch) p.resolve();
      } catch (err) {
        for (const p of batch) p.reject(err);
      }
    }
  }

  return {
    stream,
    subject,
    accept(event) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ event, resolve, reject });
        flushing ??= drain().finally(() => {
          flushing = undefined;
        });
      });
    },
    async startWriter(orm, durable) {
      await ensure();
      return bus.consume(
        stream,
        durable,
        async (m) => {
          let rows: unknown;
          try {
            rows = JSON.parse(decoder.decode(m.data));
          } catch (err) {
            logger.error({ err, seq: m.seq }, "undecodable analytics batch dropped");
            return;
          }
          if (!Array.isArray(rows) || rows.length === 0) return;
          // One statement per batch; a redelivered batch inserts nothing twice (the ids are the keys).
          await autoCommitDb(orm.em.fork())
            .insertInto("analytics_event")
            .columns(STORED)
            .expression((eb) =>
              eb
                .selectFrom(jsonRows("x", rows as AcceptedEvent[], STORED_TYPES))
                .select(STORED.map((c) => `x.${c}` as const)),
            )
            .onConflict((oc) => oc.column("id").doNothing())
            .execute();
        },
        // Only this deployment's events: deployments (and test databases) that share one NATS share the stream.
        { filterSubject: subject },
      );
    },
    async close() {
      while (flushing) await flushing;
    },
  };
}

/** The event's JSON-ready record: at most 50 keys at the top level and 8 KB as JSON, else the reason. */
export function recordProblem(record: Record<string, unknown>): string | undefined {
  if (Object.keys(record).length > 50) return "record must have at most 50 keys";
  if (JSON.stringify(record).length > 8192) return "record must be at most 8192 characters as JSON";
  return undefined;
}
