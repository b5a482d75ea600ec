import { fromBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { ConsumablePurchasedSchema } from "@tt/proto/tt/merch/v1/events_pb";
import { ConsumableService } from "@tt/proto/tt/merch/v1/consumable_service_pb";
import { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkLedger } from "../modules/ledger/ledger.ts";
import { createMerchHarness, PNG, refusal, type MerchHarness } from "../testing/merch-harness.ts";

let h: MerchHarness;
let adminToken: string;

beforeAll(async () => {
  h = await createMerchHarness();
  adminToken = (await h.user("admin")).token;
});
afterAll(() => h?.close());

const tokens = (token: string) => h.client(TokenService, { token });
const shop = (token?: string) => h.client(ConsumableService, token ? { token } : {});

async function funded(amount: number) {
  const u = await h.user();
  const { account } = await tokens(u.token).createTokenAccount({});
  if (amount > 0) await tokens(adminToken).grantTokens({ accountId: account!.id, tokens: amount, reason: "test" });
  return { ...u, accountId: account!.id };
}

describe("consumables", () => {
  it("admins create, change and delete consumables with an uploaded file; anyone lists them, 32 per page", async () => {
    const file = await shop(adminToken).uploadConsumableFile({
      file: { content: PNG, filename: "s.png", contentType: "image/png" },
    });
    expect(file.file!.url).toMatch(/^\/media\/merch\/consumables\/.+\.png$/);
    expect((await shop().getConsumableFile({ fileId: file.file!.fileId })).file!.contentType).toBe("image/png");
    expect(
      (await refusal(shop(adminToken).uploadConsumableFile({ file: { content: new TextEncoder().encode("text") } })))
        .message,
    ).toBe("file must be a JPEG, PNG, WebP or GIF image");
    const { consumable } = await shop(adminToken).createConsumable({
      name: "confetti",
      tokenCost: 3,
      fileId: file.file!.fileId,
    });
    expect(consumable).toMatchObject({ name: "confetti", tokenCost: 3, fileUrl: file.file!.url });
    await shop(adminToken).updateConsumable({ id: consumable!.id, tokenCost: 4 });
    expect((await shop().getConsumable({ id: consumable!.id })).consumable!.tokenCost).toBe(4);
    expect((await shop().listConsumables({ id: consumable!.id })).consumables).toHaveLength(1);
    expect((await shop().listConsumables({ createdBefore: "2000-01-01T00:00:00Z" })).consumables).toHaveLength(0);
    expect((await refusal(shop().listConsumables({ createdBefore: "soon" }))).code).toBe(Code.InvalidArgument);
    expect((await refusal(shop().listConsumables({ limit: 33 }))).code).toBe(Code.InvalidArgument);
    expect((await shop().countConsumables({})).count).toBeGreaterThan(0);
    const u = await h.user();
    expect((await refusal(shop(u.token).deleteConsumable({ id: consumable!.id }))).code).toBe(Code.Unauthenticated);
    expect((await refusal(shop(u.token).createConsumable({ name: "x", tokenCost: 1 }))).code).toBe(
      Code.Unauthenticated,
    );
    await shop(adminToken).deleteConsumable({ id: consumable!.id });
    expect(await refusal(shop().getConsumable({ id: consumable!.id }))).toMatchObject({
      code: Code.NotFound,
      message: "consumable not found",
    });
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

  it("issue 15: a balanceUnmodifiedSince outside the years 1–9999 is a 400 naming the field", async () => {
    const u = await funded(10);
    const c = await consumable(1);
    const refused = await refusal(
      shop(u.token).createConsumablePurchase({
        consumableId: c.id,
        tokenCost: 1,
        balanceUnmodifiedSince: { seconds: -(10n ** 14n), nanos: 0 },
      }),
    );
    expect(refused).toMatchObject({
      code: Code.InvalidArgument,
      message: expect.stringContaining("balanceUnmodifiedSince"),
    });
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

describe("purchases that share a statement", () => {
  // Purchases arriving together leave in batches (one statement for many users): each must come out as it
  // would alone, whatever its neighbours do.
  it("each purchase of a concurrent crowd is answered as it would be alone", { timeout: 60_000 }, async () => {
    const c = (await shop(adminToken).createConsumable({ name: "crowd", tokenCost: 5 })).consumable!;
    const users = await Promise.all(Array.from({ length: 12 }, (_, i) => funded(i % 3 === 0 ? 7 : 50)));
    // Per user: six purchases, two of them retries of one key, one claiming a stale balance.
    const calls = users.flatMap((u, n) =>
      Array.from({ length: 6 }, (_, i) =>
        shop(u.token)
          .createConsumablePurchase(
            {
              consumableId: c.id,
              tokenCost: 5,
              ...(i === 5 ? { lastTokenBalance: 1 } : {}),
              // Some in a room: their events go into the outbox in the same statement.
              ...(i === 2 ? { roomUuid: "0f8fad5b-d9cb-469f-a165-70867728950f" } : {}),
            },
            { headers: { "idempotency-key": `crowd-${n}-${i === 1 ? 0 : i}` } },
          )
          .then((r) => ({ user: n, id: r.purchase!.id, balance: r.account!.balance }))
          .catch((err: unknown) => ({ user: n, error: String(err) })),
      ),
    );
    const announced = async () =>
      Number(
        (
          await h.orm.em
            .fork()
            .execute<Array<{ n: string }>>(
              `select count(*) as n from merch.consumable_purchase where room_uuid = '0f8fad5b-d9cb-469f-a165-70867728950f'`,
            )
        )[0]!.n,
      );
    const events = async () =>
      Number(
        (
          await h.orm.em
            .fork()
            .execute<Array<{ n: string }>>(
              `select count(*) as n from merch.outbox_message where payload::text like '%' || encode(convert_to('0f8fad5b-d9cb-469f-a165-70867728950f', 'UTF8'), 'hex') || '%'`,
            )
        )[0]!.n,
      );
    const results = await Promise.all(calls);
    for (const [n, u] of users.entries()) {
      const mine = results.filter((r) => r.user === n);
      const ids = new Set(mine.flatMap((r) => ("id" in r ? [r.id] : [])));
      // 7 tokens buy one; 50 buy the five distinct keys (one retried, answered with the same purchase).
      const expected = n % 3 === 0 ? 1 : 4;
      expect(ids.size).toBe(expected);
      expect((await tokens(u.token).getSelfTokenAccount({})).account!.balance).toBe(
        (n % 3 === 0 ? 7 : 50) - 5 * expected,
      );
      expect(
        mine.filter((r) => "error" in r).every((r) => "error" in r && /409|422|tokens|balance/i.test(r.error)),
      ).toBe(true);
    }
    expect(await checkLedger(h.orm.em.fork())).toMatchObject({ ok: true, negativeBalances: 0, mismatches: [] });
    // One event per purchase made in the room, none for a refused one.
    expect(await announced()).toBeGreaterThan(0);
    expect(await events()).toBe(await announced());
  });
});

describe("a purchase in a room", () => {
  it("is announced through the outbox for the room's chat", { timeout: 15_000 }, async () => {
    const u = await funded(10);
    const c = (await shop(adminToken).createConsumable({ name: "heart", tokenCost: 2 })).consumable!;
    const roomUuid = "0f8fad5b-d9cb-469f-a165-70867728950e";
    let arrived!: (event: unknown) => void;
    const event = new Promise((resolve) => (arrived = resolve));
    const sub = await h.bus.subscribe("tt.merch.purchase.created", (msg) => {
      const e = fromBinary(ConsumablePurchasedSchema, msg.data);
      if (e.userUuid === u.uuid) arrived(e);
    });
    try {
      await shop(u.token).createConsumablePurchase({ consumableId: c.id, tokenCost: 2, roomUuid });
      expect(await event).toEqual(expect.objectContaining({ roomUuid, consumableName: "heart", tokenCost: 2 }));
    } finally {
      await sub.unsubscribe();
    }
  });
});
