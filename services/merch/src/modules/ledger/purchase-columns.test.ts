// Issue 27: the purchase statements are the ledger's hand-written SQL, kept for the measurements of
// docs/decisions/0263-ledger-throughput-one-prepared-purchase.md (named prepared statements on the ORM's pool). No type check reads
// the names in them, so this test does: every table and column they name must be the entities' own, and a renamed
// column or table fails here.
import { MikroORM } from "@mikro-orm/postgresql";
import { OutboxMessage } from "@tt/kit";
import { expectColumns } from "@tt/kit/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { entities } from "../../entities.ts";
import { Consumable } from "../shop/consumable.entity.ts";
import { ConsumablePurchase } from "./consumable-purchase.entity.ts";
import { TokenAccount } from "./token-account.entity.ts";
import { TokenTransaction } from "./token-transaction.entity.ts";
import { BATCH_COLUMNS, PURCHASE, PURCHASE_BATCH, PURCHASE_IN_ROOM } from "./ledger.ts";

let orm: MikroORM;
beforeAll(async () => {
  orm = await MikroORM.init({ clientUrl: inject("databaseUrl"), entities, schema: "merch" });
});
afterAll(() => orm?.close(true));

/** The tables the statements write and read, with the columns they name. */
const NAMED = [
  [TokenAccount, "token_account", ["id", "user_uuid", "balance", "status", "updated_at", "created_at"]],
  [Consumable, "consumable", ["id", "token_cost"]],
  [
    TokenTransaction,
    "token_transaction",
    ["id", "account_id", "type", "amount", "balance_after", "hold_id", "reason", "reference", "created_at"],
  ],
  [
    ConsumablePurchase,
    "consumable_purchase",
    [
      "id",
      "account_id",
      "user_uuid",
      "consumable_id",
      "token_cost",
      "room_uuid",
      "idempotency_key",
      "request_hash",
      "balance_after",
      "account_updated_at",
      "created_at",
    ],
  ],
  [OutboxMessage, "outbox_message", ["id", "subject", "payload", "headers", "created_at"]],
] as const;

describe("the purchase statements' names", () => {
  it("are the entities' tables and columns", () => {
    for (const [entity, table, columns] of NAMED) expectColumns(orm, entity, columns, table);
  });

  it("name nothing else: every quoted name is one of those, the schema, or a name of the statement's own", () => {
    const known = new Set<string>([
      "merch",
      ...NAMED.flatMap(([, table, columns]) => [table, ...columns]),
      ...BATCH_COLUMNS.map(([name]) => name),
      // The batch statement's own names: the lateral probe's flag and the batch's ids.
      "taken",
    ]);
    const named = [PURCHASE, PURCHASE_IN_ROOM, PURCHASE_BATCH].flatMap((s) =>
      [...s.text.matchAll(/"([^"]+)"/g)].map((m) => m[1]!),
    );
    expect(named.length).toBeGreaterThan(50);
    expect([...new Set(named.filter((name) => !known.has(name)))]).toEqual([]);
  });
});
