// The fuzz campaign, shared by its two entries: the short form that `npm test` runs (fuzz.test.ts) and the
// long form of `npm run fuzz` (run.ts). It starts the platform in this process on real PostgreSQL and NATS
// (through the end-to-end suites' startTestPlatform), mints real tokens, builds the operations from
// `/openapi.json` and the registered service descriptors, and sends batches of generated requests,
// asserting for each: no 5xx (nor a gRPC / Connect internal-class code), an answer within the deadline,
// no unhandled rejection or uncaught exception in the process, and `/healthz` 200 throughout.
//
// Reproducible by seed: round i of a campaign runs fast-check with seed + 7919·i; a finding prints the seed of
// its round and fast-check's counterexample path, and `FUZZ_SEED=… FUZZ_PATH=… npm run fuzz` replays it.
import { generateKeyPairSync, randomUUID } from "node:crypto";
import type { DescService } from "@bufbuild/protobuf";
import fc from "fast-check";
import { ALREADY_EXISTS_MESSAGE } from "@tt/kit";
import { loadServiceDefinitions } from "@tt/platform";
import { startTestPlatform, u, type TestPlatform } from "../e2e/support/platform.ts";
import { H2Pool, sendH1, sendH2, type Outcome, type WireRequest } from "./client.ts";
import { batchArbitrary, buildOperations, type AuthKind, type FuzzRequest, type OpenApiDoc } from "./generate.ts";

export interface CampaignOptions {
  /** Stop after this many requests (shrinking included). */
  requests: number;
  /** Stop after this many seconds. */
  seconds: number;
  /** The seed of round 0. */
  seed: number;
  /** Replays one counterexample of the round with this seed (fast-check's counterexamplePath). */
  path?: string;
  /** Requests in flight at once (the largest batch). */
  concurrency: number;
  /** An answer slower than this is a hang. */
  deadlineMs: number;
  /** Callers that send the same request at once: a finding's concurrency replay and the concurrency pass. */
  callers: number;
  /**
   * Seconds kept (out of `seconds`) for the concurrency pass: every operation that creates something (REST POST
   * and PUT) sent by `callers` callers at once; 0 skips it.
   */
  passSeconds: number;
  /** Requests of each creating operation the concurrency pass sends (each by `callers` callers at once). */
  passSamples: number;
  /** With `path`: every request of the replayed batch is sent by `callers` callers at once (a concurrency finding). */
  concurrent?: boolean;
  /** Only the operations whose id matches (e.g. `^rpc ` or `sign-up`); all when unset. */
  only?: RegExp;
  /** Ends the campaign early (Ctrl-C in the long form); the report covers what ran. */
  signal?: AbortSignal;
  /** Progress lines; the long form prints them. */
  log?: (line: string) => void;
}

export interface Finding {
  /** What failed, e.g. `5xx 500 POST /api/user-service/auth/login`. */
  signature: string;
  message: string;
  seed: number;
  path: string;
  /** The shrunk request(s), curl-like. */
  requests: string[];
  replay: string;
}

export interface CampaignReport {
  seed: number;
  operations: number;
  sent: number;
  byClass: Record<"1xx" | "2xx" | "3xx" | "4xx" | "5xx" | "no answer", number>;
  p50: number;
  p99: number;
  /** Server-class answers of the allow-list, by reason. */
  allowed: Record<string, number>;
  /** The most frequent 4xx messages (variable parts blanked), to see how deep the requests get. */
  topRefusals: Array<[string, number]>;
  /** Unhandled rejections and uncaught exceptions seen while the campaign ran. */
  crashes: string[];
  hangs: number;
  /** /healthz answers other than 200 (periodic and final checks). */
  healthFailures: string[];
  findings: Finding[];
  /** Creating operations the concurrency pass knew, and how many it sent in the time it had. */
  concurrencyPass: { operations: number; covered: number };
  seconds: number;
}

/** Defaults of the short form (npm test) and the long form (npm run fuzz); FUZZ_* variables override them. */
export function campaignOptions(form: "short" | "long", env = process.env): CampaignOptions {
  const num = (name: string, dflt: number) => {
    const raw = env[name];
    if (raw === undefined || raw === "") return dflt;
    const n = Number(raw);
    if (!Number.isFinite(n)) throw new Error(`${name} must be a number, not ${raw}`);
    return n;
  };
  return {
    requests: num("FUZZ_REQUESTS", form === "short" ? 3_000 : 100_000),
    seconds: num("FUZZ_SECONDS", form === "short" ? 35 : 1_200),
    seed: num("FUZZ_SEED", (Date.now() ^ (process.pid << 8)) | 0),
    path: env.FUZZ_PATH || undefined,
    concurrency: num("FUZZ_CONCURRENCY", 12),
    callers: num("FUZZ_CALLERS", 20),
    passSeconds: num("FUZZ_PASS_SECONDS", form === "short" ? 10 : 300),
    passSamples: num("FUZZ_PASS_SAMPLES", form === "short" ? 1 : 3),
    concurrent: env.FUZZ_CONCURRENT === "1",
    deadlineMs: num("FUZZ_DEADLINE_MS", 5_000),
    only: env.FUZZ_OPS ? new RegExp(env.FUZZ_OPS) : undefined,
  };
}

// ---------------------------------------------------------------------------------------------------------

const b64url = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");

type Tokens = Record<AuthKind, string | undefined>;

/** The forged tokens, and the service token; short-lived, so crafted again every few minutes. */
async function forgeTokens(platform: TestPlatform, otherKey: string): Promise<Partial<Tokens>> {
  const now = Math.floor(Date.now() / 1000);
  const bearer = (t: string) => `Bearer ${t}`;
  return {
    none: undefined,
    service: bearer(await platform.serviceToken("fuzz")),
    expired: bearer(await platform.craft({ iat: now - 7200, exp: now - 3600 })),
    "wrong-key": bearer(await platform.craft({ role: "admin" }, { key: otherKey })),
    "future-iat": bearer(await platform.craft({ iat: now + 3600, exp: now + 7200 })),
    "alg-none": bearer(
      `${b64url({ alg: "none", typ: "JWT" })}.${b64url({ sub: "x", typ: "user", role: "admin", exp: now + 600, iss: "turntable", aud: "turntable" })}.`,
    ),
    garbage: "Bearer not.a.jwt",
    "bearer-empty": "Bearer",
    basic: "Basic YWRtaW5AZXhhbXBsZS50ZXN0OmFkbWluLXBhc3N3b3JkLTE=",
    huge: bearer("a".repeat(12_000)),
  };
}

/**
 * Real tokens, minted through the API: a guest token, a new account's, the bootstrap admin's (ADMIN_EMAIL /
 * ADMIN_PASSWORD of the platform). Only the kinds asked for: the admin logs in again only when the fuzz ended
 * its session, so the login throttle is not spent on us.
 */
async function mintTokens(platform: TestPlatform, kinds: ReadonlySet<AuthKind>): Promise<Partial<Tokens>> {
  const out: Partial<Tokens> = {};
  if (kinds.has("guest")) {
    const guest = await platform.call("GET", u("/auth/guest"));
    if (guest.status !== 200) throw new Error(`GET /auth/guest answered ${guest.status}`);
    out.guest = `Bearer ${(guest.body.accessToken as { token: string }).token}`;
  }
  if (kinds.has("user")) out.user = `Bearer ${(await platform.signUp()).token}`;
  if (kinds.has("admin")) out.admin = `Bearer ${spareAdmins.get(platform)?.pop() ?? (await anotherAdmin(platform))}`;
  return out;
}

/**
 * A new admin session once the spares are used: a login, or, when the login throttle refuses this address
 * (the fuzz's own failed logins), the claims of a real admin token with a new session id, signed with the
 * platform's key — the token the platform would have issued for another login.
 */
async function anotherAdmin(platform: TestPlatform): Promise<string> {
  try {
    return await platform.adminToken();
  } catch (err) {
    const claims = adminClaims.get(platform);
    if (!claims) throw err;
    const now = Math.floor(Date.now() / 1000);
    return platform.craft({ ...claims, sid: randomUUID(), iat: now, exp: now + 3600 });
  }
}

const adminClaims = new WeakMap<TestPlatform, Record<string, unknown>>();

// Admin sessions logged in before the fuzz starts: the fuzz's own failed logins soon make the login throttle
// refuse more from this address, and an admin session it ends is replaced from here.
const spareAdmins = new WeakMap<TestPlatform, string[]>();
const SPARE_ADMINS = 8;

const withPair = (t: Partial<Tokens>): Tokens => ({ ...t, "two-bearers": `${t.user}, ${t.admin}` }) as Tokens;

// gRPC codes (and their Connect names) that say the server failed, not the caller: the 5xx of RPCs.
const SERVER_GRPC = new Map([
  [2, "unknown"],
  [12, "unimplemented"],
  [13, "internal"],
  [14, "unavailable"],
  [15, "data_loss"],
]);
const SERVER_CONNECT = new Set(SERVER_GRPC.values());

// The refusals that the Connect and gRPC specifications themselves assign `unimplemented` to: a compression
// the server does not support, and a unary call with no request message or more than one (gRPC's
// "request cardinality violation", statuscodes.md).
const SPEC_UNIMPLEMENTED = /unknown compression|not supported|missing input message|extra input message/i;

/**
 * What is wrong with an outcome, if anything. The allow-list of server-class answers, each one required by
 * a protocol: deadline_exceeded (504 / grpc-status 4) when the request itself asked for a deadline
 * (connect-timeout-ms, grpc-timeout), and unimplemented (501 / grpc-status 12) on an RPC path for the
 * refusals in SPEC_UNIMPLEMENTED.
 */
export function verdict(req: FuzzRequest, o: Outcome): string | undefined {
  if (o.hung) return "hang";
  const askedDeadline = req.headers.some(([k]) => k === "connect-timeout-ms" || k === "grpc-timeout");
  const specUnimplemented = req.op.startsWith("rpc ") && SPEC_UNIMPLEMENTED.test(answerMessage(o));
  const unimplemented = o.status === 501 || o.grpcStatus === 12 || o.connectCode === "unimplemented";
  if (unimplemented && specUnimplemented) return undefined;
  if (o.status >= 500 && !(o.status === 504 && askedDeadline)) return `5xx ${o.status}`;
  if (o.grpcStatus !== undefined && SERVER_GRPC.has(o.grpcStatus)) return `grpc-status ${o.grpcStatus}`;
  if (o.connectCode !== undefined && (SERVER_CONNECT.has(o.connectCode) || o.connectCode.startsWith("unparsable")))
    return `connect ${o.connectCode}`;
  if (/root:[^:]*:0:0:/.test(o.snippet)) return "path traversal";
  return undefined;
}

/** Why a server-class answer that `verdict` lets pass is allowed, for the report's count. */
function allowance(req: FuzzRequest, o: Outcome): string | undefined {
  if (verdict(req, o)) return undefined;
  if (o.status === 504 || o.grpcStatus === 4 || o.connectCode === "deadline_exceeded")
    return "deadline_exceeded of a deadline the request set";
  if (o.status === 501 || o.grpcStatus === 12 || o.connectCode === "unimplemented")
    return "unimplemented where the protocol requires it";
  return undefined;
}

function wire(req: FuzzRequest, tokens: Record<AuthKind, string | undefined>): WireRequest {
  const token = tokens[req.auth];
  return {
    transport: req.transport,
    method: req.method,
    target: req.target,
    headers: token === undefined ? req.headers : [["authorization", token], ...req.headers],
    body: req.binary ? Buffer.from(req.body, "hex") : Buffer.from(req.body, "utf8"),
    framing: req.framing,
    ending: req.ending,
  };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A 32-bit FNV-1a hash: each operation's own seed in the concurrency pass. */
function hashOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h | 0;
}

const PASS_CALLERS: AuthKind[] = ["user", "admin", "service"];

const clip = (s: string, n = 400) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

/** A request as a reader reproduces it: method, target, headers, body bytes, framing and ending. */
export function describeRequest(req: FuzzRequest): string {
  const lines = [`${req.method} ${clip(req.target, 300)}  [${req.transport}, ${req.op}]`];
  if (req.auth !== "none") lines.push(`  authorization: <${req.auth} token>`);
  for (const [k, val] of req.headers) lines.push(`  ${k}: ${clip(JSON.stringify(val).slice(1, -1), 200)}`);
  if (req.body !== "")
    lines.push(
      `  body (${req.binary ? "hex" : "text, JSON-escaped"}): ${clip(req.binary ? req.body : JSON.stringify(req.body))}`,
    );
  if (req.framing !== "length") lines.push(`  framing: ${req.framing}`);
  if (req.ending.kind !== "complete") lines.push(`  ending: ${JSON.stringify(req.ending)}`);
  return lines.join("\n");
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

const SHRINK_BUDGET = 150;
const REAL_TOKENS = new Set<AuthKind>(["guest", "user", "admin"]);

class FindingError extends Error {
  constructor(
    readonly signature: string,
    message: string,
    /** The request that failed (a crash is the batch's, so none). */
    readonly request?: FuzzRequest,
    /** For a crash: the requests that may have caused it (this batch and the one before). */
    readonly suspects: FuzzRequest[] = [],
  ) {
    super(message);
  }
}

/** The error message of an answer: a REST or Connect JSON body's, a gRPC status message's, or its first bytes. */
function answerMessage(o: Outcome): string {
  if (o.grpcMessage !== undefined) return o.grpcMessage;
  try {
    const body = JSON.parse(o.snippet) as { message?: unknown };
    if (typeof body.message === "string") return body.message;
  } catch {
    // not JSON
  }
  return o.snippet;
}

const normalize = (message: string) => message.replace(/"[^"]*"|'[^']*'/g, "…").replace(/\d+/g, "N");

/**
 * Findings with the same cause share a signature: the verdict, the surface, and the message with its
 * variable parts (numbers, quoted values) blanked; a message that says nothing specific keeps the operation.
 */
function signatureOf(bad: string, req: FuzzRequest, o: Outcome): string {
  if (bad === "hang") return `hang ${req.op}`;
  const message = normalize(answerMessage(o)).slice(0, 100);
  const generic = message.trim() === "" || /^internal( server)? error$/i.test(message.trim());
  const surface = req.op.startsWith("rpc ") ? "rpc" : req.op === "misc" ? "misc" : "rest";
  return generic ? `${bad} ${req.op}` : `${bad} ${surface}: ${message}`;
}

/** Starts the platform, runs the campaign against it, stops it; the report covers the shutdown too. */
export async function runCampaign(opts: CampaignOptions): Promise<CampaignReport> {
  const log = opts.log ?? (() => {});
  const crashes: string[] = [];
  const onRejection = (reason: unknown) =>
    crashes.push(`unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}`);
  const onException = (err: Error) => crashes.push(`uncaught exception: ${err.stack ?? String(err)}`);
  process.on("unhandledRejection", onRejection);
  process.on("uncaughtException", onException);

  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  const byClass: CampaignReport["byClass"] = { "1xx": 0, "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0, "no answer": 0 };
  const latencies: number[] = [];
  const healthFailures: string[] = [];
  const findings: Finding[] = [];
  let sent = 0;
  let hangs = 0;
  let operations: number;
  let passFigures = { operations: 0, covered: 0 };
  const refusals = new Map<string, number>();
  const allowed: Record<string, number> = {};

  // CORS on, so its code is fuzzed too; the platform's own logs only from FUZZ_LOG_LEVEL (every refusal is a warning).
  const platform = await startTestPlatform({
    env: { CORS_ORIGINS: "https://fuzz.example", LOG_LEVEL: process.env.FUZZ_LOG_LEVEL ?? "fatal" },
  });
  const url = new URL(platform.url);
  const h2 = new H2Pool(platform.url);
  try {
    const otherKey = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const spares: string[] = [];
    for (let i = 0; i < SPARE_ADMINS; i++) spares.push(await platform.adminToken());
    spareAdmins.set(platform, spares);
    adminClaims.set(
      platform,
      JSON.parse(Buffer.from(spares[0]!.split(".")[1]!, "base64url").toString()) as Record<string, unknown>,
    );
    let tokens = withPair({
      ...(await forgeTokens(platform, otherKey)),
      ...(await mintTokens(platform, REAL_TOKENS)),
    });
    let forgedAt = elapsed();
    let mintedAt = elapsed();
    const doc = (await (await fetch(`${platform.url}/openapi.json`)).json()) as OpenApiDoc;
    const services: DescService[] = (await loadServiceDefinitions()).flatMap((d) => d.services);
    // An account the fuzz may act on by its real id and address (ban it, change it, send it mail).
    const victim = await platform.signUp();
    const existing = { ids: [victim.user.uuid], emails: [victim.user.email] };
    const ops = buildOperations(doc, services, existing).filter((o) => !opts.only || opts.only.test(o.id));
    if (ops.length === 0) throw new Error(`no operation matches ${opts.only}`);
    operations = ops.length;
    log(
      `fuzz: seed ${opts.seed}, ${ops.length} operations (${Object.keys(doc.paths).length} REST paths, ${services.length} services), ${opts.requests} requests / ${opts.seconds} s at most`,
    );

    let lastHealth = elapsed();
    const health = async (when: string) => {
      lastHealth = elapsed();
      try {
        const res = await fetch(`${platform.url}/healthz`, { signal: AbortSignal.timeout(opts.deadlineMs) });
        if (res.status !== 200) healthFailures.push(`${when}: /healthz answered ${res.status}`);
      } catch (err) {
        healthFailures.push(`${when}: /healthz failed: ${(err as Error).message}`);
      }
    };

    const known = new Set<string>();
    // The concurrency pass runs after the random requests, in the seconds kept for it.
    const passSeconds = opts.path === undefined ? Math.min(opts.passSeconds, opts.seconds) : 0;
    const randomSeconds = opts.seconds - passSeconds;
    const exhausted = () => sent >= opts.requests || elapsed() >= randomSeconds || opts.signal?.aborted === true;
    let lastProgress = 0;

    // Shrinking a failure that does not come back (a crash from a race) would replay candidates for ever:
    // after SHRINK_BUDGET candidates in a round, the rest pass unsent and the smallest failure so far stands.
    let failedThisRound = false;
    let shrinkCandidates = 0;
    const property = fc.asyncProperty(batchArbitrary(ops, opts.concurrency), async (batch) => {
      if ((failedThisRound && ++shrinkCandidates > SHRINK_BUDGET) || opts.signal?.aborted) return;
      try {
        await (opts.concurrent ? runTogether(batch) : runBatch(batch));
      } catch (err) {
        failedThisRound = true;
        throw err;
      }
    });
    let previousBatch: FuzzRequest[] = [];
    /** Counts an answer in the report's figures. */
    const tally = (req: FuzzRequest, o: Outcome) => {
      sent++;
      if (o.status === 0) byClass["no answer"]++;
      else byClass[`${Math.floor(o.status / 100)}xx` as keyof typeof byClass]++;
      if (o.status > 0 && req.ending.kind === "complete") latencies.push(o.ms);
      if (o.hung) hangs++;
      const allowedWhy = allowance(req, o);
      if (allowedWhy) allowed[allowedWhy] = (allowed[allowedWhy] ?? 0) + 1;
      if (o.status >= 400 && o.status < 500) {
        const key = `${o.status} ${normalize(answerMessage(o)).slice(0, 80)}`;
        refusals.set(key, (refusals.get(key) ?? 0) + 1);
      }
      return o;
    };
    const runBatch = async (batch: FuzzRequest[]) => {
      const crashesBefore = crashes.length;
      const outcomes = await Promise.all(batch.map(async (req) => tally(req, await send(req))));
      // A rejection that surfaced while this batch ran (or at once after it) belongs to it.
      await new Promise((r) => setImmediate(r));
      if (elapsed() - lastHealth > 2) await health(`after ${sent} requests`);
      if (opts.log && elapsed() - lastProgress > 15) {
        lastProgress = elapsed();
        log(`fuzz: ${sent} sent, ${JSON.stringify(byClass)}, ${findings.length} findings, ${Math.round(elapsed())} s`);
      }
      // A session the fuzz ended (logout, password change, ban, deactivation) is minted again, at most once
      // a second; a refusal to mint (a throttle) keeps the old tokens and waits 30 s.
      const stale = new Set<AuthKind>();
      batch.forEach((req, i) => {
        const o = outcomes[i]!;
        if (
          REAL_TOKENS.has(req.auth) &&
          o.status === 401 &&
          /revoked|expired|banned|deactivat|not found/i.test(o.snippet)
        )
          stale.add(req.auth);
      });
      if (stale.size > 0 && elapsed() - mintedAt > 1) {
        mintedAt = elapsed();
        for (const kind of stale) {
          try {
            tokens = withPair({ ...tokens, ...(await mintTokens(platform, new Set([kind]))) });
          } catch (err) {
            log(`fuzz: could not mint a ${kind} token, next try in 30 s: ${(err as Error).message}`);
            mintedAt = elapsed() + 30;
          }
        }
      }
      if (elapsed() - forgedAt > 300) {
        forgedAt = elapsed();
        tokens = withPair({ ...tokens, ...(await forgeTokens(platform, otherKey)) });
      }
      if (crashes.length > crashesBefore) {
        const what = crashes[crashes.length - 1]!.split("\n").slice(0, 6).join("\n");
        const signature = `crash ${what.split("\n")[0]!.slice(0, 120)}`;
        // The server may report it a turn after the client saw its stream end: the batch before is suspect too.
        if (!known.has(signature)) throw new FindingError(signature, what, undefined, [...previousBatch, ...batch]);
      }
      previousBatch = batch;
      for (let i = 0; i < batch.length; i++) {
        const req = batch[i]!;
        const o = outcomes[i]!;
        const bad = verdict(req, o);
        if (!bad) continue;
        const signature = signatureOf(bad, req, o);
        if (known.has(signature)) continue;
        throw new FindingError(signature, `${bad} after ${Math.round(o.ms)} ms: ${clip(answerMessage(o), 300)}`, req);
      }
    };

    const send = (req: FuzzRequest, withTokens = tokens, deadlineMs = opts.deadlineMs) => {
      const w = wire(req, withTokens);
      return w.transport === "h2" ? sendH2(h2, w, deadlineMs) : sendH1(url, w, deadlineMs);
    };

    // The same request from `callers` callers at once, all sent before any answer is read. A user's request goes
    // out with a new account's token: what a call makes on first use is where concurrent callers collide (issue 23:
    // a new user's first profile changes at once answered 500 on the key); an admin's with the admin's token.
    const together = `${opts.callers} callers at once`;
    const sendTogether = async (req: FuzzRequest) => {
      const withTokens =
        req.auth === "user" ? { ...tokens, user: `Bearer ${(await platform.signUp()).token}` } : tokens;
      // Work that is slow by design (a password hash: sign-up, login) queues behind itself when many callers ask
      // at once: the last answer comes about `callers` times later than one alone, which is no hang.
      const deadline = opts.deadlineMs * Math.max(1, opts.callers / 5);
      const outcomes = await Promise.all(Array.from({ length: opts.callers }, () => send(req, withTokens, deadline)));
      for (const o of outcomes) tally(req, o);
      // An operation of the pass may end the admin's or the service's session (a logout, a ban): a new one for
      // the next request, as the random requests do.
      if (
        req.auth !== "user" &&
        REAL_TOKENS.has(req.auth) &&
        outcomes.some((o) => o.status === 401 && /revoked|expired|banned|deactivat|not found/i.test(o.snippet))
      ) {
        tokens = withPair({ ...tokens, ...(await mintTokens(platform, new Set([req.auth]))) });
      }
      return outcomes;
    };
    /** What went wrong when `callers` callers sent `req` at once, if anything. */
    const concurrencyFailure = (req: FuzzRequest, outcomes: Outcome[]) => {
      const bad = outcomes.flatMap((o) => {
        // The kit's answer to a unique violation no handler anticipated: not a 500, still a race to fix there.
        const why =
          verdict(req, o) ?? (answerMessage(o) === ALREADY_EXISTS_MESSAGE ? `unanticipated ${o.status}` : undefined);
        return why ? [{ why, o }] : [];
      });
      if (bad.length === 0) return undefined;
      const { why, o } = bad[0]!;
      const statuses = outcomes.map((x) => x.status).join(" ");
      return {
        signature: `concurrency ${signatureOf(why, req, o)}`,
        message: `${bad.length} of ${outcomes.length} callers at once: ${why} after ${Math.round(o.ms)} ms: ${clip(answerMessage(o), 300)}`,
        line: `sent by ${together}${req.auth === "user" ? " (a new user's token)" : ""}: ${bad.length} failed (statuses ${statuses})`,
      };
    };
    const concurrentReplay = (seed: number, path: string) =>
      `${opts.only ? `FUZZ_OPS='${opts.only.source}' ` : ""}FUZZ_CONCURRENT=1 FUZZ_CALLERS=${opts.callers} FUZZ_SEED=${seed} FUZZ_PATH=${path} npm run fuzz`;

    // A replay with FUZZ_CONCURRENT=1: every request of the batch by `callers` callers at once.
    const runTogether = async (batch: FuzzRequest[]) => {
      for (const req of batch) {
        const failure = concurrencyFailure(req, await sendTogether(req));
        if (failure) throw new FindingError(failure.signature, failure.message, req);
      }
    };

    const record = async (result: fc.RunDetails<[FuzzRequest[]]>, seed: number) => {
      if (!result.failed || result.counterexample === null) return false;
      const err = result.errorInstance;
      let signature = err instanceof FindingError ? err.signature : `error ${(err as Error)?.message ?? String(err)}`;
      let message = (err as Error)?.message ?? String(err);
      known.add(signature);
      const path = result.counterexamplePath ?? "";
      // The operations list is part of what a path replays: a FUZZ_OPS filter goes with it.
      let replay = opts.concurrent
        ? concurrentReplay(seed, path)
        : `${opts.only ? `FUZZ_OPS='${opts.only.source}' ` : ""}FUZZ_SEED=${seed} FUZZ_PATH=${path} npm run fuzz`;
      let requests = result.counterexample[0].map(describeRequest);
      if (err instanceof FindingError && err.request) {
        // The shrunk batch may still carry bystanders: name the request that failed, and whether it fails alone.
        const alone = tally(err.request, await send(err.request));
        const again = verdict(err.request, alone);
        const lines = [
          describeRequest(err.request),
          `  sent alone once more: ${again ?? `no longer fails (${alone.status})`}`,
        ];
        // A failure that does not come back alone may be a race: the same request from many callers at once.
        if (!again && !opts.concurrent) {
          const failure = concurrencyFailure(err.request, await sendTogether(err.request));
          if (failure) {
            signature = failure.signature;
            message = `${message}\n${failure.message}`;
            replay = concurrentReplay(seed, path);
            known.add(signature);
          }
          lines.push(`  ${failure?.line ?? `sent by ${together}: no failure either`}`);
        }
        requests = [lines.join("\n")];
      } else if (err instanceof FindingError && err.suspects.length > 0) {
        // Send the suspects one by one to find the one that brings the crash back; a /healthz round trip
        // after each lets the server finish with it first.
        for (const req of err.suspects) {
          const before = crashes.length;
          // On a session of its own, as a new client would send it (frames that share a read race differently).
          if (req.transport === "h2") h2.close();
          await send(req);
          sent++;
          await fetch(`${platform.url}/healthz`)
            .then((r) => r.arrayBuffer())
            .catch(() => undefined);
          if (crashes.length > before) {
            requests = [`${describeRequest(req)}\n  sent alone once more: crashes again`];
            break;
          }
        }
      }
      findings.push({ signature, message, seed, path, requests, replay });
      log(`fuzz: finding ${signature} (seed ${seed}, path ${path}, ${result.numShrinks} shrinks)`);
      return true;
    };

    // The concurrency pass: every operation that creates something — a REST POST or PUT, the methods the gateway
    // maps creating and changing calls to (an RPC is the same handler once more) — as a well-behaved client would
    // send it, by `callers` callers at once, in an order the seed decides. Each request is the seed's and the
    // operation's own, so `FUZZ_OPS='^<operation>$' FUZZ_SEED=<seed> FUZZ_REQUESTS=0` sends it again.
    const concurrencyPass = async () => {
      const creating = ops.filter((o) => o.plain && /^(POST|PUT) /.test(o.id));
      const order = fc.sample(fc.shuffledSubarray(creating, { minLength: creating.length }), {
        seed: opts.seed,
        numRuns: 1,
      })[0]!;
      let covered = 0;
      // Its own seconds from when it starts (the random requests may have ended early on FUZZ_REQUESTS).
      const end = Math.min(opts.seconds, elapsed() + passSeconds);
      for (const op of order) {
        if (elapsed() >= end || opts.signal?.aborted) break;
        for (let k = 0; k < opts.passSamples; k++) {
          const [drawn] = fc.sample(op.plain!, { seed: (opts.seed ^ hashOf(`${op.id}#${k}`)) | 0, numRuns: 1 });
          // Sample k is sent as a new user, an admin, a service, in turn: most operations take only one of them.
          const req = { ...drawn!, auth: PASS_CALLERS[k % PASS_CALLERS.length]! };
          const failure = concurrencyFailure(req, await sendTogether(req));
          if (!failure || known.has(failure.signature)) continue;
          known.add(failure.signature);
          findings.push({
            signature: failure.signature,
            message: failure.message,
            seed: opts.seed,
            path: "",
            requests: [`${describeRequest(req)}\n  ${failure.line}`],
            replay: `FUZZ_OPS='^${escapeRegExp(op.id)}$' FUZZ_PASS_SAMPLES=${k + 1} FUZZ_CALLERS=${opts.callers} FUZZ_SEED=${opts.seed} FUZZ_REQUESTS=0 npm run fuzz`,
          });
          log(`fuzz: finding ${failure.signature} (concurrency pass, ${op.id})`);
        }
        covered++;
      }
      passFigures = { operations: creating.length, covered };
      log(`fuzz: concurrency pass: ${covered} of ${creating.length} creating operations by ${together}`);
      await health("after the concurrency pass");
    };

    if (opts.path !== undefined) {
      const result = await fc.check(property, { seed: opts.seed, path: opts.path, endOnFailure: false });
      await record(result as fc.RunDetails<[FuzzRequest[]]>, opts.seed);
    } else {
      for (let round = 0; !exhausted(); round++) {
        const seed = (opts.seed + round * 7919) | 0;
        failedThisRound = false;
        shrinkCandidates = 0;
        // Batches average about half the concurrency; shrinking may go past the budget a little.
        const numRuns = Math.min(100, Math.ceil((opts.requests - sent) / Math.max(1, opts.concurrency / 2)));
        const result = await fc.check(property, {
          seed,
          numRuns,
          plugins: [fc.interruptAfterTimeLimit(Math.max(1, (randomSeconds - elapsed()) * 1000))],
        });
        await record(result as fc.RunDetails<[FuzzRequest[]]>, seed);
      }
      if (passSeconds > 0) await concurrencyPass();
    }
    await health("at the end");
  } finally {
    h2.close();
    // Closing drains the calls still running, so a rejection they cause surfaces before the listeners go.
    await platform.close();
    process.off("unhandledRejection", onRejection);
    process.off("uncaughtException", onException);
  }

  latencies.sort((a, b) => a - b);
  return {
    seed: opts.seed,
    operations,
    sent,
    byClass,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    allowed,
    topRefusals: [...refusals].sort((a, b) => b[1] - a[1]).slice(0, 12),
    crashes,
    hangs,
    healthFailures,
    findings,
    concurrencyPass: passFigures,
    seconds: elapsed(),
  };
}

/** The report as the long form prints it (and the short form's failure message). */
export function formatReport(r: CampaignReport): string {
  const lines = [
    `fuzz report — seed ${r.seed}, ${r.operations} operations, ${r.seconds.toFixed(1)} s`,
    `requests sent: ${r.sent}`,
    `statuses: ${Object.entries(r.byClass)
      .map(([k, n]) => `${k} ${n}`)
      .join(", ")}`,
    `allow-listed server-class answers: ${
      Object.entries(r.allowed)
        .map(([why, n]) => `${n} × ${why}`)
        .join(", ") || "none"
    }`,
    `latency: p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms`,
    `concurrency pass: ${r.concurrencyPass.covered} of ${r.concurrencyPass.operations} creating operations sent by many callers at once`,
    `crashes: ${r.crashes.length}, hangs: ${r.hangs}, /healthz failures: ${r.healthFailures.length}, findings: ${r.findings.length}`,
  ];
  lines.push(`most frequent refusals: ${r.topRefusals.map(([m, n]) => `\n  ${n} × ${m}`).join("")}`);
  for (const c of r.crashes.slice(0, 10)) lines.push(`\ncrash: ${c.split("\n").slice(0, 8).join("\n  ")}`);
  for (const h of r.healthFailures.slice(0, 10)) lines.push(`health: ${h}`);
  for (const f of r.findings) {
    lines.push(`\nfinding: ${f.signature}\n  ${f.message.split("\n").join("\n  ")}\n  replay: ${f.replay}`);
    for (const req of f.requests) lines.push(`  ${req.split("\n").join("\n  ")}`);
  }
  return lines.join("\n");
}
