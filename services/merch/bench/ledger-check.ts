// The Jepsen-style ledger check (issue 15): randomized concurrent purchase, credit, hold, commit and void
// operations across many accounts through the gateway, some retried with the same Idempotency-Key, while the
// merch process is killed (SIGKILL) and started again at random moments. Afterwards, from the database:
// no balance below zero, every balance equals the sum of its entries, every idempotency key debited at most once,
// every acknowledged operation is there and no refused one is. Operations whose answer never came (the process
// died, the gateway answered 5xx) may or may not have happened: they are counted, not judged.
import { randomUUID } from "node:crypto";
import pg from "pg";
import type { Topology } from "./topology.ts";

export interface LedgerCheckOptions {
  operations: number;
  accounts: number;
  concurrency: number;
  /** How many times the merch process is killed and restarted during the run. */
  kills: number;
  /** Share of operations sent a second time with the same key and body. */
  retryRate?: number;
  seed?: number;
  log?: (line: string) => void;
}

type Kind = "purchase" | "credit" | "hold" | "commit" | "void";
type Outcome = "ok" | "refused" | "unknown";

interface Op {
  kind: Kind;
  account: number;
  key: string;
  holdId?: string;
  tokens: number;
  outcomes: Outcome[];
  statuses: number[];
}

export interface LedgerCheckReport {
  operations: number;
  attempts: number;
  byKind: Record<Kind, { ok: number; refused: number; unknown: number }>;
  kills: number;
  accounts: number;
  entries: number;
  purchases: number;
  violations: string[];
}

/** A small deterministic PRNG (mulberry32), so a failing run can be repeated with its seed. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const m = (path: string) => `/api/merch-service${path}`;

export async function runLedgerCheck(top: Topology, opts: LedgerCheckOptions): Promise<LedgerCheckReport> {
  const log = opts.log ?? (() => undefined);
  const seed = opts.seed ?? Date.now();
  const random = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  log(`seed ${seed}`);

  const call = async (method: string, path: string, token: string, body?: unknown, key?: string) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    if (key) headers["idempotency-key"] = key;
    try {
      const res = await fetch(top.gatewayUrl + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await res.text();
      let json: Record<string, unknown> = {};
      try {
        json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        json = { text };
      }
      return { status: res.status, body: json };
    } catch {
      return { status: 0, body: {} };
    }
  };
  const outcomeOf = (status: number): Outcome =>
    status === 200 ? "ok" : status >= 400 && status < 500 && status !== 408 && status !== 429 ? "refused" : "unknown";

  // Setup (before any kill): accounts with a starting grant, and consumables of a few prices.
  const adminSub = randomUUID();
  const admin = await top.userToken("admin", adminSub);
  const users: Array<{ token: string; sub: string; accountId: string; holds: string[] }> = [];
  for (let i = 0; i < opts.accounts; i++) {
    const sub = randomUUID();
    const token = await top.userToken("user", sub);
    const res = await call("POST", m("/api/v1/token-accounts"), token, {});
    if (res.status !== 200) throw new Error(`account creation answered ${res.status}`);
    const accountId = res.body.id as string;
    const grant = await call("POST", m(`/api/v1/token-accounts/${accountId}/grant`), admin, {
      tokens: 100,
      reason: "starting balance",
    });
    if (grant.status !== 200) throw new Error(`starting grant answered ${grant.status}`);
    users.push({ token, sub, accountId, holds: [] });
  }
  const consumables: Array<{ id: string; cost: number }> = [];
  for (const cost of [3, 5, 8, 13]) {
    const res = await call("POST", m("/api/v1/consumables"), admin, { name: `check ${cost}`, tokenCost: cost });
    if (res.status !== 200) throw new Error(`consumable creation answered ${res.status}`);
    consumables.push({ id: res.body.id as string, cost });
  }

  const ops: Op[] = [];
  let attempts = 0;
  const runOp = async (op: Op, u: (typeof users)[number]) => {
    attempts++;
    let res;
    switch (op.kind) {
      case "purchase": {
        const c = consumables[op.tokens]!;
        res = await call(
          "POST",
          m("/api/v1/consumable-purchases"),
          u.token,
          { consumableId: c.id, tokenCost: c.cost },
          op.key,
        );
        break;
      }
      case "credit":
        res = await call(
          "POST",
          m(`/api/v1/token-accounts/${u.accountId}/grant`),
          admin,
          { tokens: op.tokens, reason: "check" },
          op.key,
        );
        break;
      case "hold":
        res = await call("POST", m("/api/v1/token-transactions/hold"), u.token, { tokens: op.tokens }, op.key);
        if (res.status === 200 && !u.holds.includes(res.body.id as string)) u.holds.push(res.body.id as string);
        break;
      case "commit":
        res = await call("POST", m("/api/v1/token-transactions/commit"), u.token, { holdId: op.holdId });
        break;
      case "void":
        res = await call("POST", m("/api/v1/token-transactions/void"), u.token, { holdId: op.holdId });
        break;
    }
    op.statuses.push(res.status);
    op.outcomes.push(outcomeOf(res.status));
  };

  let next = 0;
  let done = false;
  const worker = async () => {
    while (next < opts.operations) {
      next++;
      const account = Math.floor(random() * users.length);
      const u = users[account]!;
      const r = random();
      let kind: Kind = r < 0.45 ? "purchase" : r < 0.6 ? "credit" : r < 0.8 ? "hold" : r < 0.9 ? "commit" : "void";
      if ((kind === "commit" || kind === "void") && u.holds.length === 0) kind = "hold";
      const op: Op = {
        kind,
        account,
        key: randomUUID(),
        tokens:
          kind === "purchase"
            ? Math.floor(random() * consumables.length)
            : kind === "credit"
              ? 1 + Math.floor(random() * 20)
              : 1 + Math.floor(random() * 15),
        holdId: kind === "commit" || kind === "void" ? pick(u.holds) : undefined,
        outcomes: [],
        statuses: [],
      };
      ops.push(op);
      await runOp(op, u);
      // A client that got no answer retries with the same key after a pause (the process may be restarting).
      for (let i = 0; i < 100 && op.outcomes.at(-1) === "unknown"; i++) {
        await new Promise((r) => setTimeout(r, 50 + random() * 150));
        await runOp(op, u);
      }
      if (random() < (opts.retryRate ?? 0.25)) await runOp(op, u);
    }
  };

  let kills = 0;
  // Each kill comes at a random moment while operations run: once a random share of them has started (a moment
  // in time could come after a fast run has ended, and the check would then kill nothing).
  const killAt = Array.from({ length: opts.kills }, (_, i) =>
    Math.floor(((i + 0.5 + random() * 0.5) / (opts.kills + 1)) * opts.operations),
  );
  const killer = async () => {
    for (const at of killAt) {
      while (next < at && !done) await new Promise((r) => setTimeout(r, 5));
      if (done) break;
      await top.killAndRestartMerch();
      kills++;
      log(`merch killed and restarted (${kills})`);
    }
  };
  const killing = killer();
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  done = true;
  await killing;
  // Operations whose outcome is unknown may still be retried by a client; one more attempt each settles most.
  if (process.env.LEDGER_CHECK_DEBUG) {
    for (const op of ops.filter((o) => o.outcomes.includes("unknown"))) log(`${op.kind} ${op.statuses.join(",")}`);
  }
  for (const op of ops.filter((o) => !o.outcomes.includes("ok") && o.outcomes.includes("unknown"))) {
    if (op.kind !== "commit" && op.kind !== "void") await runOp(op, users[op.account]!);
  }

  return verify(top.databaseUrl, ops, users, adminSub, attempts, kills);
}

async function verify(
  databaseUrl: string,
  ops: Op[],
  users: Array<{ sub: string; accountId: string }>,
  adminSub: string,
  attempts: number,
  kills: number,
): Promise<LedgerCheckReport> {
  const db = new pg.Client(databaseUrl);
  await db.connect();
  const violations: string[] = [];
  try {
    const q = async <T>(sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows as T[];
    const accounts = await q<{ id: string; user_uuid: string; balance: number }>(
      `select id, user_uuid, balance from merch.token_account`,
    );
    const sums = new Map(
      (
        await q<{ account_id: string; sum: string }>(
          `select account_id, sum(amount) as sum from merch.token_transaction group by account_id`,
        )
      ).map((r) => [r.account_id, Number(r.sum)]),
    );
    for (const a of accounts) {
      if (a.balance < 0) violations.push(`account ${a.id} has a negative balance ${a.balance}`);
      if ((sums.get(a.id) ?? 0) !== a.balance) {
        violations.push(`account ${a.id}: balance ${a.balance} but its entries sum to ${sums.get(a.id) ?? 0}`);
      }
    }
    const negativeRunning = await q<{ n: string }>(
      `select count(*) as n from merch.token_transaction where balance_after < 0`,
    );
    if (Number(negativeRunning[0]!.n) > 0) violations.push(`${negativeRunning[0]!.n} entries left a negative balance`);

    const purchases = await q<{ id: string; user_uuid: string; idempotency_key: string | null; debits: string }>(
      `select p.id, p.user_uuid, p.idempotency_key,
              (select count(*) from merch.token_transaction t where t.reference = 'purchase:' || p.id) as debits
       from merch.consumable_purchase p`,
    );
    const byKey = new Map<string, number>();
    for (const p of purchases) {
      if (Number(p.debits) !== 1) violations.push(`purchase ${p.id} was debited ${p.debits} times`);
      if (p.idempotency_key) byKey.set(p.idempotency_key, (byKey.get(p.idempotency_key) ?? 0) + 1);
    }
    for (const [key, n] of byKey) if (n > 1) violations.push(`idempotency key ${key} was debited ${n} times`);
    const orphanDebits = await q<{ n: string }>(
      `select count(*) as n from merch.token_transaction t where t.reference like 'purchase:%'
         and not exists (select 1 from merch.consumable_purchase p where 'purchase:' || p.id = t.reference)`,
    );
    if (Number(orphanDebits[0]!.n) > 0) violations.push(`${orphanDebits[0]!.n} debits without their purchase`);

    const references = new Set(
      (await q<{ reference: string }>(`select reference from merch.token_transaction where reference is not null`)).map(
        (r) => r.reference,
      ),
    );
    const settlements = new Map(
      (
        await q<{ hold_id: string; type: string }>(
          `select hold_id, type from merch.token_transaction where type in ('commit', 'voided')`,
        )
      ).map((r) => [r.hold_id, r.type]),
    );
    for (const op of ops) {
      const acked = op.outcomes.includes("ok");
      const refusedOnly = op.outcomes.length > 0 && op.outcomes.every((o) => o === "refused");
      let present: boolean;
      switch (op.kind) {
        case "purchase":
          present = byKey.has(op.key);
          break;
        case "credit":
          present = references.has(`credit:grant:${adminSub}:${op.key}`);
          break;
        case "hold":
          present = references.has(`hold:${op.key}`);
          break;
        case "commit":
          present = settlements.get(op.holdId!) === "commit";
          break;
        case "void":
          present = settlements.get(op.holdId!) === "voided";
          break;
      }
      if (acked && !present) violations.push(`acknowledged ${op.kind} ${op.key} is missing`);
      if (refusedOnly && present && op.kind !== "commit" && op.kind !== "void") {
        violations.push(`refused ${op.kind} ${op.key} (${op.statuses.join(",")}) is there`);
      }
      // A refused settlement is one whose hold was settled the other way (or not found): never this way by it.
      if (refusedOnly && present && (op.kind === "commit" || op.kind === "void")) {
        violations.push(`refused ${op.kind} of hold ${op.holdId} (${op.statuses.join(",")}) happened`);
      }
    }
    void users;
    const byKind = Object.fromEntries(
      (["purchase", "credit", "hold", "commit", "void"] as const).map((k) => {
        const mine = ops.filter((o) => o.kind === k);
        const ok = mine.filter((o) => o.outcomes.includes("ok")).length;
        const refused = mine.filter((o) => o.outcomes.length > 0 && o.outcomes.every((x) => x === "refused")).length;
        return [k, { ok, refused, unknown: mine.length - ok - refused }];
      }),
    ) as LedgerCheckReport["byKind"];
    const entries = await q<{ n: string }>(`select count(*) as n from merch.token_transaction`);
    return {
      operations: ops.length,
      attempts,
      byKind,
      kills,
      accounts: accounts.length,
      entries: Number(entries[0]!.n),
      purchases: purchases.length,
      violations,
    };
  } finally {
    await db.end();
  }
}
