// The load generator both gateway benchmarks use: `concurrency` requests in flight over keep-alive HTTP/1.1
// connections (undici) for a fixed time, each answer checked, latencies kept for percentiles; with `pids`, what a
// request cost each of those processes and this one in CPU. And how they start the servers of their own.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { NODE_TYPESCRIPT_FLAGS } from "@tt/kit";
import { percentiles, processCpuSeconds } from "@tt/kit/bench";
import { Pool } from "undici";

/**
 * Starts the bench file `file` (next to this one) in a process of its own with `args`; resolves with the process and
 * the first line it prints (where it listens). The caller kills it.
 */
export async function startServer(file: string, args: string[] = []): Promise<{ child: ChildProcess; line: string }> {
  const entry = fileURLToPath(new URL(file, import.meta.url));
  const child = spawn(process.execPath, [...NODE_TYPESCRIPT_FLAGS, entry, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
  return { child, line };
}

export interface Case {
  name: string;
  origin: string;
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Text every answer must contain (with status 200); anything else stops the benchmark. */
  expect: string;
}

export interface Result {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** CPU µs per request: this process ("load generator") and each of the `pids` given, by name. */
  cpuUs: Record<string, number>;
}

export async function load(
  c: Case,
  durationMs: number,
  concurrency: number,
  pids: Record<string, number> = {},
): Promise<Result> {
  const pool = new Pool(c.origin, { connections: concurrency, pipelining: 1 });
  const cpu = () => {
    const own = process.cpuUsage();
    const parts: Record<string, number> = { "load generator": (own.user + own.system) / 1e6 };
    for (const [name, pid] of Object.entries(pids)) parts[name] = processCpuSeconds(pid);
    return parts;
  };
  const cpuBefore = cpu();
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + durationMs;
  const worker = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const res = await pool.request({ method: c.method, path: c.path, headers: c.headers, body: c.body });
      const text = await res.body.text();
      if (res.statusCode !== 200 || !text.includes(c.expect)) {
        throw new Error(`${c.name}: unexpected answer ${res.statusCode} ${text.slice(0, 200)}`);
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = performance.now() - started;
  const cpuAfter = cpu();
  await pool.close();
  const cpuUs: Record<string, number> = {};
  for (const [name, seconds] of Object.entries(cpuAfter)) {
    cpuUs[name] = ((seconds - cpuBefore[name]!) * 1e6) / latencies.length;
  }
  const [p50, p99] = percentiles(latencies, 0.5, 0.99) as [number, number];
  return { name: c.name, requests: latencies.length, rps: (latencies.length / elapsed) * 1000, p50, p99, cpuUs };
}
