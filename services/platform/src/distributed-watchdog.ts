// Loaded with --import into every child of distributed mode, which the supervisor starts with an IPC channel.
// - When the channel drops (the supervisor exited or was killed, e.g. a crashed test worker), the child stops
//   through its normal SIGTERM drain instead of living on as an orphan.
// - The child reports the port its server bound, or why it could not: the supervisor starts it with METRICS_PORT=0
//   and PORT=0 (or a port it reserved for a service's first replica, local-ports.ts) and learns where it serves
//   from these reports. Every listen is reported, in order: the kit's server reports its public port first, then
//   its metrics port.
import { subscribe } from "node:diagnostics_channel";
import type { AddressInfo, Server } from "node:net";

export type ListenReport = { tt: "listening"; port: number } | { tt: "listen-failed"; code: string; port?: number };

if (process.channel) {
  process.once("disconnect", () => process.kill(process.pid, "SIGTERM"));
  // The channel must not keep the process alive once the service has stopped by itself.
  process.channel.unref();
  const report = (message: ListenReport) => process.send?.(message);
  subscribe("tracing:net.server.listen:asyncEnd", (message) => {
    const address = (message as { server: Server }).server.address() as AddressInfo | null;
    if (address) report({ tt: "listening", port: address.port });
  });
  subscribe("tracing:net.server.listen:error", (message) => {
    const error = (message as { error?: NodeJS.ErrnoException & { port?: number } }).error;
    report({ tt: "listen-failed", code: error?.code ?? String(error), port: error?.port });
  });
}
