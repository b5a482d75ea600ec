// Everything that leaves a handler is a ConnectError whose message is safe to show a caller. Errors the
// code did not anticipate become Internal with a generic message; the original stays in `cause` and in
// the log, never in the answer.
import { Code, ConnectError } from "@connectrpc/connect";
import { DriverException } from "@mikro-orm/core";
import type { Logger } from "pino";
import { BusUnavailableError } from "./bus/bus.ts";

/** The message callers see for an error nobody anticipated. */
export const INTERNAL_ERROR_MESSAGE = "internal error";
/**
 * The reason a call's signal is aborted with once the call is over (its answer given, or its stream ended):
 * Connect's `abort()` without a reason makes a DOMException, whose stack capture cost more than anything else
 * the in-process transport does per call (about 20 µs with source maps on, bench:ledger). Shared: nobody answers with it.
 */
export const CALL_OVER = new ConnectError("the call is over", Code.Canceled);

/** What a unique violation no handler anticipated answers (409): the row was there, most likely made at once by another call. */
export const ALREADY_EXISTS_MESSAGE = "it already exists (made at the same time by another call?)";

/**
 * The SQLSTATE of a PostgreSQL error: MikroORM's DriverException keeps the driver's `code`, and pg's own
 * DatabaseError (a handler's SQL on a pool) carries it with a `severity`.
 */
function sqlState(reason: unknown): string | undefined {
  if (!(reason instanceof Error)) return undefined;
  const { code, severity } = reason as { code?: unknown; severity?: unknown };
  if (typeof code !== "string" || !/^[0-9A-Z]{5}$/.test(code)) return undefined;
  return reason instanceof DriverException || typeof severity === "string" ? code : undefined;
}

/** What a call answers when the database cannot be reached (503, retryable: issue 28). */
export const DATABASE_UNAVAILABLE_MESSAGE = "The database is unavailable, try again";

/** What a call answers when the message bus (NATS) cannot be reached (503, retryable: issue 28). */
export const BUS_UNAVAILABLE_MESSAGE = "The message bus is unavailable, try again";

/** Socket errors of a connection to the database that could not be made or was lost. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ECONNABORTED",
]);
/**
 * SQLSTATEs of a server that is going away or not taking connections: connection exceptions (class 08), admin,
 * crash and startup shutdowns (57P01-57P03), too many connections (53300).
 */
function unavailableState(code: string): boolean {
  return code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || code === "53300";
}
/** pg's own messages for a connection lost or never made in time (they carry no code). */
const LOST_CONNECTION =
  /^(Connection terminated unexpectedly|Connection terminated due to connection timeout|Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable)$/;

/**
 * Where a connection error without a wrapper comes from when it is the database's: pg's pool rethrows a refused
 * connection as it is when MikroORM's query builder (kysely) acquires one for a flush or a transaction.
 */
const DRIVER_STACK = /node_modules\/(pg-pool|pg|kysely)\//;

/**
 * Whether a thrown value says the database could not be reached (refused, timed out, shut down, connection lost),
 * as the pg driver and MikroORM's DriverException report it. Only database errors count: a socket error of another
 * kind (a provider's fetch) is not the database's.
 */
export function isDatabaseUnavailable(reason: unknown): boolean {
  // A DriverException may wrap the driver's error in `cause`: the chain is followed a few steps.
  for (let e: unknown = reason, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const { code, severity } = e as { code?: unknown; severity?: unknown };
    const fromDatabase =
      e instanceof DriverException || typeof severity === "string" || DRIVER_STACK.test(e.stack ?? "");
    if (fromDatabase && typeof code === "string" && (NETWORK_CODES.has(code) || unavailableState(code))) return true;
    if (LOST_CONNECTION.test(e.message) && (fromDatabase || code === undefined)) return true;
  }
  return false;
}

/**
 * Returns a ConnectError for any thrown value. ConnectErrors pass through unchanged (their message was
 * written for the caller); anything else becomes Internal with the original in `cause`. An abort of the
 * call keeps its Canceled / DeadlineExceeded code, as `ConnectError.from` decides. A unique violation
 * (SQLSTATE 23505) that escapes a handler is a conflict with another call, not a server fault: AlreadyExists;
 * a deadlock or serialization failure (40P01, 40001) is one the caller may retry: Aborted; a database that cannot be
 * reached (refused, timed out, shut down, connection lost), or a message bus that cannot (BusUnavailableError), is
 * Unavailable (503), retryable, never Internal.
 */
export function toConnectError(reason: unknown): ConnectError {
  if (reason instanceof ConnectError) return reason;
  const state = sqlState(reason);
  if (state === "23505")
    return new ConnectError(ALREADY_EXISTS_MESSAGE, Code.AlreadyExists, undefined, undefined, reason);
  if (state === "40P01" || state === "40001")
    return new ConnectError(
      "another call changed the same data at once, try again",
      Code.Aborted,
      undefined,
      undefined,
      reason,
    );
  if (isDatabaseUnavailable(reason))
    return new ConnectError(DATABASE_UNAVAILABLE_MESSAGE, Code.Unavailable, undefined, undefined, reason);
  if (reason instanceof BusUnavailableError)
    return new ConnectError(BUS_UNAVAILABLE_MESSAGE, Code.Unavailable, undefined, undefined, reason);
  const converted = ConnectError.from(reason);
  if (converted.code === Code.Canceled || converted.code === Code.DeadlineExceeded) return converted;
  return new ConnectError(INTERNAL_ERROR_MESSAGE, Code.Internal, undefined, undefined, reason);
}

/** Like toConnectError, and logs the hidden detail of an unanticipated error at error level. */
export function toLoggedConnectError(reason: unknown, logger: Logger | undefined): ConnectError {
  const error = toConnectError(reason);
  if (error !== reason && error.code === Code.Internal) logger?.error({ err: reason }, "unexpected error");
  else if (error !== reason && error.code === Code.Unavailable)
    logger?.warn(
      { err: reason },
      reason instanceof BusUnavailableError ? "message bus unavailable" : "database unavailable",
    );
  // A conflict the handler did not anticipate is a race to fix there: worth a line, not an alarm.
  else if (error !== reason && error.cause === reason) logger?.warn({ err: reason }, "unanticipated database conflict");
  return error;
}

/** True when an error is one the caller caused (or may retry), false when it points at a server fault. */
export function isServerFault(error: ConnectError): boolean {
  return [Code.Internal, Code.Unknown, Code.DataLoss, Code.Unimplemented].includes(error.code);
}
