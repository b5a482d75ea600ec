// Browser journey through the crates app (issue 13): sign in, create a crate, search, add two songs, reorder
// them, copy the crate into the queue. The platform in one process with the frontends mounted in the gateway,
// driven by headless Chromium, as tests/e2e/web.e2e.test.ts does. Screenshots go to test-artifacts/web/.
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
    "signs in, creates a crate, searches, adds two songs, reorders them and copies the crate into the queue",
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
      await page.getByLabel("Name", { exact: true }).fill("Road trip");
      await page.getByRole("button", { name: "Create crate" }).click();
      await page.getByRole("heading", { name: "Road trip" }).waitFor();
      await page.getByText("No songs in this crate yet.").waitFor();
      await shot(page, "crates-01-new-crate");

      // Search (debounced), then add both songs to the crate.
      const tabs = page.getByRole("navigation", { name: "Crates" });
      await tabs.getByRole("link", { name: "Search" }).click();
      await page.getByRole("searchbox", { name: "Search songs" }).fill(TERM);
      for (const song of SONGS) {
        const label = `Add ${song.trackName} to a crate`;
        await page.getByRole("combobox", { name: label }).first().selectOption({ label: "Road trip" });
        await page
          .getByTestId("search-result")
          .filter({ has: page.getByRole("combobox", { name: label }) })
          .first()
          .getByRole("button", { name: "Add to crate" })
          .click();
        await page.getByText(`${song.trackName} added to Road trip.`).waitFor();
      }
      await shot(page, "crates-02-search");

      // The crate holds both, in the order added, with their durations; move the second one up (its button).
      await tabs.getByRole("link", { name: "Crates" }).click();
      await page
        .getByRole("list", { name: "Your crates" })
        .getByRole("link", { name: /Road trip/ })
        .click();
      const songsOf = /^Songs of Road trip/;
      await page.getByRole("list", { name: songsOf }).waitFor();
      expect(await titles(page, songsOf)).toEqual([SONGS[0]!.trackName, SONGS[1]!.trackName]);
      expect(await page.getByText("3:21").count()).toBe(1);
      expect(await page.getByText("1:02:05").count()).toBe(1);
      await page.getByRole("button", { name: `Move ${SONGS[1]!.trackName} up` }).click();
      await expect.poll(() => titles(page, songsOf)).toEqual([SONGS[1]!.trackName, SONGS[0]!.trackName]);
      // The server kept the new order: a reload shows it.
      await page.reload();
      await page.getByRole("list", { name: songsOf }).waitFor();
      expect(await titles(page, songsOf)).toEqual([SONGS[1]!.trackName, SONGS[0]!.trackName]);
      await shot(page, "crates-03-reordered");
      // And back by dragging (HTML5 drag and drop): the first song dropped onto the second's row.
      const rows = page.getByRole("list", { name: songsOf }).getByTestId("crate-song");
      // By the mouse, step by step (the browser starts an HTML5 drag only after the pointer moved while down).
      await rows.nth(0).hover();
      await page.mouse.down();
      await rows.nth(1).hover({ position: { x: 40, y: 10 } });
      await rows.nth(1).hover({ position: { x: 60, y: 20 } });
      await page.mouse.up();
      await expect.poll(() => titles(page, songsOf)).toEqual([SONGS[0]!.trackName, SONGS[1]!.trackName]);
      await page.reload();
      await page.getByRole("list", { name: songsOf }).waitFor();
      expect(await titles(page, songsOf)).toEqual([SONGS[0]!.trackName, SONGS[1]!.trackName]);

      // Copy into the queue: the queue holds the crate's songs in the crate's order.
      await page.getByRole("button", { name: "Copy into the queue" }).click();
      await page.getByText("The queue now holds this crate's songs.").waitFor();
      await tabs.getByRole("link", { name: "Queue" }).click();
      await page.getByRole("heading", { name: "Queue" }).waitFor();
      await expect.poll(() => titles(page, /^Songs of Queue/)).toEqual([SONGS[0]!.trackName, SONGS[1]!.trackName]);
      await shot(page, "crates-04-queue");
      // The shell's own link back to the crates list works from inside the app (the two routers share history).
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Crates" }).click();
      await page.getByRole("heading", { name: "Your crates" }).waitFor();
      await page.goBack();
      await page.getByRole("heading", { name: "Queue" }).waitFor();
      expect(problems).toEqual([]);
      await page.close();
    },
    JOURNEY_TIMEOUT,
  );
});
