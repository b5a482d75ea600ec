// Events (spec 001 §7 "Events", admin events): dated happenings with a unique slug, optionally in a room. Any
// user creates one; its creator or an admin/staff changes and deletes it.
import { create } from "@bufbuild/protobuf";
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { adminList, callEm, callIdentity, type AdminListSpec } from "@tt/kit";
import {
  EventSchema as EventMessageSchema,
  type Event as EventMessage,
  type EventService,
} from "@tt/proto/tt/room/v1/event_service_pb";
import type { RoomServiceContext } from "../context.ts";
import { roomAccessOf } from "../modules/communities/room-access.ts";
import { RoomEvent } from "../modules/events/room-event.entity.ts";
import {
  badRequest,
  callerId,
  conflict,
  forbidden,
  isStaff,
  notFound,
  page,
  slugify,
  ts,
  uniquely,
} from "./people-shared.ts";

export const ADMIN_EVENT_LIST: AdminListSpec<RoomEvent> = {
  entity: RoomEvent,
  fields: {
    id: "id",
    slug: "slug",
    name: "name",
    roomId: "roomId",
    startsAt: "startsAt",
    endsAt: "endsAt",
    createdBy: "createdBy",
    createdAt: "createdAt",
  },
  defaultSort: [
    ["startsAt", "ASC"],
    ["id", "ASC"],
  ],
};

/** Dates beyond this are refused: they are typing mistakes, and PostgreSQL's range ends at year 294276. */
const LATEST = Date.UTC(10000, 0, 1);
const EARLIEST = Date.UTC(1970, 0, 1);

function dateOf(value: Timestamp | undefined, field: string): Date | undefined {
  if (!value) return undefined;
  const date = timestampDate(value);
  if (Number.isNaN(date.getTime()) || date.getTime() < EARLIEST || date.getTime() >= LATEST) {
    throw badRequest(`${field} must be a date between 1970 and 9999`);
  }
  return date;
}

export function toEventMessage(e: Partial<RoomEvent>): EventMessage {
  return create(EventMessageSchema, {
    id: e.id ?? "",
    slug: e.slug ?? "",
    name: e.name ?? "",
    description: e.description ?? "",
    roomId: e.roomId ?? "",
    startsAt: ts(e.startsAt),
    endsAt: ts(e.endsAt),
    imageUrl: e.imageUrl ?? "",
    createdBy: e.createdBy ?? "",
    createdAt: ts(e.createdAt),
    updatedAt: ts(e.updatedAt),
  });
}

async function uniqueSlug(em: EntityManager, wanted: string | undefined, name: string, exceptId?: string) {
  if (wanted) {
    const taken = await em.findOne(RoomEvent, { slug: wanted, ...(exceptId ? { id: { $ne: exceptId } } : {}) });
    if (taken) throw conflict("event slug already exists");
    return wanted;
  }
  const base = slugify(name, 110);
  for (let i = 0; ; i++) {
    const slug = i === 0 ? base : `${base}-${i + 1}`;
    if (!(await em.findOne(RoomEvent, { slug }))) return slug;
  }
}

/** A room named by an event must exist, and the caller must manage it (or be staff). */
async function checkRoom(em: EntityManager, ctx: HandlerContext, roomId: string): Promise<void> {
  const access = await roomAccessOf(em, roomId, callerId(ctx));
  if (!access) throw notFound("room");
  if (!access.manages && !isStaff(callIdentity(ctx))) throw forbidden();
}

async function mine(em: EntityManager, ctx: HandlerContext, id: string): Promise<RoomEvent> {
  const event = await em.findOne(RoomEvent, { id });
  if (!event) throw notFound("event");
  if (event.createdBy !== callerId(ctx) && !isStaff(callIdentity(ctx))) throw forbidden();
  return event;
}

export function eventRoutes(_svc: RoomServiceContext): ServiceImpl<typeof EventService> {
  return {
    async listEvents(req, ctx) {
      const { limit, offset } = page(req);
      const [rows, total] = await callEm(ctx).findAndCount(
        RoomEvent,
        {},
        { orderBy: { startsAt: "ASC", id: "ASC" }, limit, offset },
      );
      return { events: rows.map(toEventMessage), total };
    },

    async listUpcomingEvents(req, ctx) {
      const { limit, offset } = page(req);
      const [rows, total] = await callEm(ctx).findAndCount(
        RoomEvent,
        { endsAt: { $gt: new Date() } },
        { orderBy: { startsAt: "ASC", id: "ASC" }, limit, offset },
      );
      return { events: rows.map(toEventMessage), total };
    },

    async createEvent(req, ctx) {
      const em = callEm(ctx);
      const startsAt = dateOf(req.startsAt, "startsAt")!;
      const endsAt = dateOf(req.endsAt, "endsAt")!;
      if (endsAt <= startsAt) throw badRequest("endsAt must be after startsAt");
      const roomId = req.roomId ? req.roomId.toLowerCase() : null;
      if (roomId) await checkRoom(em, ctx, roomId);
      const event = em.create(RoomEvent, {
        slug: await uniqueSlug(em, req.slug || undefined, req.name),
        name: req.name,
        description: req.description,
        roomId,
        startsAt,
        endsAt,
        imageUrl: req.imageUrl || null,
        createdBy: callerId(ctx),
      });
      await uniquely(
        () => em.flush(),
        () => conflict("event slug already exists"),
      );
      return { event: toEventMessage(event) };
    },

    async getEvent(req, ctx) {
      const event = await callEm(ctx).findOne(RoomEvent, { id: req.id });
      if (!event) throw notFound("event");
      return { event: toEventMessage(event) };
    },

    async adminGetEvent(req, ctx) {
      const event = await callEm(ctx).findOne(RoomEvent, { id: req.id });
      if (!event) throw notFound("event");
      return { event: toEventMessage(event) };
    },

    async getEventBySlug(req, ctx) {
      const event = await callEm(ctx).findOne(RoomEvent, { slug: req.slug });
      if (!event) throw notFound("event");
      return { event: toEventMessage(event) };
    },

    async updateEvent(req, ctx) {
      const em = callEm(ctx);
      const event = await mine(em, ctx, req.id);
      const startsAt = dateOf(req.startsAt, "startsAt") ?? event.startsAt;
      const endsAt = dateOf(req.endsAt, "endsAt") ?? event.endsAt;
      if (endsAt <= startsAt) throw badRequest("endsAt must be after startsAt");
      const roomId = req.roomId === undefined ? event.roomId : req.roomId ? req.roomId.toLowerCase() : null;
      if (roomId && roomId !== event.roomId) await checkRoom(em, ctx, roomId);
      const slug =
        req.slug !== undefined && req.slug !== "" && req.slug !== event.slug
          ? await uniqueSlug(em, req.slug, event.name, event.id)
          : event.slug;
      event.roomId = roomId;
      event.slug = slug;
      if (req.name !== undefined) event.name = req.name;
      if (req.description !== undefined) event.description = req.description;
      if (req.imageUrl !== undefined) event.imageUrl = req.imageUrl || null;
      event.startsAt = startsAt;
      event.endsAt = endsAt;
      await uniquely(
        () => em.flush(),
        () => conflict("event slug already exists"),
      );
      return { event: toEventMessage(event) };
    },

    async deleteEvent(req, ctx) {
      const em = callEm(ctx);
      const event = await mine(em, ctx, req.id);
      em.remove(event);
      await em.flush();
      return {};
    },

    async adminListEvents(req, ctx) {
      const pageOf = await adminList(callEm(ctx), ADMIN_EVENT_LIST, req.query ?? {});
      return { ...pageOf, data: pageOf.data.map(toEventMessage) };
    },
  };
}
