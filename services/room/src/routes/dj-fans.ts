// DJ fans (spec 001 §7 "DJ fans"): a user follows a DJ once; fan and followed lists in take/skip pages of 12, at
// most 150 per fetch (spec 002 §9). The devices of a DJ's fans are private: services and admins only.
import type { ServiceImpl } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { callEm, publishEvent } from "@tt/kit";
import type { DjFanService } from "@tt/proto/tt/room/v1/dj_fan_service_pb";
import { DjFollowedSchema, DjUnfollowedSchema } from "@tt/proto/tt/room/v1/events_pb";
import type { RoomServiceContext } from "../context.ts";
import { db } from "../db.ts";
import { Notification } from "../modules/notifications/notification.entity.ts";
import { DjFan } from "../modules/people/dj-fan.entity.ts";
import { toDeviceMessage } from "./devices.ts";
import { toNotificationMessage } from "./notifications.ts";
import {
  badRequest,
  callerId,
  conflict,
  FANS_PAGE_SIZE,
  missing,
  page,
  takeSkip,
  ts,
  uniquely,
  requireAccount,
} from "./people-shared.ts";

const toMessage = (f: DjFan) => ({ id: f.id, fanId: f.fanId, djId: f.djId, createdAt: ts(f.createdAt) });

async function fansPage(
  em: EntityManager,
  where: { djId: string } | { fanId: string },
  req: { take: number; skip: number },
) {
  const { limit, offset } = takeSkip(req);
  const [rows, total] = await em.findAndCount(DjFan, where, {
    orderBy: { createdAt: "DESC", id: "ASC" },
    limit,
    offset,
  });
  return { djFans: rows.map(toMessage), total, skip: offset, take: limit };
}

export function djFanRoutes(svc: RoomServiceContext): ServiceImpl<typeof DjFanService> {
  return {
    async listDjFansNotifications(req, ctx) {
      const { limit, offset } = page(req);
      const [rows, total] = await callEm(ctx).findAndCount(
        Notification,
        { userId: callerId(ctx), kind: "dj-fans" },
        { orderBy: { createdAt: "DESC", id: "ASC" }, limit, offset },
      );
      return { notifications: rows.map(toNotificationMessage), total };
    },

    async followDj(req, ctx) {
      const em = callEm(ctx);
      const fanId = callerId(ctx);
      const djId = req.djId.toLowerCase();
      if (djId === fanId) throw badRequest("you cannot follow yourself");
      if (await em.findOne(DjFan, { fanId, djId })) throw conflict("DJ already followed");
      await requireAccount(svc, djId, ctx.signal);
      const row = em.create(DjFan, { fanId, djId });
      publishEvent(em, DjFollowedSchema, { djUuid: djId, fanUuid: fanId });
      await uniquely(
        () => em.flush(),
        () => conflict("DJ already followed"),
      );
      return { djFan: toMessage(row) };
    },

    async listMyFollowedDjs(req, ctx) {
      return fansPage(callEm(ctx), { fanId: callerId(ctx) }, req);
    },

    async listDjFansPaginated(req, ctx) {
      return fansPage(callEm(ctx), { djId: req.id.toLowerCase() }, req);
    },

    async listDjFans(req, ctx) {
      return fansPage(callEm(ctx), { djId: req.id.toLowerCase() }, req);
    },

    async listDjsFollowed(req, ctx) {
      return fansPage(callEm(ctx), { fanId: req.id.toLowerCase() }, req);
    },

    async countDjFans(req, ctx) {
      const em = callEm(ctx);
      const id = req.id.toLowerCase();
      return { fans: await em.count(DjFan, { djId: id }), following: await em.count(DjFan, { fanId: id }) };
    },

    async adminGetDjFans(req, ctx) {
      const em = callEm(ctx);
      const id = req.id.toLowerCase();
      const first = await fansPage(em, { djId: id }, { take: FANS_PAGE_SIZE, skip: 0 });
      return { fans: first.total, following: await em.count(DjFan, { fanId: id }), djFans: first.djFans };
    },

    async getDjFan(req, ctx) {
      const row = await callEm(ctx).findOne(DjFan, { fanId: callerId(ctx), djId: req.id.toLowerCase() });
      if (!row) throw missing("DJ not followed");
      return { djFan: toMessage(row) };
    },

    async unfollowDj(req, ctx) {
      const em = callEm(ctx);
      const fanId = callerId(ctx);
      const row = await em.findOne(DjFan, { fanId, djId: req.id.toLowerCase() });
      if (!row) throw missing("DJ not followed");
      em.remove(row);
      publishEvent(em, DjUnfollowedSchema, { djUuid: row.djId, fanUuid: fanId });
      await em.flush();
      return {};
    },

    async listDjFanDevices(req, ctx) {
      const em = callEm(ctx);
      const { limit, offset } = takeSkip(req);
      const djId = req.djId.toLowerCase();
      const fanDevices = () =>
        db(em).selectFrom("device as d").innerJoin("dj_fan as f", "f.fan_id", "d.user_id").where("f.dj_id", "=", djId);
      const rows = await fanDevices()
        .select(["d.id", "d.user_id", "d.token", "d.platform", "d.created_at", "d.updated_at"])
        .orderBy("d.created_at", "desc")
        .orderBy("d.id", "asc")
        .limit(limit)
        .offset(offset)
        .execute();
      const { n } = await fanDevices()
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .executeTakeFirstOrThrow();
      const total = Number(n);
      return {
        devices: rows.map((r) =>
          toDeviceMessage({
            id: r.id,
            userId: r.user_id,
            token: r.token,
            platform: r.platform,
            createdAt: new Date(r.created_at),
            updatedAt: new Date(r.updated_at),
          }),
        ),
        total,
      };
    },
  };
}
