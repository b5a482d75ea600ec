// Communities (spec 001 §7 "Communities", admin communities): membership of users and rooms, admin CRUD with the
// admin list query language. A community's owner and the admins/staff manage it; users join and leave by
// themselves; a room's managers link their room to a community they belong to.
import { create } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { adminList, callEm, callIdentity, type AdminListSpec } from "@tt/kit";
import {
  CommunitySchema as CommunityMessageSchema,
  type Community as CommunityMessage,
  type CommunityService,
} from "@tt/proto/tt/room/v1/community_service_pb";
import type { RoomServiceContext } from "../context.ts";
import { db } from "../db.ts";
import { CommunityMember } from "../modules/communities/community-member.entity.ts";
import { CommunityRoom } from "../modules/communities/community-room.entity.ts";
import { Community } from "../modules/communities/community.entity.ts";
import { roomAccessOf } from "../modules/communities/room-access.ts";
import { findRoom } from "../modules/rooms/room-store.ts";
import { requireViewer } from "./room-access.ts";
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
  requireAccount,
} from "./people-shared.ts";

const MAX_BULK = 100;

export const ADMIN_COMMUNITY_LIST: AdminListSpec<Community> = {
  entity: Community,
  fields: {
    id: "id",
    name: "name",
    slug: "slug",
    description: "description",
    ownerId: "ownerId",
    createdAt: "createdAt",
    updatedAt: "updatedAt",
  },
  defaultSort: [
    ["createdAt", "ASC"],
    ["id", "ASC"],
  ],
};

async function counts(em: EntityManager, ids: string[]): Promise<Map<string, { members: number; rooms: number }>> {
  const out = new Map(ids.map((id) => [id, { members: 0, rooms: 0 }]));
  if (ids.length === 0) return out;
  const members = await db(em)
    .selectFrom("community_member")
    .select((eb) => ["community_id", eb.fn.countAll<string>().as("n")])
    .where("community_id", "in", ids)
    .groupBy("community_id")
    .execute();
  for (const row of members) out.get(row.community_id)!.members = Number(row.n);
  const rooms = await db(em)
    .selectFrom("community_room")
    .select((eb) => ["community_id", eb.fn.countAll<string>().as("n")])
    .where("community_id", "in", ids)
    .groupBy("community_id")
    .execute();
  for (const row of rooms) out.get(row.community_id)!.rooms = Number(row.n);
  return out;
}

function toMessage(c: Partial<Community>, n?: { members: number; rooms: number }): CommunityMessage {
  return create(CommunityMessageSchema, {
    id: c.id ?? "",
    name: c.name ?? "",
    slug: c.slug ?? "",
    description: c.description ?? "",
    imageUrl: c.imageUrl ?? "",
    ownerId: c.ownerId ?? "",
    memberCount: n?.members ?? 0,
    roomCount: n?.rooms ?? 0,
    createdAt: ts(c.createdAt),
    updatedAt: ts(c.updatedAt),
  });
}

async function withCounts(em: EntityManager, list: Community[]): Promise<CommunityMessage[]> {
  const n = await counts(
    em,
    list.map((c) => c.id),
  );
  return list.map((c) => toMessage(c, n.get(c.id)));
}

async function one(em: EntityManager, id: string): Promise<CommunityMessage> {
  const c = await em.findOne(Community, { id });
  if (!c) throw notFound("community");
  return (await withCounts(em, [c]))[0]!;
}

async function loadCommunity(em: EntityManager, id: string): Promise<Community> {
  const c = await em.findOne(Community, { id });
  if (!c) throw notFound("community");
  return c;
}

/** The community's owner or an admin/staff. */
function manages(ctx: HandlerContext, c: Community): boolean {
  const identity = callIdentity(ctx);
  return isStaff(identity) || c.ownerId === identity.subject;
}

/** May the caller link or unlink this room: community managers, or the room's managers who are members. */
async function checkRoomLink(em: EntityManager, ctx: HandlerContext, c: Community, roomId: string): Promise<void> {
  const me = callerId(ctx);
  const access = await roomAccessOf(em, roomId, me);
  if (!access) throw notFound("room");
  if (manages(ctx, c)) return;
  const member = await em.count(CommunityMember, { communityId: c.id, userId: me });
  if (!access.manages || member === 0) throw forbidden();
}

async function uniqueSlug(em: EntityManager, wanted: string | undefined, name: string, exceptId?: string) {
  if (wanted) {
    const taken = await em.findOne(Community, { slug: wanted, ...(exceptId ? { id: { $ne: exceptId } } : {}) });
    if (taken) throw conflict("community slug already exists");
    return wanted;
  }
  const base = slugify(name, 90);
  for (let i = 0; ; i++) {
    const slug = i === 0 ? base : `${base}-${i + 1}`;
    if (!(await em.findOne(Community, { slug }))) return slug;
  }
}

interface CommunityInputLike {
  name: string;
  slug: string;
  description: string;
  imageUrl: string;
  ownerId: string;
}

async function linkRooms(ctx: HandlerContext, id: string, rooms: string[]) {
  // One transaction: the ORM flushes pending links before each query, and a refused room must undo them all.
  return callEm(ctx).transactional(async (em) => {
    const c = await loadCommunity(em, id);
    let changed = 0;
    for (const roomId of new Set(rooms.map((r) => r.toLowerCase()))) {
      await checkRoomLink(em, ctx, c, roomId);
      if (!(await em.findOne(CommunityRoom, { communityId: id, roomId }))) {
        em.create(CommunityRoom, { communityId: id, roomId });
        changed++;
      }
    }
    await uniquely(
      () => em.flush(),
      () => conflict("room already in community"),
    );
    return changed;
  });
}

async function roomsAfter(em: EntityManager, id: string) {
  const rows = await em.find(
    CommunityRoom,
    { communityId: id },
    { orderBy: { createdAt: "ASC", id: "ASC" }, limit: 100 },
  );
  return rows.map((r) => ({ roomId: r.roomId, linkedAt: ts(r.createdAt) }));
}

export function communityRoutes(svc: RoomServiceContext): ServiceImpl<typeof CommunityService> {
  async function addUser(ctx: HandlerContext, id: string, userId: string) {
    const em = callEm(ctx);
    const c = await loadCommunity(em, id);
    if (!manages(ctx, c)) throw forbidden();
    let row = await em.findOne(CommunityMember, { communityId: id, userId });
    if (!row) await requireAccount(svc, userId, ctx.signal);
    if (!row) {
      row = em.create(CommunityMember, { communityId: id, userId });
      await uniquely(
        () => em.flush(),
        () => conflict("already a member"),
      );
    }
    return { member: { userId, joinedAt: ts(row.createdAt) } };
  }

  async function addRoom(req: { id: string; roomId: string }, ctx: HandlerContext) {
    await linkRooms(ctx, req.id, [req.roomId]);
    const row = await callEm(ctx).findOneOrFail(CommunityRoom, {
      communityId: req.id,
      roomId: req.roomId.toLowerCase(),
    });
    return { room: { roomId: row.roomId, linkedAt: ts(row.createdAt) } };
  }

  async function removeRoom(req: { id: string; roomId: string }, ctx: HandlerContext) {
    const em = callEm(ctx);
    const c = await loadCommunity(em, req.id);
    const roomId = req.roomId.toLowerCase();
    const row = await em.findOne(CommunityRoom, { communityId: req.id, roomId });
    if (!row) throw notFound("room in community");
    if (!manages(ctx, c)) {
      const access = await roomAccessOf(em, roomId, callerId(ctx));
      if (!access?.manages) throw forbidden();
    }
    em.remove(row);
    await em.flush();
    return {};
  }

  async function createOne(em: EntityManager, ctx: HandlerContext, input: CommunityInputLike): Promise<Community> {
    const slug = await uniqueSlug(em, input.slug || undefined, input.name);
    return em.create(Community, {
      name: input.name,
      slug,
      description: input.description,
      imageUrl: input.imageUrl || null,
      ownerId: input.ownerId ? input.ownerId.toLowerCase() : callerId(ctx),
    });
  }

  return {
    async getCommunity(req, ctx) {
      return { community: await one(callEm(ctx), req.id) };
    },

    async listCommunityUsers(req, ctx) {
      const em = callEm(ctx);
      await loadCommunity(em, req.id);
      const { limit, offset } = page(req);
      const [rows, total] = await em.findAndCount(
        CommunityMember,
        { communityId: req.id },
        { orderBy: { createdAt: "ASC", id: "ASC" }, limit, offset },
      );
      return { users: rows.map((r) => ({ userId: r.userId, joinedAt: ts(r.createdAt) })), total };
    },

    async joinCommunity(req, ctx) {
      const em = callEm(ctx);
      await loadCommunity(em, req.id);
      const userId = callerId(ctx);
      if (await em.findOne(CommunityMember, { communityId: req.id, userId })) throw conflict("already a member");
      const row = em.create(CommunityMember, { communityId: req.id, userId });
      await uniquely(
        () => em.flush(),
        () => conflict("already a member"),
      );
      return { member: { userId, joinedAt: ts(row.createdAt) } };
    },

    async leaveCommunity(req, ctx) {
      const em = callEm(ctx);
      await loadCommunity(em, req.id);
      const deleted = await em.nativeDelete(CommunityMember, { communityId: req.id, userId: callerId(ctx) });
      if (deleted === 0) throw notFound("member");
      return {};
    },

    async addCommunityUser(req, ctx) {
      return addUser(ctx, req.id, req.userId.toLowerCase());
    },

    async removeCommunityUser(req, ctx) {
      const em = callEm(ctx);
      const c = await loadCommunity(em, req.id);
      const userId = req.userId.toLowerCase();
      if (!manages(ctx, c) && userId !== callerId(ctx)) throw forbidden();
      const deleted = await em.nativeDelete(CommunityMember, { communityId: req.id, userId });
      if (deleted === 0) throw notFound("member");
      return {};
    },

    async listCommunityRooms(req, ctx) {
      const em = callEm(ctx);
      await loadCommunity(em, req.id);
      const { limit, offset } = page(req);
      const [rows, total] = await em.findAndCount(
        CommunityRoom,
        { communityId: req.id },
        { orderBy: { createdAt: "ASC", id: "ASC" }, limit, offset },
      );
      return { rooms: rows.map((r) => ({ roomId: r.roomId, linkedAt: ts(r.createdAt) })), total };
    },

    addCommunityRoom: addRoom,
    linkCommunityRoom: addRoom,
    removeCommunityRoom: removeRoom,
    unlinkCommunityRoom: removeRoom,

    async addCommunityRooms(req, ctx) {
      if (req.rooms.length > MAX_BULK) throw badRequest(`rooms must hold at most ${MAX_BULK} entries`);
      const changed = await linkRooms(ctx, req.id, req.rooms);
      return { changed, rooms: await roomsAfter(callEm(ctx), req.id) };
    },

    async removeCommunityRooms(req, ctx) {
      if (req.rooms.length > MAX_BULK) throw badRequest(`rooms must hold at most ${MAX_BULK} entries`);
      const em = callEm(ctx);
      const c = await loadCommunity(em, req.id);
      const ids = [...new Set(req.rooms.map((r) => r.toLowerCase()))];
      if (!manages(ctx, c)) {
        for (const roomId of ids) {
          const access = await roomAccessOf(em, roomId, callerId(ctx));
          if (!access?.manages) throw forbidden();
        }
      }
      const changed = await em.nativeDelete(CommunityRoom, { communityId: req.id, roomId: { $in: ids } });
      return { changed, rooms: await roomsAfter(em, req.id) };
    },

    async listRoomCommunities(req, ctx) {
      const em = callEm(ctx);
      // A private room's communities only to those who may see it (issue 23); an unknown room has none.
      const room = req.roomId === "" ? null : await findRoom(em, req.roomId);
      if (room) await requireViewer(ctx, em, room);
      const { limit, offset } = page(req);
      const [links, total] = await em.findAndCount(
        CommunityRoom,
        { roomId: req.roomId.toLowerCase() },
        { orderBy: { createdAt: "ASC", id: "ASC" }, limit, offset },
      );
      const list = await em.find(Community, { id: { $in: links.map((l) => l.communityId) } });
      const byId = new Map(list.map((c) => [c.id, c]));
      return {
        communities: await withCounts(em, links.map((l) => byId.get(l.communityId)!).filter(Boolean)),
        total,
      };
    },

    async listUserCommunities(req, ctx) {
      const em = callEm(ctx);
      const { limit, offset } = page(req);
      const [links, total] = await em.findAndCount(
        CommunityMember,
        { userId: callerId(ctx) },
        { orderBy: { createdAt: "ASC", id: "ASC" }, limit, offset },
      );
      const list = await em.find(Community, { id: { $in: links.map((l) => l.communityId) } });
      const byId = new Map(list.map((c) => [c.id, c]));
      return {
        communities: await withCounts(em, links.map((l) => byId.get(l.communityId)!).filter(Boolean)),
        total,
      };
    },

    async adminListCommunities(req, ctx) {
      const em = callEm(ctx);
      const pageOf = await adminList(em, ADMIN_COMMUNITY_LIST, req.query ?? {});
      // Counts only where the rows carry their id (a `fields` selection may leave it out).
      const n = await counts(
        em,
        pageOf.data.flatMap((c) => (c.id ? [c.id] : [])),
      );
      return { ...pageOf, data: pageOf.data.map((c) => toMessage(c, c.id ? n.get(c.id) : undefined)) };
    },

    async adminGetCommunity(req, ctx) {
      return { community: await one(callEm(ctx), req.id) };
    },

    async adminCreateCommunity(req, ctx) {
      const em = callEm(ctx);
      const c = await createOne(em, ctx, req);
      await uniquely(
        () => em.flush(),
        () => conflict("community slug already exists"),
      );
      return { community: toMessage(c, { members: 0, rooms: 0 }) };
    },

    async adminBulkCreateCommunities(req, ctx) {
      if (req.bulk.length > MAX_BULK) throw badRequest(`bulk must hold at most ${MAX_BULK} entries`);
      const slugs = req.bulk.map((b) => b.slug).filter(Boolean);
      if (new Set(slugs).size !== slugs.length) throw conflict("community slug already exists");
      // One transaction: the ORM flushes pending rows before each slug query, and a refusal must undo them all.
      const made = await callEm(ctx).transactional(async (em) => {
        const out: Community[] = [];
        for (const input of req.bulk) {
          const c = await createOne(em, ctx, input);
          // Slugs made from equal names within one call must differ too.
          while (out.some((m) => m.slug === c.slug)) c.slug = `${c.slug.slice(0, 90)}-${out.length + 1}`;
          out.push(c);
        }
        await uniquely(
          () => em.flush(),
          () => conflict("community slug already exists"),
        );
        return out;
      });
      return { communities: made.map((c) => toMessage(c, { members: 0, rooms: 0 })) };
    },

    async adminUpdateCommunity(req, ctx) {
      const em = callEm(ctx);
      const c = await loadCommunity(em, req.id);
      if (req.slug !== undefined && req.slug !== "" && req.slug !== c.slug)
        c.slug = await uniqueSlug(em, req.slug, c.name, c.id);
      if (req.name !== undefined) c.name = req.name;
      if (req.description !== undefined) c.description = req.description;
      if (req.imageUrl !== undefined) c.imageUrl = req.imageUrl || null;
      if (req.ownerId !== undefined && req.ownerId !== "") c.ownerId = req.ownerId.toLowerCase();
      await uniquely(
        () => em.flush(),
        () => conflict("community slug already exists"),
      );
      return { community: await one(em, c.id) };
    },

    async adminReplaceCommunity(req, ctx) {
      const em = callEm(ctx);
      const c = await loadCommunity(em, req.id);
      if (req.slug && req.slug !== c.slug) c.slug = await uniqueSlug(em, req.slug, req.name, c.id);
      c.name = req.name;
      c.description = req.description;
      c.imageUrl = req.imageUrl || null;
      c.ownerId = req.ownerId ? req.ownerId.toLowerCase() : c.ownerId;
      await uniquely(
        () => em.flush(),
        () => conflict("community slug already exists"),
      );
      return { community: await one(em, c.id) };
    },

    async adminDeleteCommunity(req, ctx) {
      const em = callEm(ctx);
      await em.transactional(async (tx) => {
        const c = await tx.findOne(Community, { id: req.id });
        if (!c) throw notFound("community");
        await tx.nativeDelete(CommunityMember, { communityId: req.id });
        await tx.nativeDelete(CommunityRoom, { communityId: req.id });
        tx.remove(c);
      });
      return {};
    },
  };
}
