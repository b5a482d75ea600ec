// npm run bench:ledger: consumable purchases per second across 1,000 accounts at 32 in flight, with p50/p99:
// - through the gateway of the platform as `npm start` runs it (every service and the gateway in one process),
// - through a gateway that calls the merch service in a process of its own over HTTP/2 (distributed mode),
// - directly to that merch process (Connect over HTTP/2),
// - and, as the physical limit measured in the same run, a bare `UPDATE … WHERE balance >= cost RETURNING` loop
//   on the same database at 32 in flight.
// Each phase also says the CPU time per purchase of the load generator (this process), the service processes and
// the database's backends, a figure the machine's load changes much less than the rate. Afterwards the ledger
// check must hold on every database (zero overspend). Options: --purchases N (per phase, default 10000),
// --accounts N, --inflight N, --setups all-in-one,distributed.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { createClient } from "@connectrpc/connect";
import { backendSession, createBackendTransport } from "@tt/kit";
import { loadAverage, percentiles, processCpuSeconds } from "@tt/kit/bench";
import { ConsumableService } from "@tt/proto/tt/merch/v1/consumable_service_pb";
import pg from "pg";
import { startAllInOneProcess } from "./all-in-one-process.ts";
import { startTopology } from "./topology.ts";

const say = (line: string) => process.stdout.write(`${line}\n`);
const { values } = parseArgs({
  options: {
    purchases: { type: "string", default: "10000" },
    accounts: { type: "string", default: "1000" },
    inflight: { type: "string", default: "32" },
    setups: { type: "string", default: "all-in-one,distributed" },
  },
});
const N = Number(values.purchases);
const ACCOUNTS = Number(values.accounts);
const INFLIGHT = Number(values.inflight);
const SETUPS = new Set(values.setups.split(","));
const databaseUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const natsUrl = process.env.NATS_URL ?? "nats://127.0.0.1:4222";

interface Phase {
  name: string;
  perSecond: number;
  p50: number;
  p99: number;
  failures: number;
}

interface CpuProbe {
  /** Snapshot now; the returned function answers the CPU ms per purchase of each part since. */
  start(): Promise<() => Promise<Record<string, number>>>;
}

/** CPU of this process (load generator, and the gateway in distributed mode), the services, the DB's backends. */
function cpuProbe(db: pg.Pool, services: () => Record<string, number>): CpuProbe {
  const backends = async () => {
    const { rows } = await db.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
    );
    return new Map(rows.map((r) => [r.pid, processCpuSeconds(r.pid)] as const));
  };
  const snapshot = async () => {
    const parts: Record<string, number> = { "this process": process.cpuUsage().user / 1e6 };
    parts["this process"]! += process.cpuUsage().system / 1e6;
    for (const [name, pid] of Object.entries(services())) parts[name] = processCpuSeconds(pid);
    return { parts, backends: await backends() };
  };
  return {
    async start() {
      const before = await snapshot();
      return async () => {
        const after = await snapshot();
        const perPurchase: Record<string, number> = {};
        for (const [name, seconds] of Object.entries(after.parts)) {
          perPurchase[name] = ((seconds - (before.parts[name] ?? 0)) * 1000) / N;
        }
        // Backends that ended during the phase are missed: a lower bound.
        let pgSeconds = 0;
        for (const [pid, seconds] of after.backends) pgSeconds += seconds - (before.backends.get(pid) ?? 0);
        perPurchase["postgres backends"] = (pgSeconds * 1000) / N;
        return perPurchase;
      };
    },
  };
}

/**
 * Calls `one(0)` … `one(count - 1)`, INFLIGHT at a time. Also each path's warm-up, before it is measured: V8 optimises a
 * process's hot path over tens of thousands of calls, and a phase measured first would pay for compiling code the
 * next one finds ready (in bench:gateway a gateway's CPU per call was still falling after 30,000 calls, from 338 µs
 * to 129).
 */
async function runAll(one: (i: number) => Promise<unknown>, count = N): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: INFLIGHT }, async () => {
      while (next < count) await one(next++);
    }),
  );
}

async function measure(name: string, probe: CpuProbe, one: (i: number) => Promise<boolean>): Promise<Phase> {
  const latencies: number[] = [];
  let failures = 0;
  const cpu = await probe.start();
  const load = loadavg()[0]!;
  const started = performance.now();
  await runAll(async (i) => {
    const t = performance.now();
    if (!(await one(i))) failures++;
    latencies.push(performance.now() - t);
  });
  const seconds = (performance.now() - started) / 1000;
  const perPurchase = await cpu();
  const [p50, p99] = percentiles(latencies, 0.5, 0.99) as [number, number];
  const phase = { name, perSecond: N / seconds, p50, p99, failures };
  say(
    `${name.padEnd(44)} ${phase.perSecond.toFixed(0).padStart(6)} /s   p50 ${phase.p50.toFixed(1)} ms   p99 ${phase.p99.toFixed(1)} ms   failures ${failures}   (load ${load.toFixed(1)} → ${loadavg()[0]!.toFixed(1)})`,
  );
  say(
    `${"".padEnd(44)} CPU ms per purchase: ${Object.entries(perPurchase)
      .map(([part, ms]) => `${part} ${ms.toFixed(2)}`)
      .join(", ")}`,
  );
  return phase;
}

/** A POST over HTTP/1.1 keep-alive (a lighter load generator than fetch); answers the status. */
function poster(baseUrl: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: INFLIGHT });
  const url = new URL(baseUrl);
  return {
    post(path: string, headers: Record<string, string>, body: string): Promise<number> {
      return new Promise((resolve, reject) => {
        const req = http.request(
          {
            agent,
            host: url.hostname,
            port: url.port,
            path,
            method: "POST",
            headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
            res.on("error", reject);
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}

interface Setup {
  gatewayUrl: string;
  databaseUrl: string;
  adminToken: string;
  userToken(role?: string, sub?: string): Promise<string>;
}

/** 1,000 accounts with enough tokens for every phase, written as the ledger writes them (a credit entry each). */
async function seed(db: pg.Pool, setup: Setup) {
  const users = Array.from({ length: ACCOUNTS }, () => ({ sub: randomUUID(), id: randomUUID() }));
  const start = 4 * N;
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
  const tokens = await Promise.all(users.map((u) => setup.userToken("user", u.sub)));
  const created = await fetch(`${setup.gatewayUrl}/api/merch-service/api/v1/consumables`, {
    method: "POST",
    headers: { authorization: `Bearer ${setup.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "bench", tokenCost: 1 }),
  });
  if (created.status !== 200) throw new Error(`creating the consumable answered ${created.status}`);
  const consumableId = ((await created.json()) as { id: string }).id;
  return { users, tokens, consumableId };
}

const pick = () => Math.floor(Math.random() * ACCOUNTS);

/**
 * Warm-up (connections, prepared statements, one purchase per account so that every token has been verified
 * once: the phase measures a client's repeated calls, whose signature check the verifier's cache skips; then N more
 * for the JIT, runAll) and the REST phase through `gatewayUrl`.
 */
async function gatewayPhase(name: string, setup: Setup, probe: CpuProbe, seeded: Awaited<ReturnType<typeof seed>>) {
  const client = poster(setup.gatewayUrl);
  const body = JSON.stringify({ consumableId: seeded.consumableId, tokenCost: 1 });
  const buy = (key: string, account = pick()) =>
    client.post(
      "/api/merch-service/api/v1/consumable-purchases",
      { authorization: `Bearer ${seeded.tokens[account]!}`, "idempotency-key": key },
      body,
    );
  try {
    await runAll((account) => buy(`warm-${account}`, account), ACCOUNTS);
    const one = async () => (await buy(randomUUID())) === 200;
    await runAll(one);
    return await measure(name, probe, one);
  } finally {
    client.close();
  }
}

/** Every balance ≥ 0 and equal to the sum of its entries; false (and says so) otherwise. */
async function ledgerHolds(db: pg.Pool, label: string): Promise<boolean> {
  const check = await db.query(
    `select (select count(*) from merch.token_account where balance < 0) as negative,
            (select count(*) from merch.token_account a where a.balance <> (select coalesce(sum(amount), 0)
               from merch.token_transaction t where t.account_id = a.id)) as mismatched,
            (select count(*) from merch.consumable_purchase) as purchases`,
  );
  const row = check.rows[0] as { negative: string; mismatched: string; purchases: string };
  say(
    `ledger after the ${label} run: ${row.purchases} purchases, ${row.negative} negative balances, ${row.mismatched} balances ≠ sum of entries`,
  );
  return Number(row.negative) === 0 && Number(row.mismatched) === 0;
}

say(`ledger benchmark: ${N} purchases per phase, ${ACCOUNTS} accounts, ${INFLIGHT} in flight`);
// The figures mean little on a machine others are loading: say how loaded it was.
say(`machine: ${cpus().length} cores, load average ${loadAverage(1)} at the start`);
const results: Record<string, Phase> = {};
let ok = true;

if (SETUPS.has("all-in-one")) {
  const platform = await startAllInOneProcess({ databaseUrl, natsUrl });
  const db = new pg.Pool({ connectionString: platform.databaseUrl, max: INFLIGHT });
  try {
    const seeded = await seed(db, { ...platform, gatewayUrl: platform.url });
    const probe = cpuProbe(db, () => ({ "platform process": platform.pid }));
    results.allInOne = await gatewayPhase(
      "all-in-one: through the gateway (REST)",
      { ...platform, gatewayUrl: platform.url },
      probe,
      seeded,
    );
    ok = (await ledgerHolds(db, "all-in-one")) && ok;
  } finally {
    await db.end();
    await platform.close();
  }
}

if (SETUPS.has("distributed")) {
  const top = await startTopology({ databaseUrl, natsUrl });
  const db = new pg.Pool({ connectionString: top.databaseUrl, max: INFLIGHT });
  try {
    const seeded = await seed(db, top);
    const probe = cpuProbe(db, () => ({ "merch process": top.merchPid() }));
    results.distributed = await gatewayPhase("distributed: through the gateway (REST)", top, probe, seeded);

    const session = backendSession(top.merchUrl);
    const client = createClient(
      ConsumableService,
      createBackendTransport({ baseUrl: top.merchUrl, session, protocol: "connect" }),
    );
    const direct = async () => {
      try {
        await client.createConsumablePurchase(
          { consumableId: seeded.consumableId, tokenCost: 1 },
          { headers: { authorization: `Bearer ${seeded.tokens[pick()]!}`, "idempotency-key": randomUUID() } },
        );
        return true;
      } catch {
        return false;
      }
    };
    await runAll(direct);
    results.direct = await measure("distributed: directly (Connect, HTTP/2)", probe, direct);
    session.abort();

    results.bare = await measure("bare UPDATE … RETURNING (same database)", probe, async () => {
      const a = seeded.users[pick()]!;
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
       join (select account_id, sum(amount) as sum from merch.token_transaction group by account_id) s
         on s.account_id = a.id
       where s.sum <> a.balance`,
    );
    ok = (await ledgerHolds(db, "distributed")) && ok;
  } finally {
    await db.end();
    await top.close();
  }
}

say("");
const bare = results.bare;
for (const [key, label] of [
  ["allInOne", "all-in-one gateway"],
  ["distributed", "distributed gateway"],
  ["direct", "direct"],
] as const) {
  const phase = results[key];
  if (phase && bare) say(`${label.padEnd(20)} / bare UPDATE: ${(phase.perSecond / bare.perSecond).toFixed(3)}`);
}
if (results.distributed && results.direct) {
  say(`distributed gateway / direct: ${(results.distributed.perSecond / results.direct.perSecond).toFixed(3)}`);
}
say(`load average at the end: ${loadAverage(1)}`);
if (!ok || Object.values(results).some((p) => p.failures > 0)) process.exitCode = 1;
