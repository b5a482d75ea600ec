// The one place that talks HTTP to outside providers: timeout, body encoding, and turning every failure into
// a ProviderError with a short reason. Uses Node's global fetch; tests point base URLs at local fakes
// (`startFakeServer` in @tt/kit/testing). The provider clients of the user, playlist, room and payment services
// share it; `withTokenRefresh` is spec 002 §8's refresh-once rule.
import { ProviderError } from "./provider-errors.ts";

type ProviderName = string;

export const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;

export interface ProviderRequest {
  provider: ProviderName;
  method: "GET" | "POST" | "PUT" | "DELETE" | "PATCH";
  url: string | URL;
  headers?: Record<string, string>;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string | undefined>;
  /** Sent as application/json. */
  json?: unknown;
  timeoutMs: number;
}

export interface ProviderResponse {
  status: number;
  body: unknown;
}

const MAX_REASON_LENGTH = 120;

export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
}

/** Sends a request and returns the parsed JSON body of a 2xx answer; anything else throws ProviderError. */
export async function requestJson(request: ProviderRequest): Promise<unknown> {
  const response = await send(request);
  if (response.status >= 200 && response.status < 300) return response.body;
  throw errorFromResponse(request.provider, response);
}

/** Like requestJson but returns non-2xx answers too, for callers that read meaning into a status (404). */
export async function send(request: ProviderRequest): Promise<ProviderResponse> {
  const headers: Record<string, string> = { accept: "application/json", ...request.headers };
  let body: string | undefined;
  if (request.form !== undefined) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(request.form)) if (value !== undefined) params.set(key, value);
    body = params.toString();
    headers["content-type"] = "application/x-www-form-urlencoded";
  } else if (request.json !== undefined) {
    body = JSON.stringify(request.json);
    headers["content-type"] = "application/json";
  }

  let response: Response;
  let text: string;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers,
      body,
      signal: AbortSignal.timeout(request.timeoutMs),
      // A redirect would resend our credentials to a host nobody configured.
      redirect: "error",
    });
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    throw new ProviderError(
      request.provider,
      timedOut ? "timeout" : "unavailable",
      timedOut ? `no answer within ${request.timeoutMs} ms` : "could not be reached",
      undefined,
      { cause: error },
    );
  }

  let parsed: unknown = undefined;
  if (text.length > 0) {
    try {
      parsed = JSON.parse(text);
    } catch {
      // A 2xx that is not JSON is a bad response; for an error status the text itself may be the reason.
      if (response.ok) {
        throw new ProviderError(request.provider, "bad-response", "answer is not JSON", response.status);
      }
      parsed = text;
    }
  }
  return { status: response.status, body: parsed };
}

export function errorFromResponse(provider: ProviderName, response: ProviderResponse): ProviderError {
  const kind = response.status >= 500 ? "unavailable" : "rejected";
  return new ProviderError(provider, kind, reasonFrom(response.body) ?? `HTTP ${response.status}`, response.status);
}

// Providers put their error code in different places: OAuth2 `error`, Twilio and Discord `message`,
// CometChat `error.code`. The code is short and safe to log; descriptions may be long, so are cut.
function reasonFrom(body: unknown): string | undefined {
  let reason: unknown;
  if (typeof body === "string") reason = body;
  else if (isRecord(body)) {
    if (typeof body.error === "string") reason = body.error;
    else if (isRecord(body.error)) reason = body.error.code ?? body.error.message;
    else reason = body.message ?? body.code;
  }
  if (typeof reason === "number") reason = String(reason);
  if (typeof reason !== "string" || reason.trim() === "") return undefined;
  const oneLine = reason.replace(/\s+/g, " ").trim();
  return oneLine.length > MAX_REASON_LENGTH ? `${oneLine.slice(0, MAX_REASON_LENGTH)}…` : oneLine;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads a required string field of a provider answer; a missing one is a bad response. */
export function requireString(provider: ProviderName, body: unknown, field: string): string {
  const value = isRecord(body) ? body[field] : undefined;
  if (typeof value !== "string" || value === "") {
    throw new ProviderError(provider, "bad-response", `answer has no ${field}`);
  }
  return value;
}

export function optionalString(body: unknown, field: string): string | undefined {
  const value = isRecord(body) ? body[field] : undefined;
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** True for an answer that says the token we sent is no longer accepted. */
export function isUnauthorized(error: unknown, statuses: readonly number[] = [401]): error is ProviderError {
  return error instanceof ProviderError && error.kind === "rejected" && statuses.includes(error.status ?? 0);
}

export interface TokenRefreshOptions<T> {
  accessToken: string;
  /** Called at most once, after the first refusal; returns the new access token. */
  refresh: () => Promise<string>;
  call: (accessToken: string) => Promise<T>;
  /** Statuses that mean "token refused"; 401 unless the provider says otherwise (403 for SoundCloud). */
  statuses?: readonly number[];
}

export interface TokenRefreshResult<T> {
  result: T;
  /** The token that worked; differs from the one passed in when a refresh happened (store it). */
  accessToken: string;
  refreshed: boolean;
}

/**
 * Spec 002 §8: when a provider refuses a token (401; 403 for SoundCloud), refresh it and retry once.
 * A second refusal is thrown: looping would hammer the provider with a revoked grant.
 */
export async function withTokenRefresh<T>(options: TokenRefreshOptions<T>): Promise<TokenRefreshResult<T>> {
  try {
    return { result: await options.call(options.accessToken), accessToken: options.accessToken, refreshed: false };
  } catch (error) {
    if (!isUnauthorized(error, options.statuses)) throw error;
  }
  const accessToken = await options.refresh();
  return { result: await options.call(accessToken), accessToken, refreshed: true };
}
