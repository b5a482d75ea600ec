// Consumables, their files, and buying one with tokens.
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { EntityManager, FilterQuery } from "@mikro-orm/postgresql";
import { callEm, callIdentity } from "@tt/kit";
import type { ConsumableService } from "@tt/proto/tt/merch/v1/consumable_service_pb";
import type { MerchContext } from "../context.ts";
import { purchase, requestHash } from "../modules/ledger/ledger.ts";
import { Consumable } from "../modules/shop/consumable.entity.ts";
import { ConsumableFile } from "../modules/shop/consumable-file.entity.ts";
import { accountMessage, consumableMessage } from "./messages.ts";
import { idempotencyKeyOf } from "./headers.ts";
import { dateOf } from "./time.ts";

export const CONSUMABLE_NOT_FOUND = "consumable not found";
const FILE_NOT_FOUND = "file not found";
/** Specification 002 §9: consumable lists of 32. */
export const SHOP_PAGE_SIZE = 32;

export function consumableRoutes(svc: MerchContext): ServiceImpl<typeof ConsumableService> {
  const { media } = svc;

  const fileUrls = async (em: EntityManager, ids: Array<string | null | undefined>) => {
    const wanted = ids.filter((id): id is string => !!id);
    if (wanted.length === 0) return new Map<string, string>();
    const files = await em.find(ConsumableFile, { id: { $in: wanted } });
    return new Map(files.map((f) => [f.id, media.urlOf(f.key)]));
  };
  const withFile = async (em: EntityManager, c: Consumable) =>
    consumableMessage(c, c.fileId ? ((await fileUrls(em, [c.fileId])).get(c.fileId) ?? "") : "");

  const findConsumable = async (em: EntityManager, id: string) => {
    const c = await em.findOne(Consumable, { id: id.toLowerCase() });
    if (!c) throw new ConnectError(CONSUMABLE_NOT_FOUND, Code.NotFound);
    return c;
  };

  const checkFile = async (em: EntityManager, fileId: string) => {
    if (!(await em.findOne(ConsumableFile, { id: fileId.toLowerCase() }))) {
      throw new ConnectError(`fileId: ${FILE_NOT_FOUND}`, Code.NotFound);
    }
    return fileId.toLowerCase();
  };

  const fileMessage = (f: ConsumableFile) => ({
    fileId: f.id,
    url: media.urlOf(f.key),
    contentType: f.contentType,
    size: f.size,
    createdAt: timestampFromDate(f.createdAt),
  });

  return {
    async createConsumablePurchase(req, ctx) {
      // The call's fork only when the consumable must be read: the purchase's statement runs on the ORM's pool
      // (the root EntityManager's connection), so the common case never makes a fork.
      const em = () => callEm(ctx);
      const identity = callIdentity(ctx);
      const consumableId = req.consumableId.toLowerCase();
      const key = idempotencyKeyOf(ctx);
      const since = req.balanceUnmodifiedSince
        ? dateOf(req.balanceUnmodifiedSince, "balanceUnmodifiedSince")
        : undefined;
      // The consumable is read only when the purchase's one statement cannot answer alone (it checks the
      // consumable and its price itself).
      const result = await purchase(svc.orm.em, {
        userUuid: identity.subject,
        consumableId,
        loadConsumable: async () => {
          const consumable = await findConsumable(em(), consumableId);
          return {
            id: consumable.id,
            name: consumable.name,
            tokenCost: consumable.tokenCost,
            fileUrl: consumable.fileId
              ? ((await fileUrls(em(), [consumable.fileId])).get(consumable.fileId) ?? "")
              : "",
          };
        },
        tokenCost: req.tokenCost,
        accountId: req.accountId.toLowerCase(),
        roomUuid: req.roomUuid.toLowerCase(),
        balanceUnmodifiedSince: since,
        lastTokenBalance: req.lastTokenBalance,
        idempotencyKey: key,
        requestHash: requestHash([
          consumableId,
          req.tokenCost,
          req.accountId.toLowerCase(),
          req.roomUuid.toLowerCase(),
          since ? since.getTime() : null,
          req.lastTokenBalance ?? null,
        ]),
      });
      const p = result.purchase;
      return {
        purchase: {
          id: p.id,
          accountId: p.account_id,
          userUuid: p.user_uuid,
          consumableId: p.consumable_id,
          tokenCost: p.token_cost,
          roomUuid: p.room_uuid ?? "",
          createdAt: timestampFromDate(new Date(p.created_at)),
        },
        account: accountMessage(result.account),
      };
    },

    async createConsumable(req, ctx) {
      const em = callEm(ctx);
      const fileId = req.fileId ? await checkFile(em, req.fileId) : null;
      const c = em.create(Consumable, { name: req.name, tokenCost: req.tokenCost, fileId });
      await em.flush();
      return { consumable: await withFile(em, c) };
    },

    async listConsumables(req, ctx) {
      const em = callEm(ctx);
      const where: FilterQuery<Consumable> = {};
      if (req.id) where.id = req.id.toLowerCase();
      if (req.createdBefore) {
        const before = new Date(req.createdBefore);
        if (!/^\d{4}-\d{2}-\d{2}/.test(req.createdBefore) || Number.isNaN(before.getTime())) {
          throw new ConnectError("createdBefore must be an ISO 8601 time", Code.InvalidArgument);
        }
        where.createdAt = { $lt: before };
      }
      const [rows, total] = await em.findAndCount(Consumable, where, {
        orderBy: { createdAt: "DESC", id: "ASC" },
        limit: req.limit || SHOP_PAGE_SIZE,
        offset: req.offset,
      });
      const urls = await fileUrls(
        em,
        rows.map((c) => c.fileId),
      );
      return {
        consumables: rows.map((c) => consumableMessage(c, c.fileId ? (urls.get(c.fileId) ?? "") : "")),
        total,
      };
    },

    async countConsumables(_req, ctx) {
      return { count: await callEm(ctx).count(Consumable, {}) };
    },

    async getConsumable(req, ctx) {
      const em = callEm(ctx);
      return { consumable: await withFile(em, await findConsumable(em, req.id)) };
    },

    async updateConsumable(req, ctx) {
      const em = callEm(ctx);
      const c = await findConsumable(em, req.id);
      if (req.name !== undefined) c.name = req.name;
      if (req.tokenCost !== undefined) c.tokenCost = req.tokenCost;
      if (req.fileId !== undefined) c.fileId = req.fileId ? await checkFile(em, req.fileId) : null;
      await em.flush();
      return { consumable: await withFile(em, c) };
    },

    async deleteConsumable(req, ctx) {
      const em = callEm(ctx);
      await em.remove(await findConsumable(em, req.id)).flush();
      return {};
    },

    async uploadConsumableFile(req, ctx) {
      const em = callEm(ctx);
      const stored = await media.store(req.file, "consumables", "file");
      try {
        const f = em.create(ConsumableFile, {
          key: stored.key,
          contentType: stored.contentType,
          size: stored.size,
          createdBy: callIdentity(ctx).subject,
        });
        await em.flush();
        return { file: fileMessage(f) };
      } catch (err) {
        await media.remove(stored.key);
        throw err;
      }
    },

    async getConsumableFile(req, ctx) {
      const f = await callEm(ctx).findOne(ConsumableFile, { id: req.fileId.toLowerCase() });
      if (!f) throw new ConnectError(FILE_NOT_FOUND, Code.NotFound);
      return { file: fileMessage(f) };
    },
  };
}
