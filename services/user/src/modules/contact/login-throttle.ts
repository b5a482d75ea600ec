// The login throttle, called by Login (routes/auth.ts) around the password check. It must stop guessing
// without handing a stranger a way to lock the owner out (OWASP Authentication and Credential Stuffing
// Prevention cheat sheets: throttle per account and address, slow down globally, never lock):
// - per account from one address (LOGIN_ATTEMPTS_PER_ACCOUNT_AND_IP in a window): one address guessing one
//   account is refused (429) while the owner, elsewhere, is not touched;
// - per address over all accounts (LOGIN_ATTEMPTS_PER_IP): one address spraying many accounts is refused;
// - per account over all addresses, a backoff: after LOGIN_FAILURES_BEFORE_BACKOFF failed checks the account
//   admits one password check per delay (1 s, 2 s, 4 s … doubling per failure, at most
//   LOGIN_BACKOFF_MAX_SECONDS) from addresses it has not seen sign in, so a distributed attack gets about one
//   guess a minute. Failures are forgotten a day after the last one.
// - an address the account signed in from within LOGIN_KNOWN_ADDRESS_DAYS skips the backoff (not the other
//   two): during a distributed attack the owner still gets in from where they usually do, and from anywhere
//   else after at most the longest delay.
// Accounts are named by the address typed in, existing or not, so guessing at an unknown one costs the same.
import type { HandlerContext } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { normalizeEmail } from "../../account-rules.ts";
import type { ContactConfig } from "./contact-config.ts";
import {
  clientAddress,
  enforceThrottles,
  REMEMBERED_ACTION_SUFFIX,
  sql,
  throttleKey,
  throttleSql,
  tooMany,
  typedSql,
  type ThrottleCheck,
  type ThrottleTables,
} from "@tt/kit";

/** Rows of this action remember where an account signed in; the kit keeps them up to 90 days (its name's suffix). */
export const KNOWN_ADDRESS_ACTION = `login${REMEMBERED_ACTION_SUFFIX}`;

export const TOO_MANY_LOGINS = "too many login attempts, try again later";

/** How long an account remembers its failed checks after the last one (the throttle table's prune horizon). */
const BACKOFF_MEMORY_SECONDS = 24 * 60 * 60;
/** Doubling stops here; the maximum delay caps it long before. */
const MAX_DOUBLINGS = 30;

/** The wait after `failures` failed checks: none within the free budget, then 1, 2, 4 … seconds, capped. */
export function backoffSeconds(failures: number, config: ContactConfig): number {
  if (failures < config.LOGIN_FAILURES_BEFORE_BACKOFF) return 0;
  const doublings = Math.min(failures - config.LOGIN_FAILURES_BEFORE_BACKOFF, MAX_DOUBLINGS);
  return Math.min(config.LOGIN_BACKOFF_MAX_SECONDS, 2 ** doublings);
}

export interface LoginAttempt {
  /** The password was wrong (or the account unknown): one more failure for the account's backoff. */
  failed(): Promise<void>;
  /** The password was right: the address becomes one the account signs in from. */
  succeeded(): Promise<void>;
}

/**
 * Counts the attempt and throws ResourceExhausted (429, retry-after) when it may not check a password now;
 * otherwise answers what to record once the password was checked. Written outside the call's business
 * writes, so a failed login counts although the call fails.
 */
export async function throttleLogin(
  svc: { areas: { contact: ContactConfig } },
  em: EntityManager,
  ctx: HandlerContext,
  email: string,
): Promise<LoginAttempt> {
  const config = svc.areas.contact;
  const account = normalizeEmail(email);
  const address = clientAddress(ctx);
  const windowSeconds = config.LOGIN_THROTTLE_WINDOW_SECONDS;
  // A direct caller (no address) is one "address" of its own, so the pair limit is a per-account one for it.
  const pair = `account:${account}|ip:${address ?? "direct"}`;
  const checks: ThrottleCheck[] = [
    { rule: { action: "login", limit: config.LOGIN_ATTEMPTS_PER_ACCOUNT_AND_IP, windowSeconds }, subject: pair },
  ];
  if (address !== undefined) {
    checks.push({
      rule: { action: "login", limit: config.LOGIN_ATTEMPTS_PER_IP, windowSeconds },
      subject: `ip:${address}`,
    });
  }
  await enforceThrottles(em, checks, TOO_MANY_LOGINS);

  const backoffKey = throttleKey("login-backoff", `account:${account}`);
  const knownKey = throttleKey(KNOWN_ADDRESS_ACTION, pair);
  if (!(address !== undefined && (await isKnown(em, knownKey, config)))) {
    const wait = await claimBackoffSlot(em, backoffKey, config);
    if (wait > 0) throw tooMany(TOO_MANY_LOGINS, wait);
  }
  return {
    failed: () => recordFailure(em, backoffKey, config),
    succeeded: async () => {
      if (address !== undefined) await rememberAddress(em, knownKey);
    },
  };
}

// The throttle rows are written outside the call's business writes (throttleSql: each statement commits by itself),
// as the kit's own hits are; only the backoff slot is claimed under a row lock, in a transaction of its own.

async function isKnown(em: EntityManager, key: string, config: ContactConfig): Promise<boolean> {
  const rows = await throttleSql(em)
    .selectFrom("throttle_window")
    .select(sql<number>`1`.as("known"))
    .where("key", "=", key)
    .where("window_start", ">", sql<Date>`now() - make_interval(days => ${config.LOGIN_KNOWN_ADDRESS_DAYS})`)
    .execute();
  return rows.length > 0;
}

async function rememberAddress(em: EntityManager, key: string): Promise<void> {
  await throttleSql(em)
    .insertInto("throttle_window")
    .values({ key, window_start: sql<Date>`now()`, hits: 1 })
    .onConflict((oc) =>
      oc
        .column("key")
        .doUpdateSet((eb) => ({ window_start: sql<Date>`now()`, hits: eb("throttle_window.hits", "+", 1) })),
    )
    .execute();
}

/**
 * The backoff row holds the account's failures (hits) and, once they are over the free budget, the time the
 * next check may start (window_start; before that, the time of the last failure). Over the budget an
 * attempt takes the open slot (moves window_start a delay ahead) under a row lock, so attempts arriving
 * together get one check between them, not one each. Answers 0, or the seconds to wait.
 */
async function claimBackoffSlot(em: EntityManager, key: string, config: ContactConfig): Promise<number> {
  // Most accounts have no failures to speak of: a plain read settles those without a transaction.
  if (backoffOf(await readBackoff(em, key, false), config) === 0) return 0;
  return em.fork().transactional(async (tem) => {
    const row = await readBackoff(tem, key, true);
    const delay = backoffOf(row, config);
    if (!row || delay === 0) return 0;
    if (row.start_ms > row.now_ms) return Math.ceil((row.start_ms - row.now_ms) / 1000);
    await typedSql<ThrottleTables>(tem)
      .updateTable("throttle_window")
      .set({ window_start: sql<Date>`now() + make_interval(secs => ${delay})` })
      .where("key", "=", key)
      .execute();
    return 0;
  });
}

/**
 * The backoff row: its failures (hits), and window_start and now() in epoch milliseconds, the database's clock for
 * both; in `em`'s transaction, under the row's lock when `lock`.
 */
async function readBackoff(em: EntityManager, key: string, lock: boolean) {
  const read = typedSql<ThrottleTables>(em)
    .selectFrom("throttle_window")
    .select((eb) => [
      "hits",
      sql<number>`(extract(epoch from ${eb.ref("window_start")}) * 1000)::float8`.as("start_ms"),
      sql<number>`(extract(epoch from now()) * 1000)::float8`.as("now_ms"),
    ])
    .where("key", "=", key);
  return (lock ? read.forUpdate() : read).executeTakeFirst();
}

type BackoffRow = Awaited<ReturnType<typeof readBackoff>>;

/** The delay the row's failures impose, 0 when there is none or they are forgotten. */
function backoffOf(row: BackoffRow, config: ContactConfig): number {
  if (!row || row.start_ms <= row.now_ms - BACKOFF_MEMORY_SECONDS * 1000) return 0;
  return backoffSeconds(row.hits, config);
}

async function recordFailure(em: EntityManager, key: string, config: ContactConfig): Promise<void> {
  const free = config.LOGIN_FAILURES_BEFORE_BACKOFF;
  await throttleSql(em)
    .insertInto("throttle_window")
    .values({ key, window_start: sql<Date>`now() + make_interval(secs => ${backoffSeconds(1, config)})`, hits: 1 })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet((eb) => {
        const start = eb.ref("throttle_window.window_start");
        const forgotten = sql<boolean>`${start} <= now() - make_interval(secs => ${sql.lit(BACKOFF_MEMORY_SECONDS)})`;
        const failures = sql<number>`(case when ${forgotten} then 1 else ${eb.ref("throttle_window.hits")} + 1 end)`;
        const delay = sql<number>`(case when ${failures} < ${sql.lit(free)} then 0
          else least(${sql.lit(config.LOGIN_BACKOFF_MAX_SECONDS)}, power(2, least(${failures} - ${sql.lit(free)}, ${sql.lit(MAX_DOUBLINGS)}))) end)`;
        return {
          hits: failures,
          window_start: sql<Date>`greatest(case when ${forgotten} then now() else ${start} end, now() + make_interval(secs => ${delay}))`,
        };
      }),
    )
    .execute();
}
