// Analytics events: POST /kinesis (accepted into the stream, written in batches), the stored events by topic
// and time window, and counts by topic over time (the admin console's chart).
import { randomUUID } from "node:crypto";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { callEm, checkLimit, kIdentity, sql, UNAUTHORIZED } from "@tt/kit";
import type { AnalyticsService } from "@tt/proto/tt/audit/v1/analytics_service_pb";
import type { AuditContext } from "../context.ts";
import { autoCommitDb } from "../db.ts";
import { AnalyticsEvent } from "../modules/analytics/analytics-event.entity.ts";
import { recordProblem } from "../modules/analytics/ingest.ts";
import { parseDate, ts } from "./messages.ts";

/**
 * What a caller without a user account (guest token or none) may send: spec 002 leaves it open
 * (docs/decisions/0180-analytics-from-guests.md).
 */
export const GUEST_TOPICS = new Set(["page-view", "home-rooms-loaded", "login-action"]);
const DAY_MS = 86_400_000;
const MAX_BUCKETS = 400;

export function analyticsRoutes(svc: AuditContext): ServiceImpl<typeof AnalyticsService> {
  return {
    async putRecord(req, ctx) {
      const identity = ctx.values.get(kIdentity);
      const isUser = identity?.tokenType === "user";
      if (!isUser && !GUEST_TOPICS.has(req.topic) && identity?.tokenType !== "service") {
        throw new ConnectError(UNAUTHORIZED, Code.Unauthenticated);
      }
      const record = (req.record ?? {}) as Record<string, unknown>;
      const problem = recordProblem(record);
      if (problem) throw new ConnectError(problem, Code.InvalidArgument);
      const id = randomUUID();
      try {
        await svc.ingest.accept({
          id,
          topic: req.topic,
          record,
          platform: req.deviceData?.platform ?? "",
          is_discord: req.deviceData?.isDiscord ?? false,
          // The device says whether it is logged in; the token decides.
          is_logged_in: isUser,
          user_uuid: isUser ? identity.subject.toLowerCase() : null,
          created_at: new Date().toISOString(),
        });
      } catch (err) {
        throw new ConnectError("analytics are unavailable, try again", Code.Unavailable, undefined, undefined, err);
      }
      return { id };
    },

    async listAnalyticsEvents(req, ctx) {
      const from = parseDate(req.from, "from");
      const to = parseDate(req.to, "to");
      const limit = checkLimit(req.limit, 100, 500);
      const createdAt: Record<string, Date> = {};
      if (from) createdAt.$gte = from;
      if (to) createdAt.$lt = to;
      const [rows, total] = await callEm(ctx).findAndCount(
        AnalyticsEvent,
        { ...(req.topic ? { topic: req.topic } : {}), ...(from || to ? { createdAt } : {}) },
        { orderBy: { createdAt: "DESC", id: "DESC" }, limit, offset: req.offset },
      );
      return {
        total,
        data: rows.map((r) => ({
          id: r.id,
          topic: r.topic,
          record: r.record as never,
          deviceData: { platform: r.platform, isDiscord: r.isDiscord, isLoggedIn: r.isLoggedIn },
          userUuid: r.userUuid ?? "",
          createdAt: ts(r.createdAt),
        })),
      };
    },

    async countAnalyticsEvents(req, ctx) {
      const interval = req.interval || "day";
      const to = parseDate(req.to, "to") ?? new Date();
      const from = parseDate(req.from, "from") ?? new Date(to.getTime() - 7 * DAY_MS);
      if (from >= to) throw new ConnectError("from must be before to", Code.InvalidArgument);
      const bucketMs = interval === "hour" ? 3_600_000 : DAY_MS;
      if ((to.getTime() - from.getTime()) / bucketMs > MAX_BUCKETS) {
        throw new ConnectError(`from..to must span at most ${MAX_BUCKETS} ${interval}s`, Code.InvalidArgument);
      }
      const counts = autoCommitDb(callEm(ctx))
        .selectFrom("analytics_event")
        .select((eb) => [
          sql<string>`date_trunc(${interval}, ${eb.ref("created_at")}, 'UTC')`.as("bucket"),
          "topic",
          eb.fn.countAll<string>().as("count"),
        ])
        .where("created_at", ">=", from)
        .where("created_at", "<", to)
        .groupBy(sql.raw("1, 2"))
        .orderBy(sql.raw("1, 2"));
      const rows = await (req.topic ? counts.where("topic", "=", req.topic) : counts).execute();
      return {
        data: rows.map((r) => ({ bucket: ts(r.bucket), topic: r.topic, count: BigInt(r.count) })),
      };
    },
  };
}
