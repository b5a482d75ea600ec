// What the benches (npm run bench:*) share: a REST call through the gateway, percentiles of their samples, a
// closed loop of calls (throughput and p99) and the machine's load average line. Each bench keeps its own method and
// output; these are the small parts they all wrote again.
import { loadavg } from "node:os";

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
