// A person's notifications in the browser (issue 26), on a platform of its own whose room service pushes to a
// local recording push fake (services/room/src/testing/fake-push.ts; WEB_PUSH_ALLOW_HTTP for its http URL): a fan
// follows a DJ from the DJ's profile, turns this browser's notifications on from the header's bell (the page asks
// the VAPID key, registers the service worker /sw.js with scope / and stores the subscription), the DJ tells their
// fans they are playing (the documented NotifyMyFans), the push fake receives the encrypted push at the
// subscription's endpoint (decrypted here with the subscription's keys, as the browser would), the bell shows it
// unread within its refresh, opening the panel marks it read and its link opens the room; the decrypted push,
// handed to the real service worker through DevTools (ServiceWorker.deliverPushMessage), shows a notification;
// logging out removes the subscription (a later push to the fan reaches no endpoint). The pictures of the header,
// bell and panel at 1280 × 800 and 390 × 844 in English and Spanish go to test-artifacts/web-notifications/.
//
// What headless Chromium cannot do here, and is stood in for: it has no push service to subscribe with
// (PushManager.subscribe needs the browser vendor's), so the page's PushManager.subscribe/getSubscription answer a
// subscription whose endpoint is the push fake and whose keys this test holds; everything around it is the real
// code. A click on the shown notification (notificationclick → focus or clients.openWindow) needs a real click on
// the operating system's notification: its handler is unit-tested (frontends/shell/src/sw/handlers.test.ts).
import { createDecipheriv, createECDH, createHmac, randomBytes, randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakePush, type FakePush } from "@tt/room-service/testing/fake-push";
import { checkAccessibility } from "./support/axe.ts";
import { webAccount, webSetup, type WebAccount, type WebSetup } from "./support/web.ts";
import path from "node:path";
import { mkdirSync } from "node:fs";

const PASSWORD = "correct-horse-1";
const POLL = { timeout: 90_000, interval: 250 };
const PICTURES = path.resolve(import.meta.dirname, "../../test-artifacts/web-notifications");
mkdirSync(PICTURES, { recursive: true });

let push: FakePush;
let web: WebSetup;
const problems: string[] = [];

const account = (prefix: string) => webAccount(web.platform, prefix, PASSWORD);

/** The browser's side of a subscription: its keys, and the decryption a browser does (RFC 8291 aes128gcm). */
function browserKeys() {
  const ecdh = createECDH("prime256v1");
  const publicKey = ecdh.generateKeys();
  const auth = randomBytes(16);
  const hmac = (key: Buffer, data: Buffer) => createHmac("sha256", key).update(data).digest();
  return {
    p256dh: publicKey.toString("base64url"),
    auth: auth.toString("base64url"),
    decrypt(body: Buffer): string {
      const salt = body.subarray(0, 16);
      const idlen = body[20]!;
      const asPublic = body.subarray(21, 21 + idlen);
      const ciphertext = body.subarray(21 + idlen);
      const ikm = hmac(
        hmac(auth, ecdh.computeSecret(asPublic)),
        Buffer.concat([Buffer.from("WebPush: info\0"), publicKey, asPublic, Buffer.from([1])]),
      );
      const prk = hmac(salt, ikm);
      const cek = hmac(prk, Buffer.from("Content-Encoding: aes128gcm\0\x01")).subarray(0, 16);
      const nonce = hmac(prk, Buffer.from("Content-Encoding: nonce\0\x01")).subarray(0, 12);
      const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
      decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
      const plain = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
      return plain.subarray(0, plain.length - 1).toString("utf8");
    },
  };
}

/**
 * Headless Chromium has no push service: PushManager answers a subscription at the push fake with this test's
 * keys; unsubscribe() forgets it (session storage counts the calls).
 */
function standInPushService({ endpoint, keys }: { endpoint: string; keys: { p256dh: string; auth: string } }) {
  const toBytes = (b64: string) =>
    Uint8Array.from(atob(b64.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  // Kept in the tab's session storage: the subscription outlives the page's navigations, as a real one does.
  const flag = (name: string) => sessionStorage.getItem(`stand-in-push:${name}`);
  const set = (name: string, value: string) => sessionStorage.setItem(`stand-in-push:${name}`, value);
  const subscription = {
    endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true },
    getKey: (name: string) => toBytes(name === "auth" ? keys.auth : keys.p256dh).buffer,
    toJSON: () => ({ endpoint, expirationTime: null, keys }),
    unsubscribe: async () => {
      set("subscribed", "");
      set("unsubscribed", String(Number(flag("unsubscribed") ?? 0) + 1));
      return true;
    },
  };
  if (!("PushManager" in window)) return;
  PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
    set("key", String((options?.applicationServerKey as Uint8Array | undefined)?.byteLength ?? 0));
    set("subscribed", "yes");
    return subscription as unknown as PushSubscription;
  };
  PushManager.prototype.getSubscription = async () =>
    (flag("subscribed") ? subscription : null) as unknown as PushSubscription | null;
}

async function signedInPage(who: WebAccount, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await web.browser.newContext({ viewport });
  context.setDefaultTimeout(60_000);
  context.setDefaultNavigationTimeout(60_000);
  const page = await context.newPage();
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  await page.goto(`${web.url}/login?lang=en`);
  await page.getByLabel("E-mail").fill(who.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByTestId("signed-in-user").waitFor();
  return page;
}

let dj: WebAccount;
let fan: WebAccount;
let roomId: string;
let fanPage: Page;
const keys = browserKeys();
const endpointPath = `/push/fan-${randomUUID()}`;
let endpoint: string;

const pushesToFan = () => push.server.requests.filter((r) => r.path === endpointPath);

beforeAll(async () => {
  push = await startFakePush();
  endpoint = `${push.server.url}${endpointPath}`;
  // Push messaging needs the full browser, not the headless shell.
  web = await webSetup({ own: { env: push.env }, browser: "full" });
  [dj, fan] = await Promise.all([account("notify-dj"), account("notify-fan")]);
  const created = await web.api(
    "POST",
    "/api/room-service/rooms/infrastructure",
    { name: `Night Shift ${randomUUID().slice(0, 6)}`, numberOfDjs: 2 },
    dj.token,
  );
  roomId = (created.room as { uuid: string }).uuid;
}, 300_000);

afterAll(async () => {
  await fanPage?.context().close();
  await web?.close();
  await push?.close();
});

describe("a person's notifications in the browser", () => {
  it("follow a DJ, turn notifications on, hear the DJ start: pushed, shown by the worker, unread in the bell, read when opened", async () => {
    // Guests have no bell.
    const guest = await web.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const guestPage = await guest.newPage();
    await guestPage.goto(`${web.url}/?lang=en`);
    await guestPage.getByRole("link", { name: "Log in" }).waitFor();
    expect(await guestPage.getByTestId("notification-bell").count()).toBe(0);
    await guest.close();

    fanPage = await signedInPage(fan);
    const context = fanPage.context();
    await context.grantPermissions(["notifications"], { origin: web.url });
    await context.addInitScript(standInPushService, { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } });

    // The fan follows the DJ from the DJ's profile.
    await fanPage.goto(`${web.url}/users/${dj.uuid}?lang=en`);
    await fanPage.getByRole("button", { name: "Follow this DJ" }).click();
    await fanPage.getByRole("button", { name: "Unfollow" }).waitFor();

    // Nothing yet: the bell's panel says what to do, and offers this browser's notifications.
    await fanPage.goto(`${web.url}/?lang=en`);
    const bell = fanPage.getByTestId("notification-bell");
    await expect.poll(() => bell.getAttribute("aria-label"), POLL).toBe("Notifications");
    await bell.click();
    const panel = fanPage.getByRole("dialog", { name: "Notifications" });
    await panel.getByText("Nothing new yet").waitFor();
    await panel.getByRole("button", { name: "Tell me when a DJ I follow starts playing" }).click();
    await panel.getByTestId("push-on").waitFor();
    // The page subscribed with the server's VAPID key (65 bytes) through the shell's service worker at /.
    expect(await fanPage.evaluate(() => sessionStorage.getItem("stand-in-push:key"))).toBe("65");
    const worker = await fanPage.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration("/");
      return { script: registration?.active?.scriptURL, scope: registration?.scope };
    });
    expect(worker).toEqual({ script: `${web.url}/sw.js`, scope: `${web.url}/` });
    // Focus stayed in the panel (on the button that took the pressed one's place): Escape closes it.
    await fanPage.keyboard.press("Escape");
    await expect.poll(() => bell.getAttribute("aria-expanded"), POLL).toBe("false");

    // The DJ tells their fans they are playing: the push fake receives the push at the fan's endpoint.
    await web.api("POST", "/api/room-service/notifications/dj-fans", { roomId }, dj.token);
    await expect.poll(() => pushesToFan().length, POLL).toBe(1);
    const payload = JSON.parse(keys.decrypt(pushesToFan()[0]!.rawBody)) as Record<string, unknown>;
    expect(payload).toMatchObject({
      kind: "dj-fans",
      url: `/room/r/${roomId}`,
      data: { djId: dj.uuid, djName: dj.name },
    });

    // The same push, handed to the real service worker as the push service would, shows a notification.
    const cdp = await context.newCDPSession(fanPage);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
        const ours = registrations.find((r) => r.scopeURL === `${web.url}/` && !r.isDeleted);
        if (ours) resolve(ours.registrationId);
      });
    });
    await cdp.send("ServiceWorker.enable");
    await cdp.send("ServiceWorker.deliverPushMessage", {
      origin: web.url,
      registrationId: await registrationId,
      data: JSON.stringify(payload),
    });
    await expect
      .poll(
        () =>
          fanPage.evaluate(async () => {
            const registration = await navigator.serviceWorker.getRegistration("/");
            const shown = (await registration?.getNotifications()) ?? [];
            return shown.map((n) => ({ title: n.title, body: n.body, url: (n.data as { url?: string })?.url }));
          }),
        POLL,
      )
      .toEqual([{ title: `${dj.name} is playing`, body: "Come and listen.", url: `/room/r/${roomId}` }]);

    // The bell hears of it within its refresh, unread; opening the panel marks it read.
    await expect.poll(() => bell.getAttribute("aria-label"), POLL).toBe("Notifications, 1 unread");
    await expect(fanPage.getByTestId("notification-count").textContent()).resolves.toBe("1");
    await fanPage.screenshot({
      path: path.join(PICTURES, "en-1280-unread.png"),
      clip: { x: 0, y: 0, width: 1280, height: 120 },
    });
    await bell.click();
    const item = panel.getByRole("link", { name: new RegExp(`${dj.name} is playing`) });
    try {
      await item.waitFor({ timeout: 20_000 });
    } catch (err) {
      await fanPage.screenshot({ path: path.join(PICTURES, "failed-open.png") });
      throw new Error(
        `panel: ${await panel.count()} ${await panel.textContent().catch(() => "")}; bell ${await bell.getAttribute("aria-expanded")}`,
        { cause: err },
      );
    }
    expect(await item.textContent()).toMatch(/Come and listen\..*(now|second|minute)/);
    expect(await panel.getByText("New", { exact: true }).count()).toBe(1);
    await fanPage.screenshot({ path: path.join(PICTURES, "en-1280-panel.png") });
    await expect.poll(() => bell.getAttribute("aria-label"), POLL).toBe("Notifications");
    const inbox = await web.api("GET", "/api/room-service/notifications", undefined, fan.token);
    expect(inbox).toMatchObject({ total: 1 });
    expect(inbox.unread ?? 0).toBe(0);

    // Its link opens the room.
    await item.click();
    await fanPage.waitForURL(`${web.url}/room/r/${roomId}`);
    expect(problems).toEqual([]);
  }, 300_000);

  it("the header, bell and panel at a phone's width and in Spanish", async () => {
    for (const [lang, width, height] of [
      ["es", 1280, 800],
      ["en", 390, 844],
      ["es", 390, 844],
    ] as const) {
      await fanPage.setViewportSize({ width, height });
      await fanPage.goto(`${web.url}/?lang=${lang}`);
      const bell = fanPage.getByTestId("notification-bell");
      await bell.click();
      const panel = fanPage.getByRole("dialog", { name: lang === "es" ? "Notificaciones" : "Notifications" });
      await panel.getByRole("link").first().waitFor();
      if (lang === "es") {
        await panel.getByText(`${dj.name} está pinchando`).waitFor();
        await panel.getByText("Este navegador te avisa cuando un DJ al que sigues empieza a pinchar.").waitFor();
      }
      await fanPage.screenshot({ path: path.join(PICTURES, `${lang}-${width}-panel.png`) });
      // The open panel itself (a click, not a route, so the watcher does not check it by itself).
      const check = await checkAccessibility(fanPage, { route: `/ (notifications panel, ${lang}, ${width})` });
      expect(check.violations).toEqual([]);
      await fanPage.keyboard.press("Escape");
    }
    await fanPage.setViewportSize({ width: 1280, height: 800 });
    await fanPage.goto(`${web.url}/?lang=en`);
    expect(problems).toEqual([]);
  }, 180_000);

  it("logging out removes this browser's subscription: a later push to the fan reaches no endpoint", async () => {
    await fanPage.getByRole("button", { name: /Account menu for/ }).click();
    await fanPage.getByRole("menuitem", { name: "Log out" }).click();
    await fanPage.getByRole("link", { name: "Log in" }).waitFor();
    await expect
      .poll(() => fanPage.evaluate(() => sessionStorage.getItem("stand-in-push:unsubscribed")), POLL)
      .toBe("1");
    const before = pushesToFan().length;
    const admin = await web.platform.adminToken();
    const sent = await web.api(
      "POST",
      "/api/room-service/web-notifications/push-notification",
      { userIds: [fan.uuid], title: "After logout", body: "nobody hears this" },
      admin,
    );
    expect(sent).toMatchObject({ recipients: 1 });
    expect(sent.sent ?? 0).toBe(0);
    expect(pushesToFan().length).toBe(before);
    expect(problems).toEqual([]);
  }, 120_000);
});
