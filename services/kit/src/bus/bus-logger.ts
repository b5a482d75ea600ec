// The adapters log what they cannot hand back to a caller: a subscriber that threw, a connection that dropped.
import { pino, type Logger } from "pino";

export type BusLogger = Pick<Logger, "info" | "warn" | "error">;

export function defaultBusLogger(): BusLogger {
  return pino({ name: "bus" });
}
