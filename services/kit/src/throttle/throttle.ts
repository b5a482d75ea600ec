// Fixed-window throttles shared by every replica: one PostgreSQL row per key in the service's own
// `throttle_window` table (throttleMigration), changed by a single atomic upsert, so two replicas counting the
// same key at once both see the other's hit (no read-then-write race). PostgreSQL rather than the bus key-value:
// every throttling service already depends on it for every call, the upsert needs no compare-and-set retry loop,
// and a throttled call must still count when NATS is away. Hits are written outside the call's business writes
// (auto-commit), so a refused or failing call counts too. First written for the user service's logins and codes;
// moved here when room passwords and chat needed the same rule (issue 23).
import { createHash } from "node:crypto";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { autoCommitSql, sql, type Tables } from "../db/tables.ts";
import type { ThrottleWindowSchema } from "./throttle-window.entity.ts";

export interface ThrottleRule {
  /** Names the counted action in the key, e.g. "login". */
  action: string;
  limit: number;
  windowSeconds: number;
}

export interface ThrottleCheck {
  rule: ThrottleRule;
  /** What is counted: "account:ann@example.org", "ip:203.0.113.5", "user:<uuid>", "room:<uuid>". */
  subject: string;
}

export const TOO_MANY_REQUESTS = "too many requests, try again later";

/**
 * Actions whose name ends so are memories (e.g. the user service's "login-known": where an account signed in),
 * kept up to 90 days; every other row is a window of at most a day.
 */
export const REMEMBERED_ACTION_SUFFIX = "-known";

// throttle_window.key is varchar(400); subjects come from callers (a login address of any length).
const MAX_PLAIN_KEY = 300;

/** The throttle table of the service whose EntityManager this is (its own schema, the connection's search path). */
export type ThrottleTables = Tables<[typeof ThrottleWindowSchema]>;

/**
 * Typed SQL on the throttle table, outside the call's transaction: hits are written outside the call's business
 * writes (auto-commit), so a refused or failing call counts too.
 */
export const throttleSql = (em: EntityManager) => autoCommitSql<ThrottleTables>(em);

/** now() - the window: the start before which a window has ended. */
const windowEdge = (seconds: number) => sql<Date>`now() - make_interval(secs => ${seconds})`;

/** The row key of a throttled action and subject; a long subject is replaced by its SHA-256 so it always fits. */
export function throttleKey(action: string, subject: string): string {
  const key = `${action}:${subject}`;
  if (key.length <= MAX_PLAIN_KEY) return key;
  return `${action}:sha256:${createHash("sha256").update(subject, "utf8").digest("hex")}`;
}

/** Counts one hit for the key; answers whether it is within the limit and when the window ends. */
export async function hit(
  em: EntityManager,
  key: string,
  rule: ThrottleRule,
): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  // The database clock, so replicas with skewed clocks agree on the window.
  const seconds = rule.windowSeconds;
  const row = await throttleSql(em)
    .insertInto("throttle_window")
    .values({ key, window_start: sql`now()`, hits: 1 })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet((eb) => {
        const ended = eb("throttle_window.window_start", "<=", windowEdge(seconds));
        return {
          window_start: eb
            .case()
            .when(ended)
            .then(sql<Date>`now()`)
            .else(eb.ref("throttle_window.window_start"))
            .end(),
          hits: eb
            .case()
            .when(ended)
            .then(1)
            .else(eb("throttle_window.hits", "+", 1))
            .end(),
        };
      }),
    )
    .returning((eb) => [
      "hits",
      sql<number>`least(${seconds}, greatest(1, ceil(extract(epoch from (${eb.ref("window_start")} + make_interval(secs => ${seconds}) - now())))))::int`.as(
        "retry_after",
      ),
    ])
    .executeTakeFirstOrThrow();
  return { allowed: row.hits <= rule.limit, retryAfterSeconds: row.retry_after };
}

/**
 * Counts a hit on every check; throws ResourceExhausted (429) with retry-after when any is over its limit.
 * Every check is counted even when an earlier one refuses, so a caller cannot dodge one limit by hitting another.
 */
export async function enforceThrottles(
  em: EntityManager,
  checks: readonly ThrottleCheck[],
  message = TOO_MANY_REQUESTS,
): Promise<void> {
  let retryAfter = 0;
  for (const { rule, subject } of checks) {
    const result = await hit(em, throttleKey(rule.action, subject), rule);
    if (!result.allowed) retryAfter = Math.max(retryAfter, result.retryAfterSeconds);
  }
  await maybePrune(em);
  if (retryAfter > 0) throw tooMany(message, retryAfter);
}

/**
 * Takes back the hit each check counted in its current window: for a call whose outcome must not spend the budget
 * (the right guest password: the rule is there to slow down guessing, not a room's guests joining, and a check
 * counted before it was verified cannot be dodged by sending many at once).
 */
export async function refundThrottles(em: EntityManager, checks: readonly ThrottleCheck[]): Promise<void> {
  for (const { rule, subject } of checks) {
    await throttleSql(em)
      .updateTable("throttle_window")
      .set((eb) => ({ hits: sql<number>`greatest(0, ${eb.ref("hits")} - 1)` }))
      .where("key", "=", throttleKey(rule.action, subject))
      .where("window_start", ">", windowEdge(rule.windowSeconds))
      .execute();
  }
}

/**
 * ResourceExhausted with retry-after in the error's metadata: Connect's server sends error metadata as response
 * headers, and the gateway forwards it on REST errors. Setting the response header as well would send the value
 * twice ("900, 900") wherever Connect merges the two.
 */
export function tooMany(message: string, retryAfterSeconds: number): ConnectError {
  const value = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  return new ConnectError(message, Code.ResourceExhausted, { "retry-after": value });
}

// Old windows are dead weight; removing them now and then keeps each table to the active keys. Windows are at
// most a day long, so a day-old row can never count again; remembered actions are kept for their longest
// allowed lifetime. Counted per schema (per table): in the all-in-one several services share this module.
const hitsSincePrune = new Map<string, number>();
export async function maybePrune(em: EntityManager): Promise<void> {
  const table = String(em.config.get("schema") ?? "public");
  const hits = (hitsSincePrune.get(table) ?? 0) + 1;
  hitsSincePrune.set(table, hits < 500 ? hits : 0);
  if (hits < 500) return;
  await throttleSql(em)
    .deleteFrom("throttle_window")
    .where((eb) =>
      eb(
        "window_start",
        "<",
        sql<Date>`now() - (case when ${eb.ref("key")} like ${`%${REMEMBERED_ACTION_SUFFIX}:%`} then interval '90 days' else interval '1 day' end)`,
      ),
    )
    .execute();
}

/**
 * The caller's address as the gateway vouches for it, undefined for a direct caller (another service), which
 * is then counted by account only. The gateway always ends x-forwarded-for with its socket's peer; only with
 * `trustForwardedFor` (behind one proxy it trusts) does it keep that proxy's list in front, whose last entry
 * is the client the proxy saw. So: the one entry, or the one before the last. Entries further left were
 * written by the caller and prove nothing: trusting the first hop let anyone pick a fresh address per request.
 */
export function clientAddress(ctx: HandlerContext): string | undefined {
  const hops = (ctx.requestHeader.get("x-forwarded-for") ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter((hop) => hop !== "");
  const hop = hops.length >= 2 ? hops[hops.length - 2] : hops[0];
  return hop ? hop.slice(0, 64) : undefined;
}

/** The per-account check plus, when the address is known, the per-address one. */
export function accountAndAddress(
  ctx: HandlerContext,
  account: string,
  perAccount: ThrottleRule,
  perAddress: ThrottleRule,
): ThrottleCheck[] {
  return subjectAndAddress(ctx, `account:${account}`, perAccount, perAddress);
}

/** The check of `subject` (e.g. "user:<uuid>") plus, when the caller's address is known, the per-address one. */
export function subjectAndAddress(
  ctx: HandlerContext,
  subject: string,
  perSubject: ThrottleRule,
  perAddress: ThrottleRule,
): ThrottleCheck[] {
  const checks: ThrottleCheck[] = [{ rule: perSubject, subject }];
  const address = clientAddress(ctx);
  if (address !== undefined) checks.push({ rule: perAddress, subject: `ip:${address}` });
  return checks;
}
