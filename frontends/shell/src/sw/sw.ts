// The shell's service worker, built to /sw.js (webpack.config.cjs) and registered with scope / by the bell
// (notifications/push-client.ts). It only shows the room service's pushes and opens their page when clicked:
// no fetch handler, no cache, so it never stands between the site and its pages.
import { notificationFor, openFromNotification, type ClientsLike } from "./handlers.ts";

interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushEventLike extends ExtendableEventLike {
  data: { text(): string } | null;
}
interface NotificationEventLike extends ExtendableEventLike {
  notification: { data?: { url?: string }; close(): void };
}
interface WorkerScope {
  location: Location;
  navigator: { language: string };
  registration: { showNotification(title: string, options: object): Promise<void> };
  clients: ClientsLike & { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: string, listener: (event: Event) => void): void;
}

const scope = self as unknown as WorkerScope;

scope.addEventListener("install", () => void scope.skipWaiting());
scope.addEventListener("activate", (event) => (event as ExtendableEventLike).waitUntil(scope.clients.claim()));

scope.addEventListener("push", (event) => {
  const push = event as PushEventLike;
  const shown = notificationFor(push.data?.text(), scope.location.origin, scope.navigator.language);
  push.waitUntil(scope.registration.showNotification(shown.title, shown.options));
});

scope.addEventListener("notificationclick", (event) => {
  const click = event as NotificationEventLike;
  click.notification.close();
  click.waitUntil(openFromNotification(scope.clients, scope.location.origin, click.notification.data?.url));
});
