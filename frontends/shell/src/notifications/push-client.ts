// Web push in this browser (issue 26): the shell's service worker (/sw.js, scope /), the server's VAPID key
// (GetWebPushPublicKey) and the subscription stored with SubscribeWebPush; UnsubscribeWebPush and the browser's
// own unsubscribe on logout. Loaded with the bell's chunk and by the log-out action, never by the first page.
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { NotificationService } from "@tt/proto/tt/room/v1/notification_service_pb";

/** The shell's service worker: served at the site's root, so it may control every page. */
export const SERVICE_WORKER_URL = "/sw.js";

export type PushState = "unsupported" | "blocked" | "off" | "on";

export function pushSupported(): boolean {
  return (
    typeof window !== "undefined" &&
    "serviceWorker" in navigator &&
    "PushManager" in window &&
    "Notification" in window &&
    window.isSecureContext
  );
}

/** The service worker's registration (registered now when it is not yet). */
export async function registerServiceWorker(): Promise<ServiceWorkerRegistration> {
  await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: "/" });
  return navigator.serviceWorker.ready;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration("/");
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Where this browser stands: push impossible, refused in its settings, not asked or not subscribed, subscribed. */
export async function pushState(): Promise<PushState> {
  if (!pushSupported()) return "unsupported";
  if (Notification.permission === "denied") return "blocked";
  if (Notification.permission !== "granted") return "off";
  return (await currentSubscription()) ? "on" : "off";
}

/** base64url (the VAPID public key as the server gives it) to the bytes PushManager.subscribe takes. */
export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(value.length / 4) * 4, "=");
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/**
 * Asks the browser's permission (this must run from the person's click), subscribes with the server's VAPID key
 * and stores the subscription with the room service. The resulting state: "blocked" when the person said no.
 */
export async function turnPushOn(transport: Transport): Promise<PushState> {
  if (!pushSupported()) return "unsupported";
  const permission = await Notification.requestPermission();
  if (permission === "denied") return "blocked";
  if (permission !== "granted") return "off";
  const registration = await registerServiceWorker();
  const client = createClient(NotificationService, transport);
  const { publicKey } = await client.getWebPushPublicKey({});
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: base64UrlToBytes(publicKey),
    }));
  const json = subscription.toJSON();
  await client.subscribeWebPush({
    endpoint: subscription.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "" },
  });
  return "on";
}

/**
 * Forgets this browser's subscription: on the server (while the caller is still signed in) and in the browser, so
 * the next person who signs in here hears nothing meant for the last one. Quiet when there is none.
 */
export async function turnPushOff(transport: Transport): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  try {
    await createClient(NotificationService, transport).unsubscribeWebPush({ endpoint: subscription.endpoint });
  } catch (err) {
    // Already gone on the server (another tab logged out first): the browser's side still goes.
    if (!(err instanceof ConnectError && err.code === Code.NotFound)) throw err;
  } finally {
    await subscription.unsubscribe().catch(() => false);
  }
}
