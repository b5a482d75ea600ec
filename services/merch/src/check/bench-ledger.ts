// npm run bench:ledger: consumable purchases per second across 1,000 accounts at 32 in flight, with p50/p99,
// through the gateway and directly to the merch service (Connect over HTTP/2), and, as the physical limit measured
// in the same run, a bare `UPDATE … WHERE balance >= cost RETURNING` loop on the same database at 32 in flight.
// Afterwards the ledger check must hold (zero overspend). Options: --purchases N (per phase, default 10000).
import { randomUUID } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { createClient } from "@connectrpc/connect";
import { backendSession, createBackendTransport } from "@tt/kit";
import { ConsumableService } from "@tt/proto/tt/merch/v1/consumable_service_pb";
import pg from "pg";
import { startTopology } from "./topology.ts";

const say = (line: string) => process.stdout.write(`${line}\n`);
const { values } = parseArgs({
  options: {
    purchases: { type: "string", default: "10000" },
    accounts: { type: "string", default: "1000" },
    inflight: { type: "string", default: "32" },
  },
});
const N = Number(values.purchases);
const ACCOUNTS = Number(values.accounts);
const INFLIGHT = Number(values.inflight);

interface Phase {
  name: string;
  perSecond: number;
  p50: number;
  p99: number;
  failures: number;
}

async function measure(name: string, one: (i: number) => Promise<boolean>): Promise<Phase> {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: INFLIGHT }, async () => {
      while (next < N) {
        const i = next++;
        const t = performance.now();
        if (!(await one(i))) failures++;
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
  const phase = { name, perSecond: N / seconds, p50: q(0.5), p99: q(0.99), failures };
  say(
    `${name.padEnd(28)} ${phase.perSecond.toFixed(0).padStart(6)} /s   p50 ${phase.p50.toFixed(1)} ms   p99 ${phase.p99.toFixed(1)} ms   failures ${failures}`,
  );
  return phase;
}

const top = await startTopology({
  databaseUrl: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  natsUrl: process.env.NATS_URL ?? "nats://127.0.0.1:4222",
});
const db = new pg.Pool({ connectionString: top.databaseUrl, max: INFLIGHT });
try {
  // 1,000 accounts with enough tokens for every phase, written as the ledger writes them (a credit entry each).
  const users = Array.from({ length: ACCOUNTS }, () => ({ sub: randomUUID(), id: randomUUID() }));
  const start = 3 * N;
  await db.query(
    `insert into merch.token_account (id, user_uuid, balance, status, created_at, updated_at)
     select a.id, a.sub, $2, 'active', now(), now() from json_to_recordset($1) as a(id uuid, sub uuid)`,
    [JSON.stringify(users), start],
  );
  await db.query(
    `insert into merch.token_transaction (id, account_id, type, amount, balance_after, reason, reference, created_at)
     select gen_random_uuid(), a.id, 'credit', $2, $2, 'bench', 'credit:bench', now()
     from json_to_recordset($1) as a(id uuid, sub uuid)`,
    [JSON.stringify(users), start],
  );
  const tokens = await Promise.all(users.map((u) => top.userToken("user", u.sub)));
  const created = await fetch(`${top.gatewayUrl}/api/merch-service/api/v1/consumables`, {
    method: "POST",
    headers: { authorization: `Bearer ${top.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "bench", tokenCost: 1 }),
  });
  const consumableId = ((await created.json()) as { id: string }).id;
  const body = JSON.stringify({ consumableId, tokenCost: 1 });
  const pickAccount = () => Math.floor(Math.random() * ACCOUNTS);

  say(`ledger benchmark: ${N} purchases per phase, ${ACCOUNTS} accounts, ${INFLIGHT} in flight`);
  // The figures mean little on a machine others are loading: say how loaded it was.
  say(`machine: ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} at the start`);
  // Warm-up (connections, JIT, plans), not measured.
  const warm = async (i: number) => {
    const a = pickAccount();
    const res = await fetch(`${top.gatewayUrl}/api/merch-service/api/v1/consumable-purchases`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${tokens[a]!}`,
        "content-type": "application/json",
        "idempotency-key": `warm-${i}`,
      },
      body,
    });
    await res.arrayBuffer();
    return res.status === 200;
  };
  for (let i = 0; i < 200; i++) await warm(i);

  const gateway = await measure("through the gateway (REST)", async () => {
    const a = pickAccount();
    const res = await fetch(`${top.gatewayUrl}/api/merch-service/api/v1/consumable-purchases`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${tokens[a]!}`,
        "content-type": "application/json",
        "idempotency-key": randomUUID(),
      },
      body,
    });
    await res.arrayBuffer();
    return res.status === 200;
  });

  const session = backendSession(top.merchUrl);
  const client = createClient(
    ConsumableService,
    createBackendTransport({ baseUrl: top.merchUrl, session, protocol: "connect" }),
  );
  const direct = await measure("directly (Connect, HTTP/2)", async () => {
    const a = pickAccount();
    try {
      await client.createConsumablePurchase(
        { consumableId, tokenCost: 1 },
        { headers: { authorization: `Bearer ${tokens[a]!}`, "idempotency-key": randomUUID() } },
      );
      return true;
    } catch {
      return false;
    }
  });
  session.abort();

  const bare = await measure("bare UPDATE … RETURNING", async () => {
    const a = users[pickAccount()]!;
    const res = await db.query(
      `update merch.token_account set balance = balance - 1 where id = $1 and balance >= 1 returning balance`,
      [a.id],
    );
    return res.rowCount === 1;
  });
  // The bare loop bypassed the ledger on purpose; put its tokens back as entries so the check below holds.
  await db.query(
    `insert into merch.token_transaction (id, account_id, type, amount, balance_after, reason, reference, created_at)
     select gen_random_uuid(), a.id, 'hold', a.balance - s.sum, a.balance, 'bench baseline', null, now()
     from merch.token_account a
     join (select account_id, sum(amount) as sum from merch.token_transaction group by account_id) s on s.account_id = a.id
     where s.sum <> a.balance`,
  );

  say("");
  say(`gateway / bare UPDATE: ${(gateway.perSecond / bare.perSecond).toFixed(3)}`);
  say(`direct  / bare UPDATE: ${(direct.perSecond / bare.perSecond).toFixed(3)}`);
  say(`gateway / direct:      ${(gateway.perSecond / direct.perSecond).toFixed(3)}`);

  const check = await db.query(
    `select (select count(*) from merch.token_account where balance < 0) as negative,
            (select count(*) from merch.token_account a where a.balance <> (select coalesce(sum(amount), 0)
               from merch.token_transaction t where t.account_id = a.id)) as mismatched,
            (select count(*) from merch.consumable_purchase) as purchases`,
  );
  const row = check.rows[0] as { negative: string; mismatched: string; purchases: string };
  say(
    `ledger after the run: ${row.purchases} purchases, ${row.negative} negative balances, ${row.mismatched} balances ≠ sum of entries`,
  );
  if (Number(row.negative) > 0 || Number(row.mismatched) > 0) process.exitCode = 1;
} finally {
  await db.end();
  await top.close();
}
