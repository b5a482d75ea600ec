// Everything that leaves a handler is a ConnectError whose message is safe to show a caller. Errors the
// code did not anticipate become Internal with a generic message; the original stays in `cause` and in
// the log, never in the answer.
import { Code, ConnectError } from "@connectrpc/connect";
import type { Logger } from "pino";

/** The message callers see for an error nobody anticipated. */
export const INTERNAL_ERROR_MESSAGE = "internal error";
/**
 * The reason a call's signal is aborted with once the call is over (its answer given, or its stream ended):
 * Connect's `abort()` without a reason makes a DOMException, whose stack capture cost more than anything else
 * the in-process transport does per call (about 20 µs with source maps on, bench:ledger). Shared: nobody answers with it.
 */
export const CALL_OVER = new ConnectError("the call is over", Code.Canceled);

/**
 * Returns a ConnectError for any thrown value. ConnectErrors pass through unchanged (their message was
 * written for the caller); anything else becomes Internal with the original in `cause`. An abort of the
 * call keeps its Canceled / DeadlineExceeded code, as `ConnectError.from` decides.
 */
export function toConnectError(reason: unknown): ConnectError {
  if (reason instanceof ConnectError) return reason;
  const converted = ConnectError.from(reason);
  if (converted.code === Code.Canceled || converted.code === Code.DeadlineExceeded) return converted;
  return new ConnectError(INTERNAL_ERROR_MESSAGE, Code.Internal, undefined, undefined, reason);
}

/** Like toConnectError, and logs the hidden detail of an unanticipated error at error level. */
export function toLoggedConnectError(reason: unknown, logger: Logger | undefined): ConnectError {
  const error = toConnectError(reason);
  if (error !== reason && error.code === Code.Internal) logger?.error({ err: reason }, "unexpected error");
  return error;
}

/** True when an error is one the caller caused (or may retry), false when it points at a server fault. */
export function isServerFault(error: ConnectError): boolean {
  return [Code.Internal, Code.Unknown, Code.DataLoss, Code.Unimplemented].includes(error.code);
}
