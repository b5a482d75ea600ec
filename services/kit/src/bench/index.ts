// What the benches (npm run bench:*) share: a REST call through the gateway, percentiles of their samples, a
// closed loop of calls (throughput and p99), the machine's load average line, tokens signed as the platform's user
// service signs them, a process's CPU time, and a server stream opened as a thin Connect client opens it. Each bench
// keeps its own method and output; these are the small parts they all wrote again.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import http2 from "node:http2";
import { loadavg } from "node:os";
import { importPKCS8, SignJWT } from "jose";
import { DEFAULT_TOKEN_AUDIENCE, DEFAULT_TOKEN_ISSUER, TOKEN_ALG } from "../auth/claims.ts";

/** A parsed JSON answer, read loosely (a bench reads the fields it asked for). */
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** `method path` with an optional bearer token and JSON body; the parsed answer, or an Error unless 2xx. */
export type RestCall = (method: string, path: string, token?: string, body?: unknown) => Promise<Json>;

/**
 * REST calls to `baseUrl` (e.g. the gateway's url, or `${url}/api`): a body goes as JSON, the answer's text is parsed
 * (an empty one is `{}`), and any answer but 2xx throws `${method} ${path} answered ${status}: ${text}`.
 */
export function restCall(baseUrl: string): RestCall {
  return async (method, path, token, body) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return text ? (JSON.parse(text) as Json) : {};
  };
}

/**
 * The q-quantile (0…1) of `xs` by the nearest rank below: the value at index ⌊q·n⌋ of the sorted samples (the last
 * for q = 1); NaN for no samples. `xs` is not changed.
 */
export function percentile(xs: ArrayLike<number>, q: number): number {
  return percentiles(xs, q)[0]!;
}

/** Several quantiles of `xs` as percentile() takes them, sorting once. */
export function percentiles(xs: ArrayLike<number>, ...qs: number[]): number[] {
  const sorted = Float64Array.from(xs).sort();
  return qs.map((q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN);
}

/**
 * A closed loop: `warmup` calls one after another (not measured), then `requests` calls of `one` by `concurrency`
 * callers at once, each starting its next call when its last has answered. Calls per second over the loop, the p99
 * of the calls' times (ms) and the times themselves. `one` gets the caller's index and the call's (0…requests-1).
 */
export async function closedLoop(
  opts: { requests: number; concurrency: number; warmup: number },
  one: (caller: number, i: number) => Promise<unknown>,
): Promise<{ rps: number; p99: number; samples: number[] }> {
  for (let i = 0; i < opts.warmup; i++) await one(i % opts.concurrency, i);
  const samples: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: opts.concurrency }, async (_, caller) => {
      while (next < opts.requests) {
        const i = next++;
        const t0 = performance.now();
        await one(caller, i);
        samples.push(performance.now() - t0);
      }
    }),
  );
  const rps = opts.requests / ((performance.now() - started) / 1000);
  return { rps, p99: percentile(samples, 0.99), samples };
}

/** The 1, 5 and 15 minute load averages, `decimals` each, space-separated ("1.14 0.77 0.42"). */
export function loadAverage(decimals = 2): string {
  return loadavg()
    .map((x) => x.toFixed(decimals))
    .join(" ");
}

/**
 * CPU seconds (user + system) process `pid` has used so far, from Linux's /proc; 0 once it is gone (or where there is
 * no /proc). Read before and after a phase, it says what one request cost each process of a bench.
 */
export function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: the fields after it follow the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return 0;
  }
}

/** What a platform token signed by a bench says; a fresh subject unless `sub` is given. */
export interface BenchTokenClaims {
  typ?: "user" | "guest";
  /** Default: the type's own role ("user", "guest"). */
  role?: string;
  sub?: string;
}

/**
 * Signs tokens as the platform's user service does, so a bench's listeners need no sign-up each: with the platform's
 * JWT_PRIVATE_KEY (`privatePem`), the kid its `/api/user-service/auth/pub-key` names (asked once through `call`),
 * the default issuer and audience, a fresh session, valid for an hour.
 */
export async function platformTokenSigner(
  call: RestCall,
  privatePem: string,
): Promise<(claims?: BenchTokenClaims) => Promise<string>> {
  const key = await importPKCS8(privatePem, TOKEN_ALG);
  const kid = (await call("GET", "/api/user-service/auth/pub-key")).kid as string;
  return async ({ typ = "user", role = typ, sub = randomUUID() } = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ typ, role, sid: randomUUID() })
      .setProtectedHeader({ alg: TOKEN_ALG, kid, typ: "JWT" })
      .setIssuer(DEFAULT_TOKEN_ISSUER)
      .setAudience(DEFAULT_TOKEN_AUDIENCE)
      .setSubject(sub)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(key);
  };
}

/** One server-streaming call for connectServerStream. */
export interface ConnectStreamCall {
  /** `/<package>.<Service>/<Method>`, e.g. `/tt.social.v1.StageService/Join`. */
  path: string;
  /** The request message in protobuf binary (toBinary). */
  request: Uint8Array;
  token: string;
  /**
   * Aborting it cancels the stream. Leave it out for thousands of streams that end together (close their session
   * instead): each stream is a listener of the signal, and a signal's listeners are a list walked on every add.
   */
  signal?: AbortSignal;
  /** Gets `<path> answered <status>` when the answer's HTTP status is not 200. */
  onRefused: (error: Error) => void;
}

/**
 * A server-streaming call as a thin Connect client makes it, over an HTTP/2 session of the caller's (binary Connect
 * protocol, the request message enveloped): Connect's generic client pipeline would cost a load generator tens of
 * microseconds per message and listener, and a bench would measure its own client. The caller reads the enveloped
 * answers from the stream's `data` (flag 2 on the end-of-stream message) and listens for its `close` and `error`.
 */
export function connectServerStream(
  session: http2.ClientHttp2Session,
  call: ConnectStreamCall,
): http2.ClientHttp2Stream {
  const frame = Buffer.alloc(5 + call.request.length);
  frame.writeUInt32BE(call.request.length, 1);
  frame.set(call.request, 5);
  const stream = session.request({
    ":method": "POST",
    ":path": call.path,
    "content-type": "application/connect+proto",
    "connect-protocol-version": "1",
    authorization: `Bearer ${call.token}`,
  });
  const { signal } = call;
  if (signal) {
    const abort = () => stream.close(http2.constants.NGHTTP2_CANCEL);
    signal.addEventListener("abort", abort, { once: true });
    stream.on("close", () => signal.removeEventListener("abort", abort));
  }
  stream.end(frame);
  stream.on("response", (headers) => {
    if (headers[":status"] !== 200) call.onRefused(new Error(`${call.path} answered ${headers[":status"]}`));
  });
  return stream;
}
