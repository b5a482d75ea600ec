import { Code } from "@connectrpc/connect";
import { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { credit } from "../modules/ledger/ledger.ts";
import { createMerchHarness, PNG, refusal, type MerchHarness } from "../testing/merch-harness.ts";

let h: MerchHarness;
let adminToken: string;

beforeAll(async () => {
  h = await createMerchHarness();
  adminToken = (await h.user("admin")).token;
});
afterAll(() => h?.close());

const tokens = (token: string) => h.client(TokenService, { token });

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

  it("admins find a user's account by the user (Issue 16): 404 without one, 400 for a bad uuid", async () => {
    const u = await funded(7);
    const byUser = await tokens(adminToken).getUserTokenAccount({ userUuid: u.uuid.toUpperCase() });
    expect(byUser.account).toMatchObject({ id: u.accountId, userUuid: u.uuid, balance: 7 });
    expect(await refusal(tokens(u.token).getUserTokenAccount({ userUuid: u.uuid }))).toMatchObject({
      code: Code.Unauthenticated,
    });
    const without = await h.user();
    expect(await refusal(tokens(adminToken).getUserTokenAccount({ userUuid: without.uuid }))).toMatchObject({
      code: Code.NotFound,
      message: "this user has no token account",
    });
    expect((await refusal(tokens(adminToken).getUserTokenAccount({ userUuid: "not-a-uuid" }))).code).toBe(
      Code.InvalidArgument,
    );
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
