// Token accounts, the ledger's transactions and token bundles.
import { randomUUID } from "node:crypto";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { EntityManager, FilterQuery } from "@mikro-orm/postgresql";
import { callEm, callIdentity } from "@tt/kit";
import type { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import type { MerchContext } from "../context.ts";
import { db } from "../db.ts";
import {
  ACCOUNT_NOT_FOUND,
  checkLedger,
  credit,
  ensureAccount,
  findAccount,
  findAccountOfUser,
  hold,
  OWN_ACCOUNT_NOT_FOUND,
  setStatus,
  settleHold,
  type EntryRow,
} from "../modules/ledger/ledger.ts";
import { TokenBundle } from "../modules/shop/token-bundle.entity.ts";
import { idempotencyKeyOf } from "./headers.ts";
import { accountMessage, bundleMessage, entryMessage, isAdmin } from "./messages.ts";
import { SHOP_PAGE_SIZE } from "./consumables.ts";

const BUNDLE_NOT_FOUND = "token bundle not found";
const PRODUCT_TAKEN = "a token bundle with this productId already exists";
const USER_HAS_NO_ACCOUNT = "this user has no token account";

export function tokenRoutes(svc: MerchContext): ServiceImpl<typeof TokenService> {
  const { media } = svc;
  const bundleMsg = (b: TokenBundle) => bundleMessage(b, media);

  const findBundle = async (em: EntityManager, id: string) => {
    const b = await em.findOne(TokenBundle, { id: id.toLowerCase() });
    if (!b) throw new ConnectError(BUNDLE_NOT_FOUND, Code.NotFound);
    return b;
  };

  const productTaken = (err: unknown): never => {
    if ((err as { code?: string }).code === "23505") throw new ConnectError(PRODUCT_TAKEN, Code.AlreadyExists);
    throw err;
  };

  return {
    async createTokenAccount(_req, ctx) {
      return { account: accountMessage(await ensureAccount(callEm(ctx), callIdentity(ctx).subject)) };
    },

    async getSelfTokenAccount(_req, ctx) {
      const account = await findAccountOfUser(callEm(ctx), callIdentity(ctx).subject);
      if (!account) throw new ConnectError(OWN_ACCOUNT_NOT_FOUND, Code.NotFound);
      return { account: accountMessage(account) };
    },

    async getTokenAccount(req, ctx) {
      const identity = callIdentity(ctx);
      const account = await findAccount(callEm(ctx), req.accountId.toLowerCase());
      // Someone else's account is answered as missing.
      const visible =
        account &&
        (identity.tokenType === "service" || isAdmin(identity.role) || account.user_uuid === identity.subject);
      if (!visible) throw new ConnectError(ACCOUNT_NOT_FOUND, Code.NotFound);
      return { account: accountMessage(account) };
    },

    // Admins only (the access option): a user's account, for a grant started from the user (Issue 16).
    async getUserTokenAccount(req, ctx) {
      const account = await findAccountOfUser(callEm(ctx), req.userUuid.toLowerCase());
      if (!account) throw new ConnectError(USER_HAS_NO_ACCOUNT, Code.NotFound);
      return { account: accountMessage(account) };
    },

    async grantTokens(req, ctx) {
      const em = callEm(ctx);
      const account = await findAccount(em, req.accountId.toLowerCase());
      if (!account) throw new ConnectError(ACCOUNT_NOT_FOUND, Code.NotFound);
      const key = idempotencyKeyOf(ctx);
      const admin = callIdentity(ctx).subject;
      const result = await credit(
        em,
        account.user_uuid,
        req.tokens,
        `grant:${key ? `${admin}:${key}` : randomUUID()}`,
        {
          reason: `admin grant by ${admin}: ${req.reason}`.slice(0, 200),
          maxBalance: svc.config.MERCH_MAX_BALANCE,
          accountId: account.id,
        },
      );
      svc.logger.info({ accountId: account.id, tokens: req.tokens, admin, applied: result.applied }, "tokens granted");
      return { account: accountMessage(result.account) };
    },

    async setTokenAccountStatus(req, ctx) {
      const account = await setStatus(callEm(ctx), req.accountId.toLowerCase(), req.status);
      svc.logger.info(
        { accountId: account.id, status: req.status, admin: callIdentity(ctx).subject },
        "account status",
      );
      return { account: accountMessage(account) };
    },

    async checkLedger(_req, ctx) {
      return checkLedger(callEm(ctx)).then((r) => ({
        ...r,
        mismatches: r.mismatches.map((m) => ({
          accountId: m.accountId,
          balance: BigInt(m.balance),
          sumOfEntries: BigInt(m.sumOfEntries),
        })),
      }));
    },

    async listTokenTransactions(req, ctx) {
      const em = callEm(ctx);
      const identity = callIdentity(ctx);
      const account = await findAccount(em, req.accountId.toLowerCase());
      if (!account || (account.user_uuid !== identity.subject && !isAdmin(identity.role))) {
        throw new ConnectError(ACCOUNT_NOT_FOUND, Code.NotFound);
      }
      const limit = req.limit || SHOP_PAGE_SIZE;
      const rows: EntryRow[] = await db(em)
        .selectFrom("token_transaction")
        .selectAll()
        .where("account_id", "=", account.id)
        .orderBy("created_at", "desc")
        .orderBy("id")
        .limit(limit)
        .offset(req.offset)
        .execute();
      const count = await db(em)
        .selectFrom("token_transaction")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("account_id", "=", account.id)
        .executeTakeFirstOrThrow();
      return { transactions: rows.map(entryMessage), total: Number(count.n) };
    },

    async createHold(req, ctx) {
      const result = await hold(callEm(ctx), callIdentity(ctx).subject, req.tokens, {
        key: idempotencyKeyOf(ctx) ?? undefined,
        reason: req.reason || undefined,
      });
      return { transaction: entryMessage(result.entry), account: accountMessage(result.account) };
    },

    async commitTransaction(req, ctx) {
      const identity = callIdentity(ctx);
      const owner = identity.tokenType === "service" ? null : identity.subject;
      const result = await settleHold(callEm(ctx), req.holdId.toLowerCase(), "commit", owner);
      return { transaction: entryMessage(result.entry), account: accountMessage(result.account) };
    },

    async voidTransaction(req, ctx) {
      const identity = callIdentity(ctx);
      const owner = identity.tokenType === "service" ? null : identity.subject;
      const result = await settleHold(callEm(ctx), req.holdId.toLowerCase(), "voided", owner);
      return { transaction: entryMessage(result.entry), account: accountMessage(result.account) };
    },

    async createTokenBundle(req, ctx) {
      const em = callEm(ctx);
      if (await em.findOne(TokenBundle, { productId: req.productId })) {
        throw new ConnectError(PRODUCT_TAKEN, Code.AlreadyExists);
      }
      const thumb = req.thumbnail?.content.length
        ? await media.store(req.thumbnail, "bundles", "thumbnail")
        : undefined;
      try {
        const b = em.create(TokenBundle, {
          productId: req.productId,
          name: req.name || req.productId,
          tokens: req.tokens,
          thumbnailKey: thumb?.key ?? null,
        });
        await em.flush().catch(productTaken);
        return { bundle: bundleMsg(b) };
      } catch (err) {
        await media.remove(thumb?.key);
        throw err;
      }
    },

    async listTokenBundles(req, ctx) {
      const where: FilterQuery<TokenBundle> = {};
      if (req.id) where.id = req.id.toLowerCase();
      if (req.productId) where.productId = req.productId;
      const [rows, total] = await callEm(ctx).findAndCount(TokenBundle, where, {
        orderBy: { tokens: "ASC", id: "ASC" },
        limit: req.limit || SHOP_PAGE_SIZE,
        offset: req.offset,
      });
      return { bundles: rows.map(bundleMsg), total };
    },

    async countTokenBundles(_req, ctx) {
      return { count: await callEm(ctx).count(TokenBundle, {}) };
    },

    async getTokenBundle(req, ctx) {
      return { bundle: bundleMsg(await findBundle(callEm(ctx), req.id)) };
    },

    async updateTokenBundle(req, ctx) {
      const em = callEm(ctx);
      const b = await findBundle(em, req.id);
      if (req.productId !== undefined) b.productId = req.productId;
      if (req.name !== undefined) b.name = req.name || b.productId;
      if (req.tokens !== undefined) b.tokens = req.tokens;
      await em.flush().catch(productTaken);
      return { bundle: bundleMsg(b) };
    },

    async deleteTokenBundle(req, ctx) {
      const em = callEm(ctx);
      const b = await findBundle(em, req.id);
      const key = b.thumbnailKey;
      await em.remove(b).flush();
      await media.remove(key);
      return {};
    },

    async updateTokenBundleThumbnail(req, ctx) {
      const em = callEm(ctx);
      const b = await findBundle(em, req.id);
      const stored = await media.store(req.thumbnail, "bundles", "thumbnail");
      const old = b.thumbnailKey;
      b.thumbnailKey = stored.key;
      try {
        await em.flush();
      } catch (err) {
        await media.remove(stored.key);
        throw err;
      }
      await media.remove(old);
      return { bundle: bundleMsg(b) };
    },
  };
}
