// How many request-body bytes the gateway holds at once, across every call (issue 23 finding 6). A REST body is
// buffered whole before it becomes a request message (a multipart upload up to MULTIPART_BODY_LIMIT_BYTES), so
// without a bound a few hundred callers sending large bodies at once decide how much memory the process uses.
// Each call takes what it holds from one shared budget, as its bytes arrive (or at once, when it declares its
// length), and gives it back when the call is over; a body that does not fit is refused with 503 and retry-after
// rather than made to wait, so a full gateway never holds connections open on top of the bytes
// (docs/decisions/0279-a-budget-of-request-body-bytes-in-flight-refused.md).
import { Code, ConnectError } from "@connectrpc/connect";

export const DEFAULT_MAX_BODY_BYTES_IN_FLIGHT = 256 * 1024 * 1024;
/** Seconds a refused caller is told to wait: buffered bodies are released as their calls end, within seconds. */
export const BODY_BUDGET_RETRY_AFTER_SECONDS = 2;

export interface BodyBudget {
  /** Bytes held right now by calls whose bodies are being read or are still in their request messages. */
  inFlight(): number;
  /** A call's share of the budget. */
  lease(): BodyLease;
}

export interface BodyLease {
  /** Makes sure the call holds at least `total` bytes; throws Unavailable (503, retry-after) when they do not fit. */
  hold(total: number): void;
  /** Gives back what the call holds; idempotent. */
  release(): void;
}

export function busyRefusal(): ConnectError {
  return new ConnectError("the server is receiving too many request bodies at once; retry later", Code.Unavailable, {
    "retry-after": String(BODY_BUDGET_RETRY_AFTER_SECONDS),
  });
}

export function createBodyBudget(limit: number): BodyBudget {
  let inFlight = 0;
  return {
    inFlight: () => inFlight,
    lease() {
      let held = 0;
      return {
        hold(total) {
          if (total <= held) return;
          if (inFlight + (total - held) > limit) throw busyRefusal();
          inFlight += total - held;
          held = total;
        },
        release() {
          inFlight -= held;
          held = 0;
        },
      };
    },
  };
}
