// Web push (RFC 8030) with VAPID (RFC 8292) and the aes128gcm payload encryption of RFC 8291 through the `web-push`
// library: it signs the VAPID JWT and encrypts the payload (generateRequestDetails); the POST itself goes through
// fetch so a push has a timeout, never follows a redirect and may reach a plain-http endpoint in tests.
import webpush from "web-push";
import { ProviderError } from "@tt/providers";

export interface VapidKeys {
  /** The uncompressed P-256 public key, base64url (what browsers take as applicationServerKey). */
  publicKey: string;
  /** The private scalar d, base64url. */
  privateKey: string;
  /** A mailto: or https: contact for the push services. */
  subject: string;
}

export interface WebPushSubscriptionKeys {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export type WebPushResult = { ok: true } | { ok: false; gone: boolean; reason: string };

export interface WebPushSender {
  send(subscription: WebPushSubscriptionKeys, payload: string): Promise<WebPushResult>;
}

/** A new VAPID key pair. */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  return webpush.generateVAPIDKeys();
}

export interface WebPushOptions {
  vapid: VapidKeys;
  timeoutMs: number;
  /** Seconds the push service keeps an undelivered message. */
  ttlSeconds: number;
  /** Plain-http endpoints are refused unless allowed (tests and local push services). */
  allowHttp: boolean;
}

export function createWebPushSender(options: WebPushOptions): WebPushSender {
  // Refuses keys of the wrong shape at start, not at the first push.
  webpush.setVapidDetails(options.vapid.subject, options.vapid.publicKey, options.vapid.privateKey);
  return {
    async send(subscription, payload) {
      const url = new URL(subscription.endpoint);
      if (url.protocol !== "https:" && !(options.allowHttp && url.protocol === "http:")) {
        return { ok: false, gone: true, reason: "endpoint is not https" };
      }
      let request: ReturnType<typeof webpush.generateRequestDetails>;
      try {
        request = webpush.generateRequestDetails(
          { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
          payload,
          { vapidDetails: options.vapid, TTL: options.ttlSeconds, contentEncoding: "aes128gcm", urgency: "normal" },
        );
      } catch (error) {
        return { ok: false, gone: true, reason: error instanceof Error ? error.message : "bad keys" };
      }
      let response: Response;
      try {
        response = await fetch(url, {
          method: request.method,
          headers: request.headers as Record<string, string>,
          body: request.body ? new Uint8Array(request.body) : null,
          signal: AbortSignal.timeout(options.timeoutMs),
          redirect: "error",
        });
        await response.arrayBuffer();
      } catch (error) {
        throw new ProviderError("web-push", "unavailable", "push service could not be reached", undefined, {
          cause: error,
        });
      }
      if (response.ok) return { ok: true };
      // 404 and 410: the subscription expired or was removed; anything else is a failure of this push only.
      return { ok: false, gone: response.status === 404 || response.status === 410, reason: `HTTP ${response.status}` };
    },
  };
}
