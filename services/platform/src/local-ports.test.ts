import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { reserveLocalPorts } from "./local-ports.ts";

/** Whether this process can listen on 127.0.0.1:port now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen({ port, host: "127.0.0.1", exclusive: true }, () => server.close(() => resolve(true)));
  });
}

describe("reserveLocalPorts (issue 14: distributed mode knows every service's URL before starting any)", () => {
  it("holds distinct loopback ports below the system's ephemeral range until each is released", async () => {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    const ports = await reserveLocalPorts(8);
    try {
      expect(new Set(ports.map((p) => p.port)).size).toBe(8);
      for (const { port } of ports) {
        expect(port).toBeGreaterThanOrEqual(10_000);
        expect(port).toBeLessThan(low);
        // Held: nobody else can bind it meanwhile.
        expect(await canListen(port)).toBe(false);
      }
      const [first] = ports;
      await first!.release();
      await first!.release(); // idempotent
      expect(await canListen(first!.port)).toBe(true);
    } finally {
      for (const port of ports) await port.release();
    }
  });
});
