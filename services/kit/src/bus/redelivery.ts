// How long a durable message that made its handler throw waits before it is delivered again, and how the throw is
// logged. Consumers are strictly in order, so a failing message holds up the ones behind it: back off exponentially
// so a broken dependency is not hammered, but cap it so the stream moves again soon after the dependency recovers.
import type { BusLogger } from "./bus-logger.ts";

export const defaultRedeliveryDelayMs = 1_000;
export const maxRedeliveryDelayMs = 30_000;

/** Delay before delivery number `deliveryCount + 1`, given that delivery `deliveryCount` failed. */
export function redeliveryDelay(deliveryCount: number, baseMs = defaultRedeliveryDelayMs): number {
  return Math.min(baseMs * 2 ** Math.max(0, deliveryCount - 1), Math.max(baseMs, maxRedeliveryDelayMs));
}

/**
 * Thrown by a durable handler that gives its message back without a fault (its subscriber is stopping): the message
 * is delivered again as after a failure, and the log says so at info instead of as a failed handler.
 */
export class HandBack extends Error {
  override name = "HandBack";
}

/** Logs what a durable handler threw: a hand-back at info, anything else as the handler's failure. */
export function logHandlerThrow(logger: BusLogger, err: unknown, seq: number, deliveryCount: number): void {
  if (err instanceof HandBack) logger.info({ seq, deliveryCount, reason: err.message }, "durable message handed back");
  else logger.warn({ err, seq, deliveryCount }, "durable handler failed");
}
