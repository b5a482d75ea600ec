import type { Code } from "@connectrpc/connect";

// Spec 002 §8: the text shown for any failed service call.
export const GENERIC_ERROR_TEXT = "Something went wrong, please try again.";

// The HTTP status the gateway answers REST callers with for each Connect code (Connect's own table), so
// that the "status below 500" rule means the same thing for Connect and REST callers. Indexed by the
// numeric code: this module is on the first page load, and importing Connect here would pull the whole
// Connect runtime onto the critical path.
const HTTP_STATUS_BY_CODE: readonly number[] = [
  200, // 0 OK
  499, // 1 Canceled
  500, // 2 Unknown
  400, // 3 InvalidArgument
  504, // 4 DeadlineExceeded
  404, // 5 NotFound
  409, // 6 AlreadyExists
  403, // 7 PermissionDenied
  429, // 8 ResourceExhausted
  400, // 9 FailedPrecondition
  409, // 10 Aborted
  400, // 11 OutOfRange
  501, // 12 Unimplemented
  500, // 13 Internal
  503, // 14 Unavailable
  500, // 15 DataLoss
  401, // 16 Unauthenticated
];

export function httpStatusOfCode(code: Code): number {
  return HTTP_STATUS_BY_CODE[code] ?? 500;
}

interface ConnectErrorLike {
  code: Code;
  rawMessage: string;
}

/** A ConnectError, recognised by shape (see above), from this page's Connect or any remote's. */
export function isConnectError(error: unknown): error is ConnectErrorLike {
  if (!(error instanceof Error) || error.name !== "ConnectError") return false;
  const record = error as unknown as Record<string, unknown>;
  return typeof record["code"] === "number" && typeof record["rawMessage"] === "string";
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

interface StatusAndMessage {
  status: number;
  message: unknown;
}

function statusAndMessage(error: unknown): StatusAndMessage | undefined {
  if (isConnectError(error)) return { status: httpStatusOfCode(error.code), message: error.rawMessage };
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
  return isConnectError(error) ? error.code : undefined;
}
