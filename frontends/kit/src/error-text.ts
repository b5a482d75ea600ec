import { Code, ConnectError } from "@connectrpc/connect";

// Spec 002 §8: the text shown for any failed service call.
export const GENERIC_ERROR_TEXT = "Something went wrong, please try again.";

// The HTTP status the gateway answers REST callers with for each Connect code (Connect's own table), so
// that the "status below 500" rule means the same thing for Connect and REST callers.
const HTTP_STATUS_BY_CODE: Record<Code, number> = {
  [Code.Canceled]: 499,
  [Code.Unknown]: 500,
  [Code.InvalidArgument]: 400,
  [Code.DeadlineExceeded]: 504,
  [Code.NotFound]: 404,
  [Code.AlreadyExists]: 409,
  [Code.PermissionDenied]: 403,
  [Code.ResourceExhausted]: 429,
  [Code.FailedPrecondition]: 400,
  [Code.Aborted]: 409,
  [Code.OutOfRange]: 400,
  [Code.Unimplemented]: 501,
  [Code.Internal]: 500,
  [Code.Unavailable]: 503,
  [Code.DataLoss]: 500,
  [Code.Unauthenticated]: 401,
};

export function httpStatusOfCode(code: Code): number {
  return HTTP_STATUS_BY_CODE[code];
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

interface StatusAndMessage {
  status: number;
  message: unknown;
}

function statusAndMessage(error: unknown): StatusAndMessage | undefined {
  if (error instanceof ConnectError) return { status: httpStatusOfCode(error.code), message: error.rawMessage };
  // A REST error body: { statusCode, message, error } where message is a string or a list of strings.
  if (typeof error === "object" && error !== null) {
    const record = error as Record<string, unknown>;
    const status = record["statusCode"] ?? record["status"];
    if (typeof status === "number") return { status, message: record["message"] };
  }
  return undefined;
}

/**
 * The user-facing text for a failed call (spec 002 §8): the server's message — a string, or the first of
 * a list — with its first letter capitalised when the status is below 500; otherwise the generic text
 * (passed in translated, when the caller has a language).
 */
export function errorText(error: unknown, genericText: string = GENERIC_ERROR_TEXT): string {
  const parsed = statusAndMessage(error);
  if (!parsed || parsed.status >= 500) return genericText;
  const first: unknown = Array.isArray(parsed.message) ? parsed.message[0] : parsed.message;
  if (typeof first !== "string" || first.trim() === "") return genericText;
  return capitalise(first.trim());
}

/** The Connect code of an error, or undefined when it is not a service error. */
export function errorCode(error: unknown): Code | undefined {
  return error instanceof ConnectError ? error.code : undefined;
}
