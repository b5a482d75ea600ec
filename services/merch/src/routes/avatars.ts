// Avatars and assignments. The current avatar is the user service's profile avatarId (one source of truth):
// the shop sets it there; GET /avatars/{slug}/{uuid} answers whether a user may use one.
import { createHash } from "node:crypto";
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { adminList, callEm, callIdentity, type AdminListSpec } from "@tt/kit";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { AvatarService, CreateAvatarAssignmentResponseSchema } from "@tt/proto/tt/merch/v1/avatar_service_pb";
import type { MerchContext } from "../context.ts";
import { AvatarAssignment } from "../modules/avatars/avatar-assignment.entity.ts";
import { Avatar } from "../modules/avatars/avatar.entity.ts";
import { isDiscordLinked, isSubscriber, mayUse } from "../modules/avatars/eligibility.ts";
import {
  debitInTransaction,
  entryByReference,
  findAccountOfUser,
  httpError,
  inTransaction,
  KEY_REUSED,
  lockAccountOfUser,
  requestHash,
  type AccountRow,
} from "../modules/ledger/ledger.ts";
import { Season } from "../modules/points/season.entity.ts";
import { accountMessage, assignmentMessage, avatarMessage, isAdmin } from "./messages.ts";
import { idempotencyKeyOf } from "./headers.ts";

export const AVATAR_NOT_FOUND = "avatar not found";

export const ADMIN_AVATAR_LIST: AdminListSpec<Avatar> = {
  entity: Avatar,
  fields: {
    id: "id",
    slug: "slug",
    name: "name",
    status: "status",
    discordOnly: "discordOnly",
    tokenCost: "tokenCost",
    seasonId: "seasonId",
    minPoints: "minPoints",
    createdAt: "createdAt",
  },
  defaultSort: [
    ["createdAt", "ASC"],
    ["slug", "ASC"],
  ],
};

async function findAvatar(em: EntityManager, slug: string): Promise<Avatar> {
  const avatar = await em.findOne(Avatar, { slug });
  if (!avatar) throw new ConnectError(AVATAR_NOT_FOUND, Code.NotFound);
  return avatar;
}

async function checkSeason(em: EntityManager, status: string, seasonId: string | null | undefined) {
  if (seasonId && !(await em.findOne(Season, { id: seasonId.toLowerCase() }))) {
    throw new ConnectError("seasonId: season not found", Code.NotFound);
  }
  if (status === "SEASON_AWARD" && !seasonId) {
    throw new ConnectError(
      "seasonId missing in request (a SEASON_AWARD avatar needs its season)",
      Code.InvalidArgument,
    );
  }
}

export function avatarRoutes(svc: MerchContext): ServiceImpl<typeof AvatarService> {
  const { media } = svc;
  const msg = (a: Partial<Avatar>) => avatarMessage(a, media);

  const remove = async (ctx: HandlerContext, slug: string) => {
    const em = callEm(ctx);
    const avatar = await findAvatar(em, slug);
    const key = avatar.imageKey;
    await em.nativeDelete(AvatarAssignment, { avatar: avatar.id });
    await em.remove(avatar).flush();
    await media.remove(key);
    return {};
  };

  const eligibilityOf = async (em: EntityManager, userUuid: string, ctx: HandlerContext) => {
    const assignments = await em.find(AvatarAssignment, { userUuid }, { populate: ["avatar"] });
    return {
      assignments,
      assigned: new Set(assignments.map((x) => x.avatar.id)),
      discord: () => isDiscordLinked(svc.profiles, userUuid, svc.logger, ctx.signal),
      subscriber: await isSubscriber(svc.profiles, userUuid, svc.logger, ctx.signal),
    };
  };

  return {
    async adminListAvatars(req, ctx) {
      const page = await adminList(callEm(ctx), ADMIN_AVATAR_LIST, req.query ?? {});
      return { ...page, data: page.data.map(msg) };
    },

    async adminGetAvatar(req, ctx) {
      const em = callEm(ctx);
      const avatar = await findAvatar(em, req.slug);
      return { avatar: msg(avatar), assignmentCount: await em.count(AvatarAssignment, { avatar: avatar.id }) };
    },

    adminDeleteAvatar: (req, ctx) => remove(ctx, req.slug),
    deleteAvatar: (req, ctx) => remove(ctx, req.slug),

    async createAvatar(req, ctx) {
      const em = callEm(ctx);
      const status = req.status || "PUBLIC";
      await checkSeason(em, status, req.seasonId);
      if (await em.findOne(Avatar, { slug: req.slug })) {
        throw new ConnectError("avatar slug already exists", Code.AlreadyExists);
      }
      const image = req.image?.content.length ? await media.store(req.image, "avatars", "image") : undefined;
      try {
        const avatar = em.create(Avatar, {
          slug: req.slug,
          name: req.name || req.slug,
          status,
          discordOnly: req.discordOnly,
          tokenCost: req.tokenCost,
          seasonId: req.seasonId ? req.seasonId.toLowerCase() : null,
          minPoints: req.minPoints,
          imageKey: image?.key ?? null,
        });
        await em.flush();
        return { avatar: msg(avatar) };
      } catch (err) {
        await media.remove(image?.key);
        if ((err as { code?: string }).code === "23505") {
          throw new ConnectError("avatar slug already exists", Code.AlreadyExists);
        }
        throw err;
      }
    },

    async listAvatars(_req, ctx) {
      const em = callEm(ctx);
      const me = callIdentity(ctx).subject;
      const e = await eligibilityOf(em, me, ctx);
      const candidates = await em.find(
        Avatar,
        { $or: [{ status: { $in: ["PUBLIC", "SUBSCRIBER_ONLY"] } }, { id: { $in: [...e.assigned] } }] },
        { orderBy: { createdAt: "ASC", slug: "ASC" } },
      );
      const discordLinked = candidates.some((a) => a.discordOnly && !e.assigned.has(a.id)) ? await e.discord() : false;
      const avatars = candidates.filter((a) =>
        mayUse(a, { assigned: e.assigned.has(a.id), discordLinked, subscriber: e.subscriber }),
      );
      return {
        avatars: avatars.map(msg),
        assignments: e.assignments.map((x) => assignmentMessage(x, x.avatar.slug)),
      };
    },

    async listSubscriberAvatars(_req, ctx) {
      const em = callEm(ctx);
      const avatars = await em.find(Avatar, { status: "SUBSCRIBER_ONLY" }, { orderBy: { createdAt: "ASC" } });
      return {
        avatars: avatars.map(msg),
        subscriber: await isSubscriber(svc.profiles, callIdentity(ctx).subject, svc.logger, ctx.signal),
      };
    },

    async listAllAvatars(req, ctx) {
      const em = callEm(ctx);
      const limit = req.limit || 100;
      const [avatars, total] = await em.findAndCount(
        Avatar,
        { status: { $ne: "PRIVATE" } },
        { orderBy: { createdAt: "ASC", slug: "ASC" }, limit, offset: req.offset },
      );
      return { avatars: avatars.map(msg), total };
    },

    async getAvatar(req, ctx) {
      const em = callEm(ctx);
      const avatar = await findAvatar(em, req.slug);
      const identity = callIdentity(ctx);
      if (avatar.status === "PRIVATE" && !isAdmin(identity.role)) {
        const mine = await em.count(AvatarAssignment, { avatar: avatar.id, userUuid: identity.subject });
        if (mine === 0) throw new ConnectError(AVATAR_NOT_FOUND, Code.NotFound);
      }
      return { avatar: msg(avatar) };
    },

    async updateAvatar(req, ctx) {
      const em = callEm(ctx);
      const avatar = await findAvatar(em, req.slug);
      const status = req.status ?? avatar.status;
      const seasonId = req.seasonId !== undefined ? req.seasonId.toLowerCase() || null : avatar.seasonId;
      await checkSeason(em, status, seasonId);
      const oldKey = avatar.imageKey;
      const image = req.image?.content.length ? await media.store(req.image, "avatars", "image") : undefined;
      if (req.name !== undefined) avatar.name = req.name || avatar.slug;
      avatar.status = status;
      avatar.seasonId = seasonId;
      if (req.discordOnly !== undefined) avatar.discordOnly = req.discordOnly;
      if (req.tokenCost !== undefined) avatar.tokenCost = req.tokenCost;
      if (req.minPoints !== undefined) avatar.minPoints = req.minPoints;
      if (image) avatar.imageKey = image.key;
      try {
        await em.flush();
      } catch (err) {
        await media.remove(image?.key);
        throw err;
      }
      if (image) await media.remove(oldKey);
      return { avatar: msg(avatar) };
    },

    async getUserAvatar(req, ctx) {
      const em = callEm(ctx);
      const avatar = await findAvatar(em, req.slug);
      const userUuid = req.uuid.toLowerCase();
      const assignment = await em.findOne(AvatarAssignment, { avatar: avatar.id, userUuid });
      const discordLinked = avatar.discordOnly && !assignment ? await e2(userUuid, ctx) : false;
      const allowed = mayUse(avatar, {
        assigned: !!assignment,
        discordLinked,
        subscriber: await isSubscriber(svc.profiles, userUuid, svc.logger, ctx.signal),
      });
      if (avatar.status === "PRIVATE" && !assignment) {
        const identity = callIdentity(ctx);
        if (identity.tokenType !== "service" && !isAdmin(identity.role)) {
          throw new ConnectError(AVATAR_NOT_FOUND, Code.NotFound);
        }
      }
      return {
        avatar: msg(avatar),
        allowed,
        assignment: assignment ? assignmentMessage(assignment, avatar.slug) : undefined,
      };
    },

    async getServiceAvatar(req, ctx) {
      return { avatar: msg(await findAvatar(callEm(ctx), req.avatarSlug)) };
    },

    async createAvatarAssignment(req, ctx) {
      const em = callEm(ctx);
      const identity = callIdentity(ctx);
      const avatar = await findAvatar(em, req.slug);
      const target = (req.userUuid || identity.subject).toLowerCase();
      if (isAdmin(identity.role) && target !== identity.subject) {
        if (await em.findOne(AvatarAssignment, { avatar: avatar.id, userUuid: target })) {
          throw new ConnectError("avatar already assigned", Code.AlreadyExists);
        }
        const assignment = em.create(AvatarAssignment, {
          avatar,
          userUuid: target,
          type: req.type || "MANUAL",
          createdAt: new Date(),
        });
        await em.flush();
        return { assignment: assignmentMessage(assignment, avatar.slug) };
      }
      if (target !== identity.subject) {
        throw new ConnectError("you may only assign avatars to yourself", Code.PermissionDenied);
      }
      // A user buys an avatar on sale for themselves. The same Idempotency-Key and body answer the first
      // answer (and debit once), before anything else is asked: a retry must not meet a refusal the first call
      // did not.
      const key = idempotencyKeyOf(ctx);
      const hash = requestHash([avatar.id, target, req.type]);
      const reference = `avatar:${avatar.id}:${createHash("sha256").update(target).digest("hex").slice(0, 16)}`;
      type Answer = MessageInitShape<typeof CreateAvatarAssignmentResponseSchema>;
      const replay = async (tem: EntityManager, account: AccountRow | undefined): Promise<Answer | undefined> => {
        const prior = key ? await tem.findOne(AvatarAssignment, { userUuid: target, idempotencyKey: key }) : null;
        if (!prior) return undefined;
        if (prior.requestHash !== hash) throw httpError(KEY_REUSED, Code.InvalidArgument, 422);
        // The account as the first answer gave it: the debit's entry holds its balance and time.
        const debit = account ? await entryByReference(tem, account.id, reference) : undefined;
        return {
          assignment: assignmentMessage(prior, avatar.slug),
          account:
            account && debit
              ? accountMessage({ ...account, balance: debit.balance_after, updated_at: new Date(debit.created_at) })
              : undefined,
        };
      };
      if (key) {
        const answered = await replay(em, await findAccountOfUser(em, target));
        if (answered) return answered;
      }
      if (avatar.status !== "PUBLIC" || avatar.tokenCost <= 0) {
        throw new ConnectError("avatar is not for sale", Code.PermissionDenied);
      }
      if (avatar.discordOnly && !(await isDiscordLinked(svc.profiles, target, svc.logger, ctx.signal))) {
        throw new ConnectError("this avatar is only for users linked to Discord", Code.PermissionDenied);
      }
      const bought = await inTransaction<{ answered: Answer } | { assignment: AvatarAssignment; account: AccountRow }>(
        em,
        async (tem) => {
          // The buyer's row lock serialises their purchases: a twin retry waits here, then finds the first one.
          const answered = await replay(tem, await lockAccountOfUser(tem, target));
          if (answered) return { answered };
          if (await tem.findOne(AvatarAssignment, { avatar: avatar.id, userUuid: target })) {
            throw new ConnectError("avatar already assigned", Code.AlreadyExists);
          }
          const debit = await debitInTransaction(tem, target, avatar.tokenCost, reference, `avatar ${avatar.slug}`);
          const assignment = tem.create(AvatarAssignment, {
            avatar: avatar.id,
            userUuid: target,
            type: "PURCHASED",
            createdAt: new Date(),
            idempotencyKey: key,
            requestHash: key ? hash : null,
          });
          return { assignment, account: debit.account };
        },
      );
      if ("answered" in bought) return bought.answered;
      return { assignment: assignmentMessage(bought.assignment, avatar.slug), account: accountMessage(bought.account) };
    },

    async deleteAvatarAssignment(req, ctx) {
      const em = callEm(ctx);
      const assignment = await em.findOne(AvatarAssignment, { id: req.avatarAssignmentId.toLowerCase() });
      if (!assignment) throw new ConnectError("avatar assignment not found", Code.NotFound);
      await em.remove(assignment).flush();
      return {};
    },
  };

  async function e2(userUuid: string, ctx: HandlerContext) {
    return isDiscordLinked(svc.profiles, userUuid, svc.logger, ctx.signal);
  }
}
