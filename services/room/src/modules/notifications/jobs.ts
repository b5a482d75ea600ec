// Notifications to many, off the request path (issue 29): a DJ's fans, an admin's "send to all devices" and an
// admin's web push to every browser subscription. The request (or the SongStarted consumer) writes one job into the
// outbox of its own transaction, so a rolled-back request queues nothing; the outbox relay publishes it into the
// work-queue stream ROOM_NOTIFY_JOBS (under the deployment's namespace), and the room service's workers deliver it a
// page at a time.
//
// A page job names its job, its audience, the content and a cursor (the last recipient id of the page before: a
// user's, or a subscription's for the web push to every subscription). The worker reads the next PAGE recipients
// after the cursor, delivers to the ones not yet marked for the job, in chunks (each chunk's inbox rows, removals of
// gone devices and subscriptions, and marks commit together, after its pushes), then publishes the next page's job
// (its msg-id is the job and cursor, so a repeated publish is stored once) and acknowledges. A worker that stops
// mid-page (the host closing) gives the page back after its chunk in flight; the next delivery skips the marked
// recipients, so nobody is pushed twice or left out. Only a process killed between a chunk's pushes and its commit
// can push that chunk's recipients again (at most CHUNK users or subscriptions): no push provider takes an
// idempotency key.
//
// Pages are chained (the next is published when one is done) rather than all queued at first, so a DJ with three
// fans queued behind one with 100,000 waits for one page, not for every page of theirs.
import { randomUUID } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import { enqueue, HandBack, sql, type Bus, type Subscription } from "@tt/kit";
import type { RoomServiceContext } from "../../context.ts";
import { db } from "../../db.ts";
import type { Deliverer, DeliveryReport, NotificationContent } from "./deliver.ts";

/** The work queue's stream and subjects (logical names: the bus gives them the deployment's namespace). */
export const NOTIFY_STREAM = "ROOM_NOTIFY_JOBS";
export const NOTIFY_SUBJECT = "room-jobs.notify.page";
const NOTIFY_DURABLE = "room-notify-worker";

/** Recipients per page job, and per committed chunk within it. */
export const PAGE = 500;
export const CHUNK = 50;
/** Marks older than this are pruned (no page is redelivered that late). */
const KEEP_MARKS_MS = 7 * 86_400_000;

/**
 * Who a job goes to: a DJ's fans, every user with a registered device (recipients are users: an inbox row each,
 * their devices and, with `web`, their browsers), or every browser subscription (recipients are subscriptions: a
 * web push each, no inbox row, as the admin's SendWebPush without user ids has always done).
 */
export type Audience = { kind: "dj-fans"; djId: string } | { kind: "all-devices" } | { kind: "all-subscriptions" };

export interface NotifyJob {
  id: string;
  audience: Audience;
  content: NotificationContent;
  /** Also to the recipients' browsers (web push), opening `url`. */
  web: boolean;
  url: string;
  /** The last recipient id (a user's or a subscription's) of the page before; "" for the first page. */
  after: string;
  /** When the job was queued (ISO 8601): the worker's log says how long it took. */
  queuedAt: string;
}

const encode = (job: NotifyJob) => new TextEncoder().encode(JSON.stringify(job));

function decode(data: Uint8Array): NotifyJob | undefined {
  try {
    const job = JSON.parse(new TextDecoder().decode(data)) as Partial<NotifyJob>;
    const audience = job.audience;
    const audienceOk =
      audience?.kind === "all-devices" ||
      audience?.kind === "all-subscriptions" ||
      (audience?.kind === "dj-fans" && typeof audience.djId === "string");
    if (typeof job.id !== "string" || !audienceOk || typeof job.content?.title !== "string") return undefined;
    if (typeof job.after !== "string") return undefined;
    return job as NotifyJob;
  } catch {
    return undefined;
  }
}

/**
 * Queues a notification to `audience` in `em`'s transaction (stored with its next flush, published after its
 * commit by the outbox relay). Returns the job's id.
 */
export function queueNotification(
  em: EntityManager,
  audience: Audience,
  content: NotificationContent,
  options: { web?: boolean; url?: string } = {},
): string {
  const job: NotifyJob = {
    id: randomUUID(),
    audience,
    content,
    web: options.web ?? false,
    url: options.url ?? "",
    after: "",
    queuedAt: new Date().toISOString(),
  };
  enqueue(em, NOTIFY_SUBJECT, encode(job), { aggregateId: job.id });
  return job.id;
}

/** The answer of a call that queued its notification (the counts come with the delivery, in the workers' log). */
export const queuedAnswer = () => ({ recipients: 0, sent: 0, failed: 0, removed: 0, skipped: false, queued: true });

/**
 * A job's recipients: read a page at a time in id order, marked once delivered. Users (a DJ's fans, every user with
 * a device) are marked in notification_job_recipient; browser subscriptions in notification_job_subscription.
 */
interface Recipients {
  /** The next PAGE recipient ids after `after`, in id order. */
  page(em: EntityManager, after: string): Promise<string[]>;
  /** Which of `ids` are marked delivered for `jobId`. */
  marked(em: EntityManager, jobId: string, ids: string[]): Promise<string[]>;
  /** Delivers to `ids`, in `em`'s transaction (inbox rows, removals of gone devices and subscriptions). */
  deliver(em: EntityManager, ids: string[]): Promise<DeliveryReport>;
  /** Marks `ids` delivered for `jobId`, in `em`'s transaction. */
  mark(em: EntityManager, jobId: string, ids: string[]): Promise<void>;
}

function recipientsOf(job: NotifyJob, deliver: Deliverer): Recipients {
  const { audience } = job;
  if (audience.kind === "all-subscriptions") {
    return {
      page: async (em, after) => {
        const rows = await db(em)
          .selectFrom("web_push_subscription")
          .select("id")
          .$if(after !== "", (q) => q.where("id", ">", after))
          .orderBy("id")
          .limit(PAGE)
          .execute();
        return rows.map((r) => r.id);
      },
      marked: async (em, jobId, ids) => {
        const rows = await db(em)
          .selectFrom("notification_job_subscription")
          .select("subscription_id")
          .where("job_id", "=", jobId)
          .where("subscription_id", "in", ids)
          .execute();
        return rows.map((r) => r.subscription_id);
      },
      deliver: (em, ids) => deliver.toSubscriptions(em, ids, job.content, job.url),
      mark: async (em, jobId, ids) => {
        await db(em)
          .insertInto("notification_job_subscription")
          .values(ids.map((id) => ({ job_id: jobId, subscription_id: id, sent_at: sql<Date>`now()` })))
          .onConflict((oc) => oc.doNothing())
          .execute();
      },
    };
  }
  return {
    page: async (em, after) => {
      if (audience.kind === "dj-fans") {
        const rows = await db(em)
          .selectFrom("dj_fan")
          .select("fan_id")
          .where("dj_id", "=", audience.djId)
          .$if(after !== "", (q) => q.where("fan_id", ">", after))
          .orderBy("fan_id")
          .limit(PAGE)
          .execute();
        return rows.map((r) => r.fan_id);
      }
      const rows = await db(em)
        .selectFrom("device")
        .select("user_id")
        .distinct()
        .$if(after !== "", (q) => q.where("user_id", ">", after))
        .orderBy("user_id")
        .limit(PAGE)
        .execute();
      return rows.map((r) => r.user_id);
    },
    marked: async (em, jobId, ids) => {
      const rows = await db(em)
        .selectFrom("notification_job_recipient")
        .select("user_id")
        .where("job_id", "=", jobId)
        .where("user_id", "in", ids)
        .execute();
      return rows.map((r) => r.user_id);
    },
    deliver: (em, ids) => deliver.toUsers(em, ids, job.content, { web: job.web, url: job.url }),
    mark: async (em, jobId, ids) => {
      await db(em)
        .insertInto("notification_job_recipient")
        .values(ids.map((userId) => ({ job_id: jobId, user_id: userId, sent_at: sql<Date>`now()` })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    },
  };
}

export interface NotificationWorker {
  /** Stops after the chunk in flight; the page it was on goes back to the queue. */
  close(): Promise<void>;
}

/** Creates the work queue (when absent): before the outbox relay can publish a job into it. */
export async function ensureNotifyStream(bus: Bus): Promise<void> {
  await bus.ensureStream(NOTIFY_STREAM, ["room-jobs.notify.>"], { workQueue: true });
}

/**
 * Consumes the notification jobs: replicas share the durable consumer, one page at a time. `signal` (the host's
 * lifetime) stops a page between chunks. `onPage` is told after each page (tests, the benchmark).
 */
export async function startNotificationWorker(
  svc: Pick<RoomServiceContext, "bus" | "orm" | "logger" | "signal">,
  deliver: Deliverer,
  onPage?: (job: NotifyJob, report: DeliveryReport) => void,
): Promise<NotificationWorker> {
  await ensureNotifyStream(svc.bus);
  const stopping = () => new HandBack("the notification worker is stopping; the page comes again");
  let lastPrune = 0;

  const runPage = async (job: NotifyJob) => {
    const report: DeliveryReport = { recipients: 0, sent: 0, failed: 0, removed: 0 };
    const recipients = recipientsOf(job, deliver);
    const ids = await recipients.page(svc.orm.em.fork(), job.after);
    const done = new Set(ids.length > 0 ? await recipients.marked(svc.orm.em.fork(), job.id, ids) : []);
    const todo = ids.filter((id) => !done.has(id));
    for (let i = 0; i < todo.length; i += CHUNK) {
      if (svc.signal.aborted) throw stopping();
      const chunk = todo.slice(i, i + CHUNK);
      // The chunk's pushes, then its inbox rows, removals and marks in one commit.
      await svc.orm.em.fork().transactional(async (em) => {
        const r = await recipients.deliver(em, chunk);
        await recipients.mark(em, job.id, chunk);
        report.recipients += r.recipients;
        report.sent += r.sent;
        report.failed += r.failed;
        report.removed += r.removed;
      });
    }
    if (ids.length === PAGE) {
      const last = ids[ids.length - 1]!;
      await svc.bus.publishDurable(NOTIFY_SUBJECT, encode({ ...job, after: last }), { msgId: `${job.id}:${last}` });
    } else {
      svc.logger.info(
        { job: job.id, audience: job.audience.kind, queuedAt: job.queuedAt },
        "notification job delivered",
      );
    }
    onPage?.(job, report);
  };

  const sub: Subscription = await svc.bus.consume(
    NOTIFY_STREAM,
    NOTIFY_DURABLE,
    async (msg) => {
      const job = decode(msg.data);
      if (!job) {
        svc.logger.error({ seq: msg.seq }, "undecodable notification job dropped");
        return;
      }
      if (svc.signal.aborted) throw stopping();
      await runPage(job);
      if (Date.now() - lastPrune > 3_600_000) {
        lastPrune = Date.now();
        const before = new Date(Date.now() - KEEP_MARKS_MS);
        const marks = db(svc.orm.em.fork());
        try {
          await marks.deleteFrom("notification_job_recipient").where("sent_at", "<", before).execute();
          await marks.deleteFrom("notification_job_subscription").where("sent_at", "<", before).execute();
        } catch (err) {
          svc.logger.warn({ err }, "pruning notification marks failed");
        }
      }
    },
    { redeliveryDelayMs: 200 },
  );
  return { close: () => sub.unsubscribe() };
}
