// Loopback ports reserved before the processes that will serve on them start (distributed mode: every service is
// given every other's URL, as the chart gives them, so no service can start knowing only those before it).
// A port is picked below the system's ephemeral range and held by a listening socket of this process until its
// owner is about to start: the system never hands a port out of that range to an outgoing connection or a port-0
// listen, so between release and the child's listen only a program binding that very port could take it.
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";

export interface ReservedPort {
  port: number;
  /** Closes the socket holding the port (idempotent); the port's owner may bind it from then on. */
  release(): Promise<void>;
}

/** Lowest port of the range handed out by the system (Linux: /proc/sys/net/ipv4/ip_local_port_range). */
async function ephemeralLow(): Promise<number> {
  try {
    const text = await readFile("/proc/sys/net/ipv4/ip_local_port_range", "utf8");
    const low = Number(text.trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > 2048) return low;
  } catch {
    // Not Linux: the IANA dynamic range starts at 49152 (macOS, Windows).
  }
  return 49152;
}

function hold(port: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(undefined));
    // exclusive: a cluster primary must not share it; the port is ours alone until released.
    server.listen({ port, host: "127.0.0.1", exclusive: true }, () => resolve(server));
  });
}

/**
 * `count` distinct free loopback ports, each held until released. Candidates are random in the 12,000 ports
 * below the ephemeral range (at least 10000), so runs side by side on one machine rarely try the same one, and
 * one that is taken is skipped.
 */
export async function reserveLocalPorts(count: number): Promise<ReservedPort[]> {
  const high = await ephemeralLow();
  const low = Math.max(10_000, high - 12_000);
  const reserved: ReservedPort[] = [];
  const tried = new Set<number>();
  while (reserved.length < count) {
    if (tried.size >= high - low) {
      for (const port of reserved) await port.release();
      throw new Error(`no free loopback port between ${low} and ${high - 1}`);
    }
    const port = low + Math.floor(Math.random() * (high - low));
    if (tried.has(port)) continue;
    tried.add(port);
    const server = await hold(port);
    if (!server) continue;
    let released: Promise<void> | undefined;
    reserved.push({
      port,
      release: () => (released ??= new Promise<void>((resolve) => server.close(() => resolve()))),
    });
  }
  return reserved;
}
