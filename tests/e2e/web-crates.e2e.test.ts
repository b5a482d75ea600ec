// Browser journey through the crates app (issue 13, on the web kit since issue 24): sign in, create a crate, search,
// add two songs, reorder them from a song's menu, by dragging a handle with the mouse and with the keyboard (Space,
// ArrowDown, Space), copy the crate into the queue. The platform in one process with the frontends mounted in the
// gateway, driven by headless Chromium, as tests/e2e/web.e2e.test.ts does. Screenshots go to test-artifacts/web/.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { screenshots, webSetup, type WebSetup } from "./support/web.ts";

const shot = screenshots("web");
const JOURNEY_TIMEOUT = 90_000;
// Two songs put in the catalogue by the playlist service's own calls before the journey, found by this term.
const TERM = `Journey${Date.now().toString(36)}`;
const SONGS = [
  { trackName: `${TERM} Alpha`, artistName: "The Testers", duration: 201, isrc: "QZTST2600001" },
  { trackName: `${TERM} Beta`, artistName: "The Testers", duration: 3_725, isrc: "QZTST2600002" },
];

let web: WebSetup;
let platform: { url: string };
let api: WebSetup["api"];
let context: BrowserContext;
const account = { email: `crates-${Date.now()}@example.test`, password: "correct-horse-1" };

/** The song titles of the list on screen, in order. */
async function titles(page: Page, listName: RegExp): Promise<string[]> {
  return page.getByRole("list", { name: listName }).getByTestId("crate-song").locator("strong").allTextContents();
}

/** The toast that says the server took a move (a reload before it would cancel the call). */
async function moved(page: Page, name: string, position: number): Promise<void> {
  await page.getByText(`${name} moved to position ${position}.`, { exact: true }).last().waitFor();
}

/** The order the server keeps: a reload shows it. */
async function reloadedTitles(page: Page, listName: RegExp): Promise<string[]> {
  await page.reload();
  await page.getByRole("list", { name: listName }).waitFor();
  return titles(page, listName);
}

beforeAll(async () => {
  web = await webSetup();
  ({ platform, api } = web);
  // The account, and the two songs in the catalogue: a song added to a crate by its data becomes a catalogue
  // song (the playlist service owns the catalogue), which search then finds.
  await api("POST", "/api/user-service/users/sign-up", account);
  const login = await api("POST", "/api/user-service/auth/login", account);
  const token = (login.accessToken as { token: string }).token;
  await api("POST", "/api/playlist-service/crate/special/likes/songs", { songs: SONGS }, token);
  context = await web.browser.newContext({ viewport: { width: 1280, height: 900 } });
}, 300_000);

afterAll(async () => {
  await context?.close();
  await web?.close();
});

describe("crates app journey", () => {
  it(
    "signs in, creates a crate, searches, adds two songs, reorders them (its menu, a mouse drag, the keyboard) and copies the crate into the queue",
    async () => {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
      page.on("response", (response) => {
        if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
      });
      await page.goto(`${platform.url}/login?lang=en`);
      await page.getByLabel("E-mail").fill(account.email);
      await page.getByLabel("Password").fill(account.password);
      await page.getByRole("button", { name: "Log in" }).click();
      await page.getByTestId("signed-in-user").waitFor();

      // Create a crate: the app opens it.
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Crates" }).click();
      await page.getByRole("heading", { name: "Your crates" }).waitFor();
      await page.getByRole("list", { name: "Your crates" }).getByRole("link", { name: /Queue/ }).waitFor();
      await page.getByRole("button", { name: "New crate" }).click();
      const dialog = page.getByRole("dialog", { name: "New crate" });
      await dialog.getByLabel("Name", { exact: true }).fill("Road trip");
      await dialog.getByRole("button", { name: "Create crate" }).click();
      await page.getByRole("heading", { name: "Road trip" }).waitFor();
      await page.getByText("No songs in this crate yet").waitFor();
      await shot(page, "crates-01-new-crate");

      // Search (debounced), then add both songs to the crate from each result's crate menu.
      const tabs = page.getByRole("navigation", { name: "Crates" });
      await tabs.getByRole("link", { name: "Search" }).click();
      await page.getByRole("searchbox", { name: "Search songs" }).fill(TERM);
      for (const song of SONGS) {
        await page
          .getByRole("button", { name: `Add ${song.trackName} to a crate` })
          .first()
          .click();
        await page.getByRole("menu").getByRole("menuitem", { name: "Road trip" }).click();
        // The outcome, as a toast.
        await page.getByText(`${song.trackName} added to Road trip.`, { exact: true }).waitFor();
      }
      await shot(page, "crates-02-search");

      // The crate holds both, in the order added, with their durations; move the second one up (its menu).
      await tabs.getByRole("link", { name: "Crates" }).click();
      await page
        .getByRole("list", { name: "Your crates" })
        .getByRole("link", { name: /Road trip/ })
        .click();
      const songsOf = /^Songs of Road trip/;
      const [first, second] = [SONGS[0]!.trackName, SONGS[1]!.trackName];
      await page.getByRole("list", { name: songsOf }).waitFor();
      expect(await titles(page, songsOf)).toEqual([first, second]);
      expect(await page.getByText("3:21").count()).toBe(1);
      expect(await page.getByText("1:02:05").count()).toBe(1);
      await page.getByRole("button", { name: `Actions for ${second}` }).click();
      await page.getByRole("menuitem", { name: "Move up" }).click();
      await expect.poll(() => titles(page, songsOf)).toEqual([second, first]);
      // The server kept the new order: a reload shows it.
      await moved(page, second, 1);
      expect(await reloadedTitles(page, songsOf)).toEqual([second, first]);
      await shot(page, "crates-03-reordered");

      // Back by dragging with the mouse: the top song's handle, pressed, moved down over the second row, released.
      const handle = page.getByRole("button", { name: `Move ${second}` });
      const target = page.getByRole("list", { name: songsOf }).getByTestId("crate-song").nth(1);
      const from = (await handle.boundingBox())!;
      const to = (await target.boundingBox())!;
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 10, { steps: 4 });
      await page.mouse.move(from.x + from.width / 2, to.y + to.height * 0.75, { steps: 12 });
      await page.mouse.up();
      await expect.poll(() => titles(page, songsOf)).toEqual([first, second]);
      await moved(page, second, 2);
      expect(await reloadedTitles(page, songsOf)).toEqual([first, second]);

      // And once more with the keyboard: focus the handle, Space picks it up, ArrowDown moves it, Space drops it;
      // each step is announced.
      await page.getByRole("button", { name: `Move ${first}` }).focus();
      await page.keyboard.press("Space");
      // (The announcements go to a live region kept out of sight.)
      await page.getByText(`Picked up ${first}, at position 1 of 2.`).waitFor({ state: "attached" });
      await page.keyboard.press("ArrowDown");
      await page.getByText(`${first} is now at position 2 of 2.`).waitFor({ state: "attached" });
      await page.keyboard.press("Space");
      await expect.poll(() => titles(page, songsOf)).toEqual([second, first]);
      // The keyboard stays on the moved song's handle.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
        .toBe(`Move ${first}`);
      await moved(page, first, 2);
      expect(await reloadedTitles(page, songsOf)).toEqual([second, first]);

      // Copy into the queue: the queue holds the crate's songs in the crate's order.
      await page.getByRole("button", { name: "Copy into the queue" }).click();
      await page.getByText("The queue now holds this crate's songs.", { exact: true }).waitFor();
      await tabs.getByRole("link", { name: "Queue" }).click();
      await page.getByRole("heading", { name: "Queue", level: 1 }).waitFor();
      await expect.poll(() => titles(page, /^Songs of Queue/)).toEqual([second, first]);
      await shot(page, "crates-04-queue");
      // The shell's own link back to the crates list works from inside the app (the two routers share history).
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Crates" }).click();
      await page.getByRole("heading", { name: "Your crates" }).waitFor();
      await page.goBack();
      await page.getByRole("heading", { name: "Queue", level: 1 }).waitFor();
      expect(problems).toEqual([]);
      await page.close();
    },
    JOURNEY_TIMEOUT,
  );
});
