// Mobile push: a small interface, the Firebase Cloud Messaging HTTP v1 client (a service account's OAuth2 JWT
// grant through jose, then POST {api}/v1/projects/{project}/messages:send), and the development implementation
// used by default, which sends nothing and keeps what it would have sent (the notification inbox has it too).
import { createPrivateKey } from "node:crypto";
import { SignJWT } from "jose";
import type { Logger } from "pino";
import { isRecord, ProviderError, requestJson, sendProviderRequest } from "@tt/providers";

export interface PushMessage {
  token: string;
  /** ios, android or web: the platform-specific block FCM gets. */
  platform: string;
  title: string;
  body: string;
  data: Record<string, string>;
  /** Data only, no alert (a "silent" or background push). */
  silent: boolean;
}

export type PushResult = { ok: true } | { ok: false; unregistered: boolean; reason: string };

export interface MobilePushProvider {
  readonly mode: "fcm" | "development";
  send(message: PushMessage): Promise<PushResult>;
}

/** The fields of a Google service-account key file the client uses. */
export interface FcmServiceAccount {
  project_id: string;
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri?: string;
}

export interface FcmOptions {
  account: FcmServiceAccount;
  /** Default https://fcm.googleapis.com; tests point it at a fake. */
  apiBaseUrl: string;
  /** Overrides the account's token_uri (tests). */
  tokenUrl?: string;
  timeoutMs: number;
}

const SCOPE = "https://www.googleapis.com/auth/firebase.messaging";
const PROVIDER = "fcm";

/** Reads a service-account JSON text; a clear error for a deployment that gives something else. */
export function parseServiceAccount(text: string): FcmServiceAccount {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error("FCM_SERVICE_ACCOUNT_JSON is not JSON");
  }
  if (!isRecord(value)) throw new Error("FCM_SERVICE_ACCOUNT_JSON is not a JSON object");
  for (const field of ["project_id", "client_email", "private_key"]) {
    if (typeof value[field] !== "string" || value[field] === "") {
      throw new Error(`FCM_SERVICE_ACCOUNT_JSON has no ${field}`);
    }
  }
  return value as unknown as FcmServiceAccount;
}

export function createFcmProvider(options: FcmOptions): MobilePushProvider {
  const key = createPrivateKey(options.account.private_key);
  const tokenUrl = options.tokenUrl ?? options.account.token_uri ?? "https://oauth2.googleapis.com/token";
  let cached: { token: string; expiresAt: number } | undefined;
  let pending: Promise<string> | undefined;

  async function fetchToken(): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({
        alg: "RS256",
        typ: "JWT",
        ...(options.account.private_key_id ? { kid: options.account.private_key_id } : {}),
      })
      .setIssuer(options.account.client_email)
      .setSubject(options.account.client_email)
      .setAudience(tokenUrl)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(key);
    const body = await requestJson({
      provider: PROVIDER,
      method: "POST",
      url: tokenUrl,
      form: { grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion },
      timeoutMs: options.timeoutMs,
    });
    if (!isRecord(body) || typeof body.access_token !== "string") {
      throw new ProviderError(PROVIDER, "bad-response", "token answer has no access_token");
    }
    const ttl = typeof body.expires_in === "number" ? body.expires_in : 3600;
    cached = { token: body.access_token, expiresAt: Date.now() + Math.max(0, ttl - 60) * 1000 };
    return body.access_token;
  }

  async function accessToken(): Promise<string> {
    if (cached && cached.expiresAt > Date.now()) return cached.token;
    pending ??= fetchToken().finally(() => (pending = undefined));
    return pending;
  }

  function payload(message: PushMessage) {
    const notification = message.silent ? undefined : { title: message.title, body: message.body };
    return {
      message: {
        token: message.token,
        ...(notification ? { notification } : {}),
        ...(Object.keys(message.data).length > 0 ? { data: message.data } : {}),
        android: { priority: message.silent ? "normal" : "high" },
        apns: message.silent
          ? {
              headers: { "apns-push-type": "background", "apns-priority": "5" },
              payload: { aps: { "content-available": 1 } },
            }
          : { headers: { "apns-push-type": "alert", "apns-priority": "10" } },
      },
    };
  }

  async function post(message: PushMessage, token: string) {
    return sendProviderRequest({
      provider: PROVIDER,
      method: "POST",
      url: `${options.apiBaseUrl.replace(/\/$/, "")}/v1/projects/${encodeURIComponent(options.account.project_id)}/messages:send`,
      headers: { authorization: `Bearer ${token}` },
      json: payload(message),
      timeoutMs: options.timeoutMs,
    });
  }

  return {
    mode: "fcm",
    async send(message) {
      let answer = await post(message, await accessToken());
      if (answer.status === 401) {
        // The access token was revoked or expired early: get a new one, once.
        cached = undefined;
        answer = await post(message, await accessToken());
      }
      if (answer.status >= 200 && answer.status < 300) return { ok: true };
      const code = errorCodeOf(answer.body);
      const unregistered = answer.status === 404 || code === "UNREGISTERED";
      return { ok: false, unregistered, reason: code ?? `HTTP ${answer.status}` };
    },
  };
}

/** FCM's error code: error.details[].errorCode (FcmError), else error.status. */
function errorCodeOf(body: unknown): string | undefined {
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  const details = Array.isArray(body.error.details) ? body.error.details : [];
  for (const d of details) if (isRecord(d) && typeof d.errorCode === "string") return d.errorCode;
  return typeof body.error.status === "string" ? body.error.status : undefined;
}

/** What the development provider keeps (the newest `capacity` pushes). */
export interface DevelopmentPushProvider extends MobilePushProvider {
  readonly sent: readonly PushMessage[];
}

export function createDevelopmentPushProvider(logger: Logger, capacity = 1000): DevelopmentPushProvider {
  const sent: PushMessage[] = [];
  return {
    mode: "development",
    sent,
    async send(message) {
      sent.push(message);
      if (sent.length > capacity) sent.splice(0, sent.length - capacity);
      logger.info(
        { platform: message.platform, title: message.title, silent: message.silent },
        "development push provider: a push would be sent",
      );
      return { ok: true };
    },
  };
}
