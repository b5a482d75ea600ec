import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { ConsumableService } from "@tt/proto/tt/merch/v1/consumable_service_pb";
import { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkLedger, credit } from "../modules/ledger/ledger.ts";
import { createMerchHarness, PNG, refusal, type MerchHarness } from "../testing/merch-harness.ts";

let h: MerchHarness;
let adminToken: string;

beforeAll(async () => {
  h = await createMerchHarness();
  adminToken = (await h.user("admin")).token;
});
afterAll(() => h?.close());

const tokens = (token: string) => h.client(TokenService, { token });
const shop = (token: string) => h.client(ConsumableService, { token });

async function funded(amount: number) {
  const u = await h.user();
  const { account } = await tokens(u.token).createTokenAccount({});
  if (amount > 0) await tokens(adminToken).grantTokens({ accountId: account!.id, tokens: amount, reason: "test" });
  return { ...u, accountId: account!.id };
}

describe("token accounts", () => {
  it("creates one account per user, answers the same one again, and shows it to its owner only", async () => {
    const u = await h.user();
    const first = await tokens(u.token).createTokenAccount({});
    const again = await tokens(u.token).createTokenAccount({});
    expect(again.account!.id).toBe(first.account!.id);
    expect(first.account).toMatchObject({ balance: 0, status: "active", userUuid: u.uuid });
    expect((await tokens(u.token).getSelfTokenAccount({})).account!.id).toBe(first.account!.id);
    expect((await tokens(u.token).getTokenAccount({ accountId: first.account!.id })).account!.id).toBe(
      first.account!.id,
    );
    const other = await h.user();
    expect(await refusal(tokens(other.token).getTokenAccount({ accountId: first.account!.id }))).toMatchObject({
      code: Code.NotFound,
      message: "token account not found",
    });
    expect((await tokens(adminToken).getTokenAccount({ accountId: first.account!.id })).account!.id).toBe(
      first.account!.id,
    );
  });

  it("answers the §8 message when the caller has no account", async () => {
    const u = await h.user();
    expect(await refusal(tokens(u.token).getSelfTokenAccount({}))).toEqual({
      code: Code.NotFound,
      message: "We were unable to find your token account. Please try again.",
      status: undefined,
    });
  });

  it("lets only admins grant, disable and check; a grant with the same Idempotency-Key credits once", async () => {
    const u = await funded(0);
    expect((await refusal(tokens(u.token).grantTokens({ accountId: u.accountId, tokens: 5, reason: "me" }))).code).toBe(
      Code.Unauthenticated,
    );
    expect((await refusal(tokens(u.token).checkLedger({}))).code).toBe(Code.Unauthenticated);
    const grant = () =>
      tokens(adminToken).grantTokens(
        { accountId: u.accountId, tokens: 50, reason: "welcome" },
        { headers: { "idempotency-key": `grant-${u.uuid}` } },
      );
    await grant();
    expect((await grant()).account!.balance).toBe(50);
    const list = await tokens(u.token).listTokenTransactions({ accountId: u.accountId });
    expect(list.transactions.map((t) => [t.type, t.amount])).toEqual([["credit", 50]]);
    expect(list.transactions[0]!.reason).toContain("welcome");
  });

  it("a payment credit applies once per reasonId and creates the account when missing", async () => {
    const u = await h.user();
    const em = h.orm.em.fork();
    const a = await credit(em, u.uuid, 30, "payment-1");
    const b = await credit(em, u.uuid, 30, "payment-1");
    expect([a.applied, b.applied]).toEqual([true, false]);
    expect((await tokens(u.token).getSelfTokenAccount({})).account!.balance).toBe(30);
  });
});

describe("holds and commits", () => {
  it("holds take tokens off the balance; commit keeps them spent, void gives them back; each settles once", async () => {
    const u = await funded(100);
    const t = tokens(u.token);
    const h1 = await t.createHold({ tokens: 40 });
    expect(h1.account!.balance).toBe(60);
    const c = await t.commitTransaction({ holdId: h1.transaction!.id });
    expect(c.account!.balance).toBe(60);
    expect((await t.commitTransaction({ holdId: h1.transaction!.id })).transaction!.id).toBe(c.transaction!.id);
    expect(await refusal(t.voidTransaction({ holdId: h1.transaction!.id }))).toMatchObject({
      code: Code.Aborted,
      message: "hold already committed",
    });
    const h2 = await t.createHold({ tokens: 60 });
    expect(h2.account!.balance).toBe(0);
    expect((await t.voidTransaction({ holdId: h2.transaction!.id })).account!.balance).toBe(60);
    expect(await refusal(t.commitTransaction({ holdId: h2.transaction!.id }))).toMatchObject({
      message: "hold already voided",
    });
    expect(await refusal(t.createHold({ tokens: 61 }))).toMatchObject({ message: "not enough tokens" });
  });

  it("another user's hold is not found", async () => {
    const u = await funded(10);
    const hold = await tokens(u.token).createHold({ tokens: 5 });
    const other = await funded(0);
    expect(await refusal(tokens(other.token).commitTransaction({ holdId: hold.transaction!.id }))).toMatchObject({
      code: Code.NotFound,
      message: "hold not found",
    });
  });

  it("a disabled account cannot spend until it is enabled again", async () => {
    const u = await funded(10);
    await tokens(adminToken).setTokenAccountStatus({ accountId: u.accountId, status: "disabled" });
    expect(await refusal(tokens(u.token).createHold({ tokens: 1 }))).toMatchObject({
      code: Code.PermissionDenied,
      message: "your token account is disabled",
    });
    await tokens(adminToken).setTokenAccountStatus({ accountId: u.accountId, status: "active" });
    expect((await tokens(u.token).createHold({ tokens: 1 })).account!.balance).toBe(9);
    expect(
      (await refusal(tokens(adminToken).setTokenAccountStatus({ accountId: u.accountId, status: "gone" }))).code,
    ).toBe(Code.InvalidArgument);
  });
});

describe("token bundles", () => {
  it("admins create, change (thumbnail too) and delete bundles; anyone lists them, 32 per page", async () => {
    const admin = tokens(adminToken);
    const { bundle } = await admin.createTokenBundle({ productId: "tokens-100", tokens: 100, name: "100 tokens" });
    expect(bundle).toMatchObject({ productId: "tokens-100", tokens: 100, thumbnailUrl: "" });
    expect(await refusal(admin.createTokenBundle({ productId: "tokens-100", tokens: 5 }))).toMatchObject({
      code: Code.AlreadyExists,
    });
    const thumb = await admin.updateTokenBundleThumbnail({
      id: bundle!.id,
      thumbnail: { content: PNG, filename: "t.png", contentType: "image/png" },
    });
    expect(thumb.bundle!.thumbnailUrl).toMatch(/^\/media\/merch\/bundles\/.+\.png$/);
    expect(
      (
        await refusal(
          admin.updateTokenBundleThumbnail({ id: bundle!.id, thumbnail: { content: new Uint8Array([1, 2]) } }),
        )
      ).message,
    ).toBe("thumbnail must be a JPEG, PNG, WebP or GIF image");
    await admin.updateTokenBundle({ id: bundle!.id, tokens: 120 });
    const anyone = h.client(TokenService);
    expect((await anyone.getTokenBundle({ id: bundle!.id })).bundle!.tokens).toBe(120);
    expect((await anyone.listTokenBundles({ productId: "tokens-100" })).bundles).toHaveLength(1);
    expect((await anyone.countTokenBundles({})).count).toBeGreaterThan(0);
    expect((await refusal(anyone.listTokenBundles({ limit: 33 }))).code).toBe(Code.InvalidArgument);
    const u = await h.user();
    expect((await refusal(tokens(u.token).deleteTokenBundle({ id: bundle!.id }))).code).toBe(Code.Unauthenticated);
    await admin.deleteTokenBundle({ id: bundle!.id });
    expect((await refusal(anyone.getTokenBundle({ id: bundle!.id }))).message).toBe("token bundle not found");
  });
});

describe("consumable purchases", () => {
  async function consumable(cost: number) {
    return (await shop(adminToken).createConsumable({ name: `sticker ${cost}`, tokenCost: cost })).consumable!;
  }

  it("debits the consumable's own tokenCost once per Idempotency-Key; another body with the key is 422", async () => {
    const u = await funded(100);
    const c = await consumable(30);
    const buy = (body: object, key: string) =>
      shop(u.token).createConsumablePurchase(
        { consumableId: c.id, tokenCost: 30, ...body },
        { headers: { "idempotency-key": key } },
      );
    const first = await buy({}, "k1");
    expect(first.account!.balance).toBe(70);
    const again = await buy({}, "k1");
    expect(again.purchase!.id).toBe(first.purchase!.id);
    expect(again.account!.balance).toBe(70);
    expect(await refusal(buy({ roomUuid: "5f1d7a8e-0000-4000-8000-000000000001" }, "k1"))).toMatchObject({
      code: Code.InvalidArgument,
      status: "422",
    });
    expect((await tokens(u.token).getSelfTokenAccount({})).account!.balance).toBe(70);
  });

  it("refuses a claimed price other than the consumable's, a stale balance, too few tokens, and no account", async () => {
    const u = await funded(50);
    const c = await consumable(20);
    const s = shop(u.token);
    expect(await refusal(s.createConsumablePurchase({ consumableId: c.id, tokenCost: 1 }))).toMatchObject({
      code: Code.Aborted,
      message: "the consumable's price has changed: tokenCost must be the consumable's tokenCost",
    });
    const { account } = await tokens(u.token).getSelfTokenAccount({});
    expect(
      await refusal(s.createConsumablePurchase({ consumableId: c.id, tokenCost: 20, lastTokenBalance: 49 })),
    ).toMatchObject({ code: Code.Aborted, message: expect.stringContaining("balance changed") });
    const before = timestampFromDate(
      new Date(account!.updatedAt!.seconds ? Number(account!.updatedAt!.seconds) * 1000 - 1000 : 0),
    );
    expect(
      await refusal(s.createConsumablePurchase({ consumableId: c.id, tokenCost: 20, balanceUnmodifiedSince: before })),
    ).toMatchObject({ code: Code.Aborted });
    const ok = await s.createConsumablePurchase({
      consumableId: c.id,
      tokenCost: 20,
      lastTokenBalance: 50,
      balanceUnmodifiedSince: account!.updatedAt,
      accountId: account!.id,
    });
    expect(ok.account!.balance).toBe(30);
    await s.createConsumablePurchase({ consumableId: c.id, tokenCost: 20 });
    expect(await refusal(s.createConsumablePurchase({ consumableId: c.id, tokenCost: 20 }))).toMatchObject({
      message: "not enough tokens",
    });
    const none = await h.user();
    expect(
      await refusal(shop(none.token).createConsumablePurchase({ consumableId: c.id, tokenCost: 20 })),
    ).toMatchObject({
      code: Code.NotFound,
      message: "We were unable to find your token account. Please try again.",
    });
    const other = await funded(100);
    expect(
      await refusal(
        shop(other.token).createConsumablePurchase({ consumableId: c.id, tokenCost: 20, accountId: account!.id }),
      ),
    ).toMatchObject({ code: Code.NotFound, message: "token account not found" });
    expect((await refusal(s.createConsumablePurchase({ consumableId: "nope", tokenCost: 20 }))).code).toBe(
      Code.InvalidArgument,
    );
  });

  it("concurrent purchases never overspend and the ledger check holds", async () => {
    const u = await funded(100);
    const c = await consumable(7);
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, (_, i) =>
        shop(u.token).createConsumablePurchase(
          { consumableId: c.id, tokenCost: 7 },
          { headers: { "idempotency-key": `c-${i % 20}` } },
        ),
      ),
    );
    const ids = new Set(results.flatMap((r) => (r.status === "fulfilled" ? [r.value.purchase!.id] : [])));
    expect(ids.size).toBe(14);
    expect((await tokens(u.token).getSelfTokenAccount({})).account!.balance).toBe(2);
    const check = await checkLedger(h.orm.em.fork());
    expect(check).toMatchObject({ ok: true, negativeBalances: 0, mismatches: [] });
    expect((await tokens(adminToken).checkLedger({})).ok).toBe(true);
  });
});
