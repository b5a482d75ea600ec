// Issue 26: a newcomer's first minute on a fresh install with `npm start`'s defaults (the demo songs, the stocked
// shop, the demo voucher, the resident DJ in the Lobby), in the browser: the home page lists the Lobby with a song
// playing and one click as a guest plays it in sync; every tab of the shop has something in it; the demo voucher
// makes a new account an uploader; no page logs a console error.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { screenshots, webSetup, type WebSetup } from "./support/web.ts";

const shot = screenshots("web-first-minute");
const JOURNEY_TIMEOUT = 240_000;
const PASSWORD = "first-minute-1";

let web: WebSetup;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "tt-first-minute-"));
  web = await webSetup({
    own: {
      env: {
        UPLOAD_DEMO_SONGS: "true",
        MERCH_DEMO_STOCK: "true",
        PAYMENT_DEMO_PRODUCTS: "true",
        USER_DEMO_VOUCHER: "true",
        RESIDENT_DJ: "true",
        DATA_DIR: dataDir,
        MEDIA_DIR: path.join(dataDir, "media"),
      },
    },
  });
}, 300_000);

afterAll(async () => {
  await web?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A fresh browser profile's page, with every console error and page error it logs. */
async function freshPage(): Promise<{ page: Page; errors: string[] }> {
  const context = await web.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${message.text()} ${message.location().url}`);
  });
  page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
  return { page, errors };
}

describe("the first minute on a fresh install", () => {
  it(
    "a guest opens the home page, clicks once and hears the Lobby's song",
    async () => {
      const { page, errors } = await freshPage();
      await page.goto(`${web.url}/?lang=en`);
      // The resident DJ makes the Lobby and plays as soon as the demo songs are packaged: the page refreshes itself.
      const live = page.getByRole("list", { name: "Live now" });
      const lobby = live.getByRole("listitem").filter({ has: page.getByRole("link", { name: "Lobby", exact: true }) });
      await lobby.getByText(/^Playing /).waitFor({ timeout: 150_000 });
      await lobby.getByText("On the decks: Resident").waitFor();
      await shot(page, "01-home");

      // The one click: nothing else (the room's "Listen in sync" is not pressed).
      await page.getByRole("link", { name: "Join Lobby" }).click();
      await page.waitForURL(/\/room\/r\/lobby/);
      await page.waitForFunction(
        () => {
          const media = document.querySelector<HTMLAudioElement>("[data-testid=tt-player-media]");
          return media !== null && !media.paused && media.currentTime > 0.5;
        },
        undefined,
        { timeout: 60_000 },
      );
      await shot(page, "02-lobby");
      expect(errors).toEqual([]);
      await page.context().close();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "a new account finds every shop tab stocked, and the demo voucher makes it an uploader",
    async () => {
      const email = `first-minute-${Date.now().toString(36)}@example.test`;
      await web.api("POST", "/api/user-service/users/sign-up", { email, password: PASSWORD });
      const { page, errors } = await freshPage();
      await page.goto(`${web.url}/login?lang=en`);
      await page.getByLabel("E-mail").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Log in" }).click();
      await page.getByTestId("signed-in-user").waitFor();

      await page.goto(`${web.url}/shop?lang=en`);
      const items = (list: string) => page.getByRole("list", { name: list }).getByRole("listitem");
      await items("Consumables").first().waitFor();
      await items("Token bundles").first().waitFor();
      await page.getByRole("tab", { name: "Tokens and plans" }).click();
      await items("Buy tokens").first().waitFor();
      await items("Subscription plans").first().waitFor();
      await page.getByRole("tab", { name: "Avatars" }).click();
      await items("Avatars on sale").first().waitFor();
      await page.getByRole("tab", { name: "Ranking" }).click();
      await page.getByRole("heading", { name: "Season Demo season" }).waitFor();
      await shot(page, "03-shop-ranking");

      await page.goto(`${web.url}/vouchers?lang=en`);
      await page.getByLabel("Voucher code").fill("DEMO-UPLOAD");
      await page.getByRole("button", { name: "Redeem" }).click();
      await page.getByRole("heading", { name: "Voucher DEMO-UPLOAD redeemed" }).waitFor();
      await page.getByRole("link", { name: "Upload a song" }).click();
      await page.getByText("New upload").waitFor();
      expect(await page.getByText("You can't upload music yet").count()).toBe(0);
      await shot(page, "04-uploads");
      expect(errors).toEqual([]);
      await page.context().close();
    },
    JOURNEY_TIMEOUT,
  );
});
