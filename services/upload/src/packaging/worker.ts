// The packaging worker: subscribes to every shard's durable consumer and packages one song per job, at most
// `concurrency` at once in this process. Stopping it (close) kills the FFmpeg runs in flight; their jobs are
// handed back and redelivered (to this or another worker), and the song is packaged from the start again.
import type { Bus, ObjectStore, Subscription } from "@tt/kit";
import { eventStreamOf, HandBack } from "@tt/kit";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { Logger } from "pino";
import { Song } from "../modules/songs/song.entity.ts";
import { decodeJob, enqueuePackaging, jobDurable, JOB_SUBJECT_PREFIX } from "./jobs.ts";
import { packageSong, setOutcome, type PackagingOutcome } from "./packager.ts";

export interface WorkerOptions {
  bus: Bus;
  orm: MikroORM;
  store: ObjectStore;
  ffmpeg: string;
  logger: Logger;
  shards: number;
  concurrency: number;
  timeoutMs: number;
  /** How long a dead worker's job waits before another worker takes it (the bus's ack wait); default the bus's. */
  jobAckWaitMs?: number;
  /** Told after each job (tests, the benchmark). */
  onOutcome?: (uuid: string, outcome: PackagingOutcome) => void;
}

export interface PackagingWorker {
  /** How many packagings run in this process now. */
  running(): number;
  close(): Promise<void>;
}

export async function startPackagingWorker(o: WorkerOptions): Promise<PackagingWorker> {
  const stop = new AbortController();
  // What a handler throws once the worker is stopping: its job goes back to the stream, not counted as a failure.
  const stopping = () => new HandBack("the worker is stopping");
  const stream = eventStreamOf("upload");
  await o.bus.ensureStream(stream.name, stream.subjects);
  let active = 0;
  const waiting: Array<() => void> = [];
  const acquire = async () => {
    while (active >= o.concurrency) {
      if (stop.signal.aborted) throw stopping();
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    active++;
  };
  const release = () => {
    active--;
    waiting.shift()?.();
  };
  const subs: Subscription[] = [];
  // Every replica of one deployment shares the durable consumers; the bus keeps another deployment's apart (issue 23).
  for (let shard = 0; shard < o.shards; shard++) {
    subs.push(
      await o.bus.consume(
        stream.name,
        jobDurable(shard),
        async (msg) => {
          const job = decodeJob(msg.data);
          if (!job) return; // not ours to retry: acknowledged
          if (stop.signal.aborted) throw stopping();
          await acquire();
          try {
            const outcome = await packageSong(o, job.songUuid, stop.signal);
            o.onOutcome?.(job.songUuid, outcome);
          } catch (err) {
            if (!stop.signal.aborted) {
              o.logger.warn({ err, song: job.songUuid }, "packaging postponed; the job comes again");
              await setOutcome(o, job.songUuid, "packagingPostponed", (err as Error).message ?? "").catch(
                () => undefined,
              );
            }
            throw stop.signal.aborted ? stopping() : err;
          } finally {
            release();
          }
        },
        // New consumers start at the next job; the sweep below queues again whatever waits from before.
        {
          filterSubject: `${JOB_SUBJECT_PREFIX}.${shard}`,
          redeliveryDelayMs: 1000,
          deliver: "new",
          ...(o.jobAckWaitMs === undefined ? {} : { ackWaitMs: o.jobAckWaitMs }),
        },
      ),
    );
  }
  await sweep(o);
  return {
    running: () => active,
    async close() {
      stop.abort(new Error("the packaging worker is stopping"));
      for (const resolve of waiting.splice(0)) resolve();
      await Promise.all(subs.map((s) => s.unsubscribe()));
    },
  };
}

/**
 * Queues again every song that awaits packaging (jobs are idempotent): a job published before any worker's
 * consumer existed, or lost, is not left behind.
 */
export async function sweep(o: Pick<WorkerOptions, "orm" | "shards">): Promise<number> {
  return o.orm.em.fork().transactional(async (em) => {
    const waiting = await em.find(
      Song,
      { status: { $in: ["UNVERIFIED", "VERIFICATION_POSTPONED"] } },
      { fields: ["uuid"], limit: 1000 },
    );
    for (const song of waiting) enqueuePackaging(em, song.uuid, o.shards);
    return waiting.length;
  });
}
