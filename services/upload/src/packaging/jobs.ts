// Packaging jobs: a durable JetStream job per song, written to the outbox in the same transaction as the
// status change that asks for it (so a song is never UNVERIFIED without its job), relayed into the service's
// stream TT_UPLOAD on tt.upload.job.package.<shard>. Each shard has one durable consumer that every worker
// process subscribes to: a job is handled by one worker at a time, a worker that dies leaves its job to be
// redelivered to another (ack wait), and a job for a song already VERIFIED or deleted is a no-op.
import { createHash } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import { enqueue } from "@tt/kit";

export const JOB_SUBJECT_PREFIX = "tt.upload.job.package";
export const jobDurable = (shard: number) => `upload-packager-${shard}`;

export function shardOf(uuid: string, shards: number): number {
  return createHash("sha256").update(uuid).digest().readUInt32BE(0) % shards;
}

export interface PackagingJob {
  songUuid: string;
}

/** Adds the song's packaging job to `em`'s next flush. */
export function enqueuePackaging(em: EntityManager, songUuid: string, shards: number): void {
  const job: PackagingJob = { songUuid };
  enqueue(em, `${JOB_SUBJECT_PREFIX}.${shardOf(songUuid, shards)}`, new TextEncoder().encode(JSON.stringify(job)), {
    aggregateId: songUuid,
  });
}

export function decodeJob(data: Uint8Array): PackagingJob | undefined {
  try {
    const job = JSON.parse(new TextDecoder().decode(data)) as Partial<PackagingJob>;
    return typeof job.songUuid === "string" ? { songUuid: job.songUuid } : undefined;
  } catch {
    return undefined;
  }
}
