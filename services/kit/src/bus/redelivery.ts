// How long a durable message that made its handler throw waits before it is delivered again. Consumers are
// strictly in order, so a failing message holds up the ones behind it: back off exponentially so a broken
// dependency is not hammered, but cap it so the stream moves again soon after the dependency recovers.

export const defaultRedeliveryDelayMs = 1_000;
export const maxRedeliveryDelayMs = 30_000;

/** Delay before delivery number `deliveryCount + 1`, given that delivery `deliveryCount` failed. */
export function redeliveryDelay(deliveryCount: number, baseMs = defaultRedeliveryDelayMs): number {
  return Math.min(baseMs * 2 ** Math.max(0, deliveryCount - 1), Math.max(baseMs, maxRedeliveryDelayMs));
}
