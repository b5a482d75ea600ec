// REST error bodies. A ConnectError's code becomes the HTTP status through Connect's own table
// (protocol-connect `codeToHttpStatus`); services pick the code whose status the specification documents.
// Anything that is not a ConnectError or one of the gateway's own errors is a 500 whose detail stays in
// the log.
import { STATUS_CODES } from "node:http";
import { Code, ConnectError } from "@connectrpc/connect";
import { codeToHttpStatus } from "@connectrpc/connect/protocol-connect";
import { BindError } from "./bind.ts";
import { MatchError } from "./match.ts";

/** The body every REST error has. */
export interface RestErrorBody {
  statusCode: number;
  message: string;
  /** The standard reason phrase of the status. */
  error: string;
}

export interface RestError {
  status: number;
  body: RestErrorBody;
  /** Extra response headers (Allow for 405). */
  headers: Record<string, string>;
  /** Whether the cause is a fault of ours rather than of the request; such causes are logged. */
  internal: boolean;
}

/** The message a caller sees for an unexpected failure; the cause goes to the log only. */
export const INTERNAL_MESSAGE = "internal server error";

// Not every status Connect uses is in node's table (499 is nginx's).
const EXTRA_REASONS: Record<number, string> = { 499: "Client Closed Request" };

export function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? EXTRA_REASONS[status] ?? "Unknown";
}

export function restErrorBody(status: number, message: string): RestErrorBody {
  return { statusCode: status, message, error: reasonPhrase(status) };
}

/**
 * The metadata key with which a service asks for a 4xx status that no Connect code maps to (422 Unprocessable
 * Content for an idempotency key reused with another body); anything but a 4xx there is ignored.
 */
export const HTTP_STATUS_METADATA = "tt-http-status";

function restStatusOf(err: ConnectError): number {
  const asked = Number(err.metadata.get(HTTP_STATUS_METADATA));
  if (Number.isInteger(asked) && asked >= 400 && asked <= 499 && codeToHttpStatus(err.code) < 500) return asked;
  return codeToHttpStatus(err.code);
}

/** Maps any thrown value to the REST answer. */
export function toRestError(err: unknown): RestError {
  if (err instanceof MatchError) {
    return {
      status: err.status,
      body: restErrorBody(err.status, err.message),
      headers: err.status === 405 ? { allow: err.allow.join(", ") } : {},
      internal: false,
    };
  }
  if (err instanceof BindError) {
    return { status: err.status, body: restErrorBody(err.status, err.message), headers: {}, internal: false };
  }
  if (err instanceof ConnectError) {
    const status = restStatusOf(err);
    // Unknown, Internal and DataLoss carry whatever the failure said; keep that in the log.
    const internal = err.code === Code.Unknown || err.code === Code.Internal || err.code === Code.DataLoss;
    const message = internal ? INTERNAL_MESSAGE : err.rawMessage;
    return { status, body: restErrorBody(status, message), headers: {}, internal };
  }
  return { status: 500, body: restErrorBody(500, INTERNAL_MESSAGE), headers: {}, internal: true };
}
