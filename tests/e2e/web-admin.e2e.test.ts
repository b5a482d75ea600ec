// Browser journeys of the admin console (issue 16): the platform in one process with the frontends mounted in
// the gateway, driven by headless Chromium (setup as in web.e2e.test.ts). Screenshots go to test-artifacts/web-admin/.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, type TestPlatform } from "./support/platform.ts";
import { screenshots, webSetup, type WebSetup } from "./support/web.ts";

// A platform of its own, not the journeys' shared one: the rooms list is asserted whole ("2 Rooms").
const shot = screenshots("web-admin");
const JOURNEY_TIMEOUT = 90_000;
const stamp = Date.now();
const listener = { email: `troublemaker-${stamp}@example.test`, password: "correct-horse-1" };

let web: WebSetup;
let platform: TestPlatform;
let context: BrowserContext;
let listenerUuid: string;

const api: WebSetup["api"] = (...args) => web.api(...args);

/** The filter form of the list on screen. */
function filters(page: Page) {
  return page.getByRole("form", { name: "Filters" });
}

/** A tab signed in as the bootstrap admin, on the admin console's given section. */
async function adminPage(section: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${platform.url}/?lang=en`);
  const header = page.getByRole("banner");
  if (!(await header.getByTestId("signed-in-user").isVisible())) {
    await header.getByRole("link", { name: "Log in" }).click();
    await page.getByLabel("E-mail").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByTestId("signed-in-user").waitFor();
  }
  await page.goto(`${platform.url}/admin?lang=en#${section}`);
  return page;
}

beforeAll(async () => {
  web = await webSetup({ own: true });
  platform = web.platform;
  // The listener the admin bans, who owns two rooms the admin then finds by a filter.
  await api("POST", "/api/user-service/users/sign-up", listener);
  const login = await api("POST", "/api/user-service/auth/login", listener);
  const token = (login.accessToken as { token: string }).token;
  listenerUuid = (login.user as { uuid: string }).uuid;
  await api("POST", "/api/room-service/rooms/infrastructure", { name: `Jazz Cellar ${stamp}` }, token);
  await api("POST", "/api/room-service/rooms/infrastructure", { name: `Techno Bunker ${stamp}` }, token);
  context = await web.browser.newContext({ viewport: { width: 1400, height: 900 } });
}, 300_000);

afterAll(async () => {
  await context?.close();
  await web?.close();
});

describe("admin console journeys", () => {
  it(
    "an admin bans a user from the console and sees the ban in the moderation log",
    async () => {
      const page = await adminPage("users");
      await filters(page).getByLabel("E-mail").fill(listener.email);
      await page.getByRole("button", { name: "Apply" }).click();
      await page.getByRole("table", { name: "1 Users" }).waitFor();
      await page
        .getByRole("row")
        .filter({ hasText: listener.email })
        .getByRole("button", { name: "Ban", exact: true })
        .click();
      const dialog = page.getByRole("dialog", { name: "Please confirm" });
      await dialog.getByLabel("Reason").fill("spamming the chat");
      await dialog.getByRole("button", { name: "Confirm" }).click();
      expect(await dialog.getByRole("status").textContent()).toBe("Done: Ban.");
      await shot(page, "01-user-banned");
      await dialog.getByRole("button", { name: "Dismiss" }).click();
      // The user service refuses the banned account's sign-in from now on.
      const refused = await fetch(`${platform.url}/api/user-service/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(listener),
      });
      expect(refused.status).toBeGreaterThanOrEqual(400);

      // The moderation log records it (a platform-wide ban is "globalBan") from the user service's event; it lands asynchronously, so the page is
      // reloaded (the section stays in the address) until it shows, with a deadline.
      await page
        .getByRole("navigation", { name: "Admin sections" })
        .getByRole("link", { name: "Moderation log" })
        .click();
      const row = page.getByRole("row").filter({ hasText: listenerUuid }).filter({ hasText: "globalBan" });
      const deadline = Date.now() + 30_000;
      for (;;) {
        await filters(page).getByLabel("Action").selectOption("globalBan");
        await filters(page).getByLabel("User", { exact: true }).fill(listenerUuid);
        await page.getByRole("button", { name: "Apply" }).click();
        await page.getByRole("table", { name: /Moderation log/ }).waitFor();
        if ((await row.count()) === 1) break;
        if (Date.now() > deadline) throw new Error("the ban never reached the moderation log");
        await page.reload();
      }
      expect(await row.textContent()).toContain("spamming the chat");
      await shot(page, "02-moderation-log");
      await page.close();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "an admin lists rooms with a filter",
    async () => {
      const page = await adminPage("rooms");
      await page.getByRole("table", { name: /Rooms/ }).waitFor();
      await filters(page).getByLabel("Name").fill("jazz cellar");
      await page.getByRole("button", { name: "Apply" }).click();
      const table = page.getByRole("table", { name: "1 Rooms" });
      await table.waitFor();
      expect(await table.getByRole("cell", { name: `Jazz Cellar ${stamp}`, exact: true }).count()).toBe(1);
      expect(await table.getByRole("cell", { name: `Techno Bunker ${stamp}`, exact: true }).count()).toBe(0);
      await shot(page, "03-rooms-filtered");
      // Sorting by name, both rooms again: Jazz before Techno, then the other way round.
      await page.getByRole("button", { name: "Clear" }).click();
      await page.getByRole("table", { name: "2 Rooms" }).waitFor();
      await page.getByRole("button", { name: "Sort by Name" }).click();
      await page.locator('th[aria-sort="ascending"]').waitFor();
      const names = async () => page.getByRole("row").locator("td:first-child").allTextContents();
      await expect.poll(names).toEqual([`Jazz Cellar ${stamp}`, `Techno Bunker ${stamp}`]);
      await page.getByRole("button", { name: "Sort by Name" }).click();
      await expect.poll(names).toEqual([`Techno Bunker ${stamp}`, `Jazz Cellar ${stamp}`]);
      await page.close();
    },
    JOURNEY_TIMEOUT,
  );
});
