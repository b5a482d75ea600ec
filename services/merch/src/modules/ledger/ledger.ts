// The token ledger. Every balance change happens here, in one database transaction that locks the account row
// (SELECT … FOR UPDATE), appends the ledger entries and writes the new balance, so the balance always equals the
// sum of its entries; the table's check constraint (balance >= 0) is the last guard against going negative.
// Idempotency: an entry's `reference` is unique per account (a payment's reasonId, a grant's key, a hold's
// settlement) and a purchase's idempotency key is unique per user, so a retry finds the first answer.
import { hash, randomUUID } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { eventRecord, publishEvent, sql, type Selectable } from "@tt/kit";
import { ConsumablePurchasedSchema } from "@tt/proto/tt/merch/v1/events_pb";
import { db, type MerchTables } from "../../db.ts";

/** Specification 002 §8: a purchase (or any own-account call) without an account. */
export const OWN_ACCOUNT_NOT_FOUND = "We were unable to find your token account. Please try again.";
export const ACCOUNT_NOT_FOUND = "token account not found";
export const ACCOUNT_DISABLED = "your token account is disabled";
export const NOT_ENOUGH_TOKENS = "not enough tokens";
export const BALANCE_CHANGED = "your token balance changed since you last saw it; check it and try again";
export const PRICE_CHANGED = "the consumable's price has changed: tokenCost must be the consumable's tokenCost";
export const KEY_REUSED = "this Idempotency-Key was already used with a different request";
export const HOLD_NOT_FOUND = "hold not found";

export type TransactionType = "credit" | "hold" | "commit" | "voided";

export interface AccountRow {
  id: string;
  user_uuid: string;
  balance: number;
  status: string;
  updated_at: Date;
  created_at: Date;
}

/** A ledger entry as the database answers it (its time as text). */
export type EntryRow = Selectable<MerchTables["token_transaction"]>;

/** An entry to append: its type one of the ledger's. */
type NewEntry = Omit<EntryRow, "account_id" | "balance_after" | "created_at"> & { type: TransactionType };

/**
 * The purchase statements below are the ledger's hand-written SQL, kept where a measurement says so (issue 27;
 * docs/decisions/0263-ledger-throughput-one-prepared-purchase.md): a purchase in one named prepared statement on the
 * ORM's pg pool, parsed once per connection (one round trip instead of two; Kysely makes no named statements), and the
 * batch's lateral key probe (12.5 → 1.5 ms a batch of 8 at 30,000 purchases). Their
 * tables and columns are checked against the entities by purchase-columns.test.ts, so a rename fails a test.
 */
const S = `"merch"`;

/** An account as SQL answers it (timestamps as text, or Dates). */
type AccountAnswer = Omit<AccountRow, "updated_at" | "created_at"> & {
  updated_at: Date | string;
  created_at: Date | string;
};

/** SQL answers timestamps as text: the rows the ledger hands out carry Dates. */
function acc(row: AccountAnswer | undefined): AccountRow | undefined {
  return row && { ...row, updated_at: new Date(row.updated_at), created_at: new Date(row.created_at) };
}
const ACCOUNT_COLUMNS = ["id", "user_uuid", "balance", "status", "updated_at", "created_at"] as const;

/** A ConnectError whose REST status is `status` (the gateway reads tt-http-status for 4xx the codes lack). */
export function httpError(message: string, code: Code, status: number): ConnectError {
  const err = new ConnectError(message, code);
  err.metadata.set("tt-http-status", String(status));
  return err;
}

/** Runs `work` in a transaction of its own (a fork of `em`), retrying a serialization failure or deadlock. */
export async function inTransaction<T>(em: EntityManager, work: (tem: EntityManager) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await em.fork().transactional(work);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (attempt < 5 && (code === "40001" || code === "40P01")) continue;
      throw err;
    }
  }
}

export async function findAccountOfUser(em: EntityManager, userUuid: string): Promise<AccountRow | undefined> {
  return acc(
    await db(em)
      .selectFrom("token_account")
      .select(ACCOUNT_COLUMNS)
      .where("user_uuid", "=", userUuid)
      .executeTakeFirst(),
  );
}

export async function findAccount(em: EntityManager, id: string): Promise<AccountRow | undefined> {
  return acc(await db(em).selectFrom("token_account").select(ACCOUNT_COLUMNS).where("id", "=", id).executeTakeFirst());
}

/** The user's account under its row lock in the caller's transaction (serialises the user's spending). */
export function lockAccountOfUser(tem: EntityManager, userUuid: string): Promise<AccountRow | undefined> {
  return lockAccount(tem, "user_uuid", userUuid);
}

async function lockAccount(tem: EntityManager, by: "id" | "user_uuid", value: string): Promise<AccountRow | undefined> {
  return acc(
    await db(tem)
      .selectFrom("token_account")
      .select(ACCOUNT_COLUMNS)
      .where(by, "=", value)
      .forUpdate()
      .executeTakeFirst(),
  );
}

/** The user's account, created (active, balance 0) when missing; safe against concurrent creation. */
export async function ensureAccount(em: EntityManager, userUuid: string): Promise<AccountRow> {
  const now = new Date();
  await db(em)
    .insertInto("token_account")
    .values({ id: randomUUID(), user_uuid: userUuid, balance: 0, status: "active", created_at: now, updated_at: now })
    .onConflict((oc) => oc.column("user_uuid").doNothing())
    .execute();
  return (await findAccountOfUser(em, userUuid))!;
}

/** Appends entries and sets the new balance in the caller's transaction (the account row is locked). */
async function apply(
  tem: EntityManager,
  account: AccountRow,
  entries: NewEntry[],
  maxBalance = Number.MAX_SAFE_INTEGER,
): Promise<{ account: AccountRow; entries: EntryRow[] }> {
  const now = new Date();
  let balance = account.balance;
  const written: EntryRow[] = [];
  for (const e of entries) {
    balance += e.amount;
    if (balance < 0) throw httpError(NOT_ENOUGH_TOKENS, Code.Aborted, 409);
    if (balance > maxBalance) {
      throw new ConnectError(`a balance may not exceed ${maxBalance} tokens`, Code.FailedPrecondition);
    }
    written.push({ ...e, account_id: account.id, balance_after: balance, created_at: now });
  }
  await db(tem).insertInto("token_transaction").values(written).execute();
  // Conditional as well as locked: the update cannot take the balance below zero whatever happened before.
  const updated = await db(tem)
    .updateTable("token_account")
    .set({ balance, updated_at: now })
    .where("id", "=", account.id)
    .where("balance", "=", account.balance)
    .where(sql<boolean>`${balance} >= 0`)
    .returning(ACCOUNT_COLUMNS)
    .execute();
  if (updated.length !== 1) throw new ConnectError("the token account changed concurrently", Code.Aborted);
  return { account: acc(updated[0])!, entries: written };
}

/** The account's entry with this reference (a debit's hold, a credit), if any. */
export async function entryByReference(
  tem: EntityManager,
  accountId: string,
  reference: string,
): Promise<EntryRow | undefined> {
  return db(tem)
    .selectFrom("token_transaction")
    .selectAll()
    .where("account_id", "=", accountId)
    .where("reference", "=", reference)
    .executeTakeFirst();
}

export interface CreditResult {
  applied: boolean;
  account: AccountRow;
  entry: EntryRow;
}

/**
 * Credits tokens once per reasonId (a payment, a subscription period, an admin grant's key): a second credit
 * with the same reasonId changes nothing and answers the first entry. Creates the account when missing.
 * For the payment service's event (when tt.payment.v1 exists) and the admin grant.
 */
export async function credit(
  em: EntityManager,
  userUuid: string,
  tokens: number,
  reasonId: string,
  opts: { reason?: string; maxBalance?: number; accountId?: string } = {},
): Promise<CreditResult> {
  if (!Number.isInteger(tokens) || tokens <= 0) throw new ConnectError("tokens must be positive", Code.InvalidArgument);
  if (!opts.accountId) await ensureAccount(em, userUuid);
  return inTransaction(em, async (tem) => {
    const account = opts.accountId
      ? await lockAccount(tem, "id", opts.accountId)
      : await lockAccount(tem, "user_uuid", userUuid);
    if (!account) throw new ConnectError(ACCOUNT_NOT_FOUND, Code.NotFound);
    const reference = `credit:${reasonId}`;
    const prior = await entryByReference(tem, account.id, reference);
    if (prior) return { applied: false, account, entry: prior };
    const id = randomUUID();
    const done = await apply(
      tem,
      account,
      [{ id, type: "credit", amount: tokens, hold_id: null, reason: opts.reason ?? null, reference }],
      opts.maxBalance,
    );
    return { applied: true, account: done.account, entry: done.entries[0]! };
  });
}

/** Reserves tokens (a hold entry) on the user's account; `key` makes a retry answer the same hold. */
export async function hold(
  em: EntityManager,
  userUuid: string,
  tokens: number,
  opts: { key?: string; reason?: string } = {},
): Promise<{ account: AccountRow; entry: EntryRow }> {
  return inTransaction(em, async (tem) => {
    const account = await lockAccount(tem, "user_uuid", userUuid);
    if (!account) throw new ConnectError(OWN_ACCOUNT_NOT_FOUND, Code.NotFound);
    const reference = opts.key ? `hold:${opts.key}` : null;
    if (reference) {
      const prior = await entryByReference(tem, account.id, reference);
      if (prior) {
        if (-prior.amount !== tokens) throw httpError(KEY_REUSED, Code.InvalidArgument, 422);
        return { account, entry: prior };
      }
    }
    if (account.status !== "active") throw new ConnectError(ACCOUNT_DISABLED, Code.PermissionDenied);
    const id = randomUUID();
    const done = await apply(tem, account, [
      { id, type: "hold", amount: -tokens, hold_id: id, reason: opts.reason ?? null, reference },
    ]);
    return { account: done.account, entry: done.entries[0]! };
  });
}

/**
 * Settles a hold: commit (the tokens are spent: a 0 entry) or void (they come back). Settling twice the same
 * way answers the first settlement; the other way is 409. `userUuid` limits it to the owner's holds (null:
 * a service may settle any).
 */
export async function settleHold(
  em: EntityManager,
  holdId: string,
  how: "commit" | "voided",
  userUuid: string | null,
): Promise<{ account: AccountRow; entry: EntryRow }> {
  const found = await db(em)
    .selectFrom("token_transaction")
    .select("account_id")
    .where("id", "=", holdId)
    .where("type", "=", "hold")
    .executeTakeFirst();
  if (!found) throw new ConnectError(HOLD_NOT_FOUND, Code.NotFound);
  return inTransaction(em, async (tem) => {
    const account = await lockAccount(tem, "id", found.account_id);
    if (!account || (userUuid !== null && account.user_uuid !== userUuid)) {
      throw new ConnectError(HOLD_NOT_FOUND, Code.NotFound);
    }
    const prior = await db(tem)
      .selectFrom("token_transaction")
      .selectAll()
      .where("hold_id", "=", holdId)
      .where("type", "in", ["commit", "voided"])
      .executeTakeFirst();
    if (prior) {
      if (prior.type === how) return { account, entry: prior };
      throw new ConnectError(`hold already ${prior.type === "commit" ? "committed" : "voided"}`, Code.Aborted);
    }
    const holdRow = await db(tem)
      .selectFrom("token_transaction")
      .selectAll()
      .where("id", "=", holdId)
      .executeTakeFirst();
    const amount = how === "commit" ? 0 : -holdRow!.amount;
    const done = await apply(tem, account, [
      { id: randomUUID(), type: how, amount, hold_id: holdId, reason: null, reference: `settle:${holdId}` },
    ]);
    return { account: done.account, entry: done.entries[0]! };
  });
}

export interface ConsumableInfo {
  id: string;
  name: string;
  tokenCost: number;
  fileUrl: string;
}

export interface PurchaseInput {
  userUuid: string;
  /** The consumable's id (lower case). */
  consumableId: string;
  /**
   * Reads the consumable (NotFound when there is none). Called only where the single statement cannot answer
   * alone: a refusal to explain, a replay, or a room purchase's event (its name and file).
   */
  loadConsumable(): Promise<ConsumableInfo>;
  tokenCost: number;
  accountId: string;
  roomUuid: string;
  balanceUnmodifiedSince?: Date;
  lastTokenBalance?: number;
  idempotencyKey: string | null;
  /** The request's fingerprint: the same key with another fingerprint is refused (422). */
  requestHash: string;
}

/** A purchase as the database answers it (its times as text). */
export type PurchaseRow = Selectable<MerchTables["consumable_purchase"]>;

export interface PurchaseResult {
  purchase: PurchaseRow;
  account: AccountRow;
  /** False when this is the first answer again (the same Idempotency-Key and body). */
  created: boolean;
}

/** The sha256 (hex) of the value's JSON; the one-shot `hash` costs a fraction of a `createHash` object. */
export function requestHash(value: unknown): string {
  return hash("sha256", JSON.stringify(value));
}

async function priorPurchase(tem: EntityManager, userUuid: string, key: string) {
  return db(tem)
    .selectFrom("consumable_purchase")
    .selectAll()
    .where("user_uuid", "=", userUuid)
    .where("idempotency_key", "=", key)
    .executeTakeFirst();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Buys a consumable: a hold of its tokenCost committed at once (two entries), the purchase row and, with a
 * roomUuid, the ConsumablePurchased event (outbox), all atomic. The common case is one statement (`purchaseFast`);
 * whatever it does not debit goes through the locked path, which says why or answers the key's first answer.
 */
export async function purchase(em: EntityManager, input: PurchaseInput): Promise<PurchaseResult> {
  let consumable: Promise<ConsumableInfo> | undefined;
  const load = () => (consumable ??= input.loadConsumable());
  const wellFormed = [input.consumableId, input.accountId, input.roomUuid].every((id) => !id || UUID.test(id));
  if (wellFormed && input.consumableId) {
    const fast = await purchaseFast(em, input, input.roomUuid ? await load() : undefined);
    if (fast) return fast;
  }
  return purchaseLocked(em, input, await load());
}

/** What the hot path uses of the `pg` pool under the ORM (named statements: parsed once per connection). */
interface NativePool {
  query<R>(query: { name: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>;
}
const pools = new WeakMap<object, Promise<NativePool>>();
/** The ORM's own `pg` pool: the purchase's prepared statement skips the ORM's query building, same connections. */
function nativePool(em: EntityManager): Promise<NativePool> {
  const connection = em.getConnection();
  let pool = pools.get(connection);
  if (!pool) {
    pool = connection.getNativeClient() as Promise<NativePool>;
    pools.set(connection, pool);
  }
  return pool;
}

/**
 * The purchase in one statement, prepared once per connection. The consumable must exist with the claimed
 * tokenCost; the conditional UPDATE debits only an active account with enough tokens whose view is not stale and
 * that has no purchase with this key yet; the same statement appends the hold and commit entries, the purchase
 * row and (room variant) the event's outbox row. Parameters: $1 consumable, $2 claimed cost, $3 now, $4 user,
 * $5 accountId, $6 lastTokenBalance, $7 balanceUnmodifiedSince, $8 key, $9 hold id, $10 reason, $11 purchase id,
 * $12 commit entry id, $13 room, $14 request hash; room variant: $15 event id, $16 subject, $17 payload,
 * $18 headers.
 */
function purchaseStatement(withEvent: boolean): string {
  return `with c as (
    select "id", "token_cost" from ${S}."consumable" where "id" = $1::uuid and "token_cost" = $2::int),
  upd as (
    update ${S}."token_account" a set "balance" = a."balance" - c."token_cost", "updated_at" = $3::timestamptz
    from c
    where a."user_uuid" = $4::uuid and a."status" = 'active' and a."balance" >= c."token_cost"
      and ($5::uuid is null or a."id" = $5::uuid)
      and ($6::int is null or a."balance" = $6::int)
      and ($7::timestamptz is null or a."updated_at" <= $7::timestamptz)
      and ($8::varchar is null or not exists (select 1 from ${S}."consumable_purchase" p
           where p."user_uuid" = $4::uuid and p."idempotency_key" = $8::varchar))
    returning a."id", a."user_uuid", a."balance", a."status", a."updated_at", a."created_at"),
  entries as (
    insert into ${S}."token_transaction"
      ("id", "account_id", "type", "amount", "balance_after", "hold_id", "reason", "reference", "created_at")
    select $9::uuid, upd."id", 'hold', -$2::int, upd."balance", $9::uuid, $10::varchar,
      'purchase:' || $11::uuid::text, $3::timestamptz from upd
    union all
    select $12::uuid, upd."id", 'commit', 0, upd."balance", $9::uuid, $10::varchar,
      'settle:' || $9::uuid::text, $3::timestamptz from upd),
  bought as (
    insert into ${S}."consumable_purchase" ("id", "account_id", "user_uuid", "consumable_id", "token_cost",
      "room_uuid", "idempotency_key", "request_hash", "balance_after", "account_updated_at", "created_at")
    select $11::uuid, upd."id", upd."user_uuid", $1::uuid, $2::int, $13::uuid, $8::varchar, $14::varchar,
      upd."balance", upd."updated_at", $3::timestamptz from upd)${
        withEvent
          ? `,
  announced as (
    insert into ${S}."outbox_message" ("id", "subject", "payload", "headers", "created_at")
    select $15::uuid, $16::varchar, $17::bytea, $18::jsonb, $3::timestamptz from upd)`
          : ""
      }
  select * from upd`;
}
export const PURCHASE = { name: "merch-purchase", text: purchaseStatement(false) };
export const PURCHASE_IN_ROOM = { name: "merch-purchase-room", text: purchaseStatement(true) };

/** One purchase's values in the batch statement (the columns of its `unnest`). */
interface BatchItem {
  userUuid: string;
  consumableId: string;
  cost: number;
  accountId: string | null;
  lastBalance: number | null;
  since: Date | null;
  key: string | null;
  holdId: string;
  reason: string;
  purchaseId: string;
  commitId: string;
  roomUuid: string | null;
  requestHash: string;
  eventId: string | null;
  subject: string | null;
  payload: Buffer | null;
  headers: string | null;
}
export const BATCH_COLUMNS: Array<[keyof BatchItem, string]> = [
  ["userUuid", "uuid"],
  ["consumableId", "uuid"],
  ["cost", "int"],
  ["accountId", "uuid"],
  ["lastBalance", "int"],
  ["since", "timestamptz"],
  ["key", "varchar"],
  ["holdId", "uuid"],
  ["reason", "varchar"],
  ["purchaseId", "uuid"],
  ["commitId", "uuid"],
  ["roomUuid", "uuid"],
  ["requestHash", "varchar"],
  ["eventId", "uuid"],
  ["subject", "varchar"],
  ["payload", "bytea"],
  ["headers", "jsonb"],
];

/**
 * Purchases in one statement, prepared once per connection: any number of them (one per user), each given as a
 * row of arrays ($1…$17, see BATCH_COLUMNS; $18 is now). Their accounts are locked one by one in the order of their
 * users' uuids, through the user index (two batches never wait on each other in a cycle); for each purchase the consumable must exist with the claimed tokenCost, and the
 * conditional UPDATE debits only an active account with enough tokens whose view is not stale and that has no
 * purchase with this key yet; the same statement appends the hold and commit entries, the purchase row and, for
 * a room, the event's outbox row. It answers the purchases it debited; the others debited nothing.
 *
 * The key's earlier purchase is looked up by a lateral probe of the (user, key) index, one per purchase, not by
 * `not exists` in the UPDATE's condition: under `or` that stays a subplan, and PostgreSQL may plan it "hashed"
 * (read the whole purchase table into a hash once per execution). A generic plan made while the table was small
 * (a new connection on a new database) kept that choice for the connection's life, so each batch read every
 * purchase ever made: at 30,000 purchases 12.5 ms a batch of 8 instead of 1.5. A lateral subquery with `limit`
 * is never flattened, so it can only be the index probe. A key that is null finds nothing, as before.
 */
export const PURCHASE_BATCH = {
  name: "merch-purchase-batch",
  text: `with v as (
    select * from unnest(${BATCH_COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ")})
      as v(${BATCH_COLUMNS.map(([name]) => `"${name}"`).join(", ")})),
  locked as (
    select a."id", k."taken", v.* from (select * from v order by "userUuid") v
    cross join lateral (select t."id" from ${S}."token_account" t where t."user_uuid" = v."userUuid" for update) a
    left join lateral (select true as "taken" from ${S}."consumable_purchase" p
      where p."user_uuid" = v."userUuid" and p."idempotency_key" = v."key" limit 1) k on true),
  upd as (
    update ${S}."token_account" a set "balance" = a."balance" - l."cost", "updated_at" = $18::timestamptz
    from locked l join ${S}."consumable" c on c."id" = l."consumableId" and c."token_cost" = l."cost"
    where a."id" = l."id" and a."status" = 'active' and a."balance" >= l."cost"
      and (l."accountId" is null or a."id" = l."accountId")
      and (l."lastBalance" is null or a."balance" = l."lastBalance")
      and (l."since" is null or a."updated_at" <= l."since")
      and l."taken" is null
    returning a."id", a."user_uuid", a."balance", a."status", a."updated_at", a."created_at", l."consumableId",
      l."cost", l."key", l."holdId", l."reason", l."purchaseId", l."commitId", l."roomUuid", l."requestHash",
      l."eventId", l."subject", l."payload", l."headers"),
  entries as (
    insert into ${S}."token_transaction"
      ("id", "account_id", "type", "amount", "balance_after", "hold_id", "reason", "reference", "created_at")
    select upd."holdId", upd."id", 'hold', -upd."cost", upd."balance", upd."holdId", upd."reason",
      'purchase:' || upd."purchaseId"::text, $18::timestamptz from upd
    union all
    select upd."commitId", upd."id", 'commit', 0, upd."balance", upd."holdId", upd."reason",
      'settle:' || upd."holdId"::text, $18::timestamptz from upd),
  bought as (
    insert into ${S}."consumable_purchase" ("id", "account_id", "user_uuid", "consumable_id", "token_cost",
      "room_uuid", "idempotency_key", "request_hash", "balance_after", "account_updated_at", "created_at")
    select upd."purchaseId", upd."id", upd."user_uuid", upd."consumableId", upd."cost", upd."roomUuid", upd."key",
      upd."requestHash", upd."balance", upd."updated_at", $18::timestamptz from upd),
  announced as (
    insert into ${S}."outbox_message" ("id", "subject", "payload", "headers", "created_at")
    select upd."eventId", upd."subject", upd."payload", upd."headers", $18::timestamptz from upd
    where upd."eventId" is not null)
  select upd."id", upd."user_uuid", upd."balance", upd."status", upd."updated_at", upd."created_at",
    upd."purchaseId" from upd`,
};

/** Batches in flight at once per pool (each holds one connection for one statement), and purchases per batch. */
const BATCHES_IN_FLIGHT = 2;
const BATCH_SIZE = 64;
/** The batch failed as a whole (and changed nothing): the purchase is tried again alone. */
const ALONE = Symbol("alone");

type Debited = { account: AccountRow; at: Date } | undefined;

/**
 * Purchases arriving while earlier ones are in the database wait and leave together, one statement for the lot:
 * a round trip and a commit shared by many. No timer: a purchase leaves at once while fewer than
 * BATCHES_IN_FLIGHT statements run, so a quiet service answers as fast as before. One purchase per user per
 * batch (a second one waits for the next), so a purchase never competes with a sibling for its account or key.
 */
class PurchaseBatcher {
  private queue: Array<{
    item: BatchItem;
    done: (result: Debited | typeof ALONE) => void;
    fail: (err: unknown) => void;
  }> = [];
  private inFlight = 0;

  constructor(private readonly pool: NativePool) {}

  debit(item: BatchItem): Promise<Debited | typeof ALONE> {
    return new Promise((done, fail) => {
      this.queue.push({ item, done, fail });
      this.pump();
    });
  }

  /** One purchase alone: a twin with the same key won the race (unique violation) when undefined comes back. */
  async alone(item: BatchItem): Promise<Debited> {
    try {
      return (await this.run([item]))[0];
    } catch (err) {
      if ((err as { code?: string }).code === "23505") return undefined;
      throw err;
    }
  }

  private pump() {
    while (this.inFlight < BATCHES_IN_FLIGHT && this.queue.length > 0) {
      const users = new Set<string>();
      const batch: typeof this.queue = [];
      const rest: typeof this.queue = [];
      for (const entry of this.queue) {
        if (batch.length < BATCH_SIZE && !users.has(entry.item.userUuid)) {
          users.add(entry.item.userUuid);
          batch.push(entry);
        } else rest.push(entry);
      }
      this.queue = rest;
      this.inFlight++;
      void this.send(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async send(batch: typeof this.queue) {
    try {
      const results = await this.run(batch.map((entry) => entry.item));
      batch.forEach((entry, i) => entry.done(results[i]));
    } catch (err) {
      const failedInDatabase = typeof (err as { code?: unknown }).code === "string";
      for (const entry of batch) {
        // A statement the database refused changed nothing: each purchase is tried again alone (one of them may
        // have been refused for its own reason, a key's twin committed by another batch). Anything else (the
        // connection lost) is the purchase's error, as it would be alone.
        if (failedInDatabase && batch.length > 1) entry.done(ALONE);
        else if (failedInDatabase && (err as { code: string }).code === "23505") entry.done(undefined);
        else entry.fail(err);
      }
    }
  }

  /** A purchase alone takes the single statement: planned once, cheaper than a batch of one. */
  private async runOne(item: BatchItem, at: Date): Promise<Debited> {
    const values: unknown[] = [
      item.consumableId,
      item.cost,
      at,
      item.userUuid,
      item.accountId,
      item.lastBalance,
      item.since,
      item.key,
      item.holdId,
      item.reason,
      item.purchaseId,
      item.commitId,
      item.roomUuid,
      item.requestHash,
    ];
    if (item.eventId) values.push(item.eventId, item.subject, item.payload, item.headers);
    const { rows } = await this.pool.query<AccountRow>({ ...(item.eventId ? PURCHASE_IN_ROOM : PURCHASE), values });
    return rows[0] ? { account: acc(rows[0])!, at } : undefined;
  }

  private async run(items: BatchItem[]): Promise<Debited[]> {
    const at = new Date();
    if (items.length === 1) return [await this.runOne(items[0]!, at)];
    // The statement locks in this order too; sorted here as well, so the scan it locks along follows it. The
    // answers below follow `items`, whatever this order.
    const sorted = [...items].sort((a, b) => (a.userUuid < b.userUuid ? -1 : a.userUuid > b.userUuid ? 1 : 0));
    const values: unknown[] = BATCH_COLUMNS.map(([name]) => sorted.map((item) => item[name]));
    values.push(at);
    const { rows } = await this.pool.query<AccountRow & { purchaseId: string }>({ ...PURCHASE_BATCH, values });
    const byPurchase = new Map(rows.map((row) => [row.purchaseId, row]));
    return items.map((item) => {
      const row = byPurchase.get(item.purchaseId);
      if (!row) return undefined;
      const { purchaseId: _, ...account } = row;
      return { account: acc(account)!, at };
    });
  }
}

const batchers = new WeakMap<NativePool, PurchaseBatcher>();

async function purchaseFast(
  em: EntityManager,
  input: PurchaseInput,
  consumable: ConsumableInfo | undefined,
): Promise<PurchaseResult | undefined> {
  const purchaseId = randomUUID();
  const holdId = randomUUID();
  const cost = input.tokenCost;
  const event = input.roomUuid
    ? eventRecord(ConsumablePurchasedSchema, {
        purchaseId,
        roomUuid: input.roomUuid,
        userUuid: input.userUuid,
        consumableId: input.consumableId,
        consumableName: consumable?.name ?? "",
        tokenCost: cost,
        fileUrl: consumable?.fileUrl ?? "",
      })
    : undefined;
  const item: BatchItem = {
    userUuid: input.userUuid,
    consumableId: input.consumableId,
    cost,
    accountId: input.accountId || null,
    lastBalance: input.lastTokenBalance ?? null,
    since: input.balanceUnmodifiedSince ?? null,
    key: input.idempotencyKey,
    holdId,
    reason: `consumable ${input.consumableId}`,
    purchaseId,
    commitId: randomUUID(),
    roomUuid: input.roomUuid || null,
    requestHash: input.requestHash,
    eventId: event?.id ?? null,
    subject: event?.subject ?? null,
    payload: event ? Buffer.from(event.payload) : null,
    headers: event ? JSON.stringify(event.headers) : null,
  };
  const pool = await nativePool(em);
  let batcher = batchers.get(pool);
  if (!batcher) batchers.set(pool, (batcher = new PurchaseBatcher(pool)));
  const batched = await batcher.debit(item);
  const debited = batched === ALONE ? await batcher.alone(item) : batched;
  if (!debited) return undefined;
  const { account, at } = debited;
  return {
    created: true,
    account,
    purchase: {
      id: purchaseId,
      account_id: account.id,
      user_uuid: input.userUuid,
      consumable_id: input.consumableId,
      token_cost: cost,
      room_uuid: input.roomUuid || null,
      idempotency_key: input.idempotencyKey,
      request_hash: input.requestHash,
      balance_after: account.balance,
      account_updated_at: account.updated_at,
      created_at: at,
    },
  };
}

async function purchaseLocked(
  em: EntityManager,
  input: PurchaseInput,
  consumable: ConsumableInfo,
): Promise<PurchaseResult> {
  return inTransaction(em, async (tem) => {
    const account = await lockAccount(tem, "user_uuid", input.userUuid);
    if (!account) throw new ConnectError(OWN_ACCOUNT_NOT_FOUND, Code.NotFound);
    if (input.idempotencyKey) {
      const prior = await priorPurchase(tem, input.userUuid, input.idempotencyKey);
      if (prior) {
        if (prior.request_hash !== input.requestHash) throw httpError(KEY_REUSED, Code.InvalidArgument, 422);
        return {
          purchase: prior,
          account: { ...account, balance: prior.balance_after, updated_at: new Date(prior.account_updated_at) },
          created: false,
        };
      }
    }
    if (input.accountId && input.accountId !== account.id) throw new ConnectError(ACCOUNT_NOT_FOUND, Code.NotFound);
    if (account.status !== "active") throw new ConnectError(ACCOUNT_DISABLED, Code.PermissionDenied);
    if (input.tokenCost !== consumable.tokenCost) throw httpError(PRICE_CHANGED, Code.Aborted, 409);
    if (
      (input.balanceUnmodifiedSince && account.updated_at.getTime() > input.balanceUnmodifiedSince.getTime()) ||
      (input.lastTokenBalance !== undefined && input.lastTokenBalance !== account.balance)
    ) {
      throw httpError(BALANCE_CHANGED, Code.Aborted, 409);
    }
    const cost = consumable.tokenCost;
    if (account.balance < cost) throw httpError(NOT_ENOUGH_TOKENS, Code.Aborted, 409);
    const holdId = randomUUID();
    const purchaseId = randomUUID();
    const reason = `consumable ${consumable.id}`;
    const done = await apply(tem, account, [
      { id: holdId, type: "hold", amount: -cost, hold_id: holdId, reason, reference: `purchase:${purchaseId}` },
      { id: randomUUID(), type: "commit", amount: 0, hold_id: holdId, reason, reference: `settle:${holdId}` },
    ]);
    const now = new Date();
    const row: PurchaseRow = {
      id: purchaseId,
      account_id: account.id,
      user_uuid: input.userUuid,
      consumable_id: consumable.id,
      token_cost: cost,
      room_uuid: input.roomUuid || null,
      idempotency_key: input.idempotencyKey,
      request_hash: input.requestHash,
      balance_after: done.account.balance,
      account_updated_at: done.account.updated_at,
      created_at: now,
    };
    await db(tem).insertInto("consumable_purchase").values(row).execute();
    if (row.room_uuid) {
      publishEvent(tem, ConsumablePurchasedSchema, {
        purchaseId,
        roomUuid: row.room_uuid,
        userUuid: input.userUuid,
        consumableId: consumable.id,
        consumableName: consumable.name,
        tokenCost: cost,
        fileUrl: consumable.fileUrl,
      });
    }
    return { purchase: row, account: done.account, created: true };
  });
}

/**
 * Debits `cost` for something other than a consumable (an avatar purchase): a committed hold with `reference`,
 * inside the caller's transaction `tem`. Answers false when that reference was already debited.
 */
export async function debitInTransaction(
  tem: EntityManager,
  userUuid: string,
  cost: number,
  reference: string,
  reason: string,
): Promise<{ account: AccountRow; debited: boolean }> {
  const account = await lockAccount(tem, "user_uuid", userUuid);
  if (!account) throw new ConnectError(OWN_ACCOUNT_NOT_FOUND, Code.NotFound);
  if (await entryByReference(tem, account.id, reference)) return { account, debited: false };
  if (account.status !== "active") throw new ConnectError(ACCOUNT_DISABLED, Code.PermissionDenied);
  if (account.balance < cost) throw httpError(NOT_ENOUGH_TOKENS, Code.Aborted, 409);
  const holdId = randomUUID();
  const done = await apply(tem, account, [
    { id: holdId, type: "hold", amount: -cost, hold_id: holdId, reason, reference },
    { id: randomUUID(), type: "commit", amount: 0, hold_id: holdId, reason, reference: `settle:${holdId}` },
  ]);
  return { account: done.account, debited: true };
}

export async function setStatus(em: EntityManager, accountId: string, status: string): Promise<AccountRow> {
  const row = await db(em)
    .updateTable("token_account")
    .set({ status })
    .where("id", "=", accountId)
    .returning(ACCOUNT_COLUMNS)
    .executeTakeFirst();
  if (!row) throw new ConnectError(ACCOUNT_NOT_FOUND, Code.NotFound);
  return acc(row)!;
}

export interface LedgerCheck {
  accountsChecked: number;
  entriesChecked: number;
  negativeBalances: number;
  mismatches: Array<{ accountId: string; balance: number; sumOfEntries: number }>;
  ok: boolean;
}

/** Every account's balance against the sum of its entries, and no balance or running balance below zero. */
export async function checkLedger(em: EntityManager): Promise<LedgerCheck> {
  const rows = await db(em)
    .selectFrom("token_account as a")
    .leftJoin(
      (eb) =>
        eb
          .selectFrom("token_transaction")
          .select((t) => ["account_id", t.fn.sum<string>("amount").as("sum"), t.fn.countAll<string>().as("n")])
          .groupBy("account_id")
          .as("s"),
      (join) => join.onRef("s.account_id", "=", "a.id"),
    )
    .select((eb) => ["a.id", "a.balance", "s.sum", eb.fn.coalesce("s.n", sql.lit(0)).as("n")])
    .execute();
  const neg = await db(em)
    .selectNoFrom((eb) =>
      eb(
        eb.selectFrom("token_account").select(eb.fn.countAll<string>().as("n")).where("balance", "<", 0),
        "+",
        eb.selectFrom("token_transaction").select(eb.fn.countAll<string>().as("n")).where("balance_after", "<", 0),
      ).as("n"),
    )
    .executeTakeFirst();
  const mismatches = rows
    .filter((r) => Number(r.sum ?? 0) !== r.balance)
    .map((r) => ({ accountId: r.id, balance: r.balance, sumOfEntries: Number(r.sum ?? 0) }));
  const negativeBalances = Number(neg!.n);
  return {
    accountsChecked: rows.length,
    entriesChecked: rows.reduce((n, r) => n + Number(r.n), 0),
    negativeBalances,
    mismatches,
    ok: mismatches.length === 0 && negativeBalances === 0,
  };
}
