// Browser journeys of the admin console (issue 16, on the web kit since issue 24): the platform in one process with
// the frontends mounted in the gateway, driven by headless Chromium (setup as in web.e2e.test.ts). Screenshots go to
// test-artifacts/web-admin/.
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

/** Chooses `option` in the kit picker labelled `label` inside `scope`. */
async function pick(page: Page, scope: ReturnType<Page["locator"]>, label: string, option: string) {
  await scope.getByLabel(label, { exact: true }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

/** Whether the element is wholly inside the viewport (reachable without scrolling the page). */
async function inViewport(page: Page, locator: ReturnType<Page["locator"]>): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  return Boolean(
    box &&
    viewport &&
    box.y >= 0 &&
    box.x >= 0 &&
    box.y + box.height <= viewport.height &&
    box.x + box.width <= viewport.width,
  );
}

/** Whether the element shows inside the scrolling box (not hidden above or below its scrolled part). */
async function shownIn(box: ReturnType<Page["locator"]>, locator: ReturnType<Page["locator"]>): Promise<boolean> {
  const outer = await box.boundingBox();
  const inner = await locator.boundingBox();
  return Boolean(outer && inner && inner.y >= outer.y && inner.y + inner.height <= outer.y + outer.height);
}

/** A tab signed in as the bootstrap admin, on the admin console's given section. */
async function adminPage(section: string, on: BrowserContext = context): Promise<Page> {
  const page = await on.newPage();
  await page.goto(`${platform.url}/?lang=en`);
  const header = page.getByRole("banner");
  // The context's session (a tab opened earlier signed in) or the log-in link: whichever the header settles on.
  // The signed-in chip is a lazy chunk, so a look at one instant can see neither yet.
  const signedIn = header.getByTestId("signed-in-user");
  await signedIn
    .or(header.getByRole("link", { name: "Log in" }))
    .first()
    .waitFor();
  if (!(await signedIn.isVisible())) {
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
      // One menu of actions per row, named after its user.
      await page.getByRole("button", { name: `Actions for ${listener.email}` }).click();
      await page.getByRole("menuitem", { name: "Ban", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: `Ban: ${listener.email}` });
      await dialog.getByLabel("Reason").fill("spamming the chat");
      await dialog.getByRole("button", { name: "Ban", exact: true }).click();
      // Done: the dialog closes and a toast says so; the row shows the ban.
      await dialog.waitFor({ state: "detached" });
      await page.getByText("Done: Ban", { exact: true }).waitFor();
      await page.getByRole("row").filter({ hasText: listener.email }).getByText("Banned", { exact: true }).waitFor();
      await shot(page, "01-user-banned");
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
      // The user filter takes the uuid; the rows name the user, and the action is in words ("Banned", not globalBan).
      const row = page.getByRole("row").filter({ hasText: "spamming the chat" }).filter({ hasText: "Banned" });
      const deadline = Date.now() + 30_000;
      for (;;) {
        await pick(page, filters(page), "Action", "Banned");
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
      // Sorting is the server's: the header's button asks for it, and says how the column is sorted.
      await page.getByRole("button", { name: "Name", exact: true }).click();
      await page.locator('th[aria-sort="ascending"]').waitFor();
      const names = async () => page.getByRole("row").locator("td:first-child").allTextContents();
      await expect.poll(names).toEqual([`Jazz Cellar ${stamp}`, `Techno Bunker ${stamp}`]);
      await page.getByRole("button", { name: "Name", exact: true }).click();
      await page.locator('th[aria-sort="descending"]').waitFor();
      await expect.poll(names).toEqual([`Techno Bunker ${stamp}`, `Jazz Cellar ${stamp}`]);
      await page.close();
    },
    JOURNEY_TIMEOUT,
  );

  // The console's tallest dialog: it is taller than both screens, so its body scrolls while its buttons stay in view.
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    it(
      `an admin creates a product from its dialog at ${viewport.width}×${viewport.height}, scrolling inside the dialog to its last field and its confirm button`,
      async () => {
        const small = await web.browser.newContext({ viewport });
        try {
          const page = await adminPage("payments", small);
          const name = `Pack ${viewport.width} ${stamp}`;
          await page
            .getByRole("table", { name: /Products/ })
            .or(page.getByRole("heading", { name: "No products yet" }))
            .first()
            .waitFor();
          await page.getByRole("button", { name: "Create a product" }).first().click();
          const dialog = page.getByRole("dialog", { name: "Create a product" });
          await dialog.waitFor();
          // The dialog fits the screen; its body is what scrolls.
          expect(await inViewport(page, dialog)).toBe(true);
          const body = dialog.locator(".tt-dialog__body");
          const { scrollHeight, clientHeight } = await body.evaluate((el) => ({
            scrollHeight: el.scrollHeight,
            clientHeight: el.clientHeight,
          }));
          expect(scrollHeight).toBeGreaterThan(clientHeight);
          const last = dialog.getByLabel("Stripe price id");
          expect(await shownIn(body, last)).toBe(false);
          await dialog.getByLabel("Name", { exact: true }).fill(name);
          await dialog.getByLabel("Price", { exact: true }).fill("4.99");
          await shot(page, `04-create-product-${viewport.width}-top`);
          // Scroll the dialog's body (the wheel over it), not the page, down to the last field.
          const area = await body.boundingBox();
          await page.mouse.move(area!.x + area!.width / 2, area!.y + area!.height / 2);
          for (let i = 0; i < 20 && !(await shownIn(body, last)); i++) await page.mouse.wheel(0, 200);
          expect(await shownIn(body, last)).toBe(true);
          expect(await inViewport(page, last)).toBe(true);
          expect(await body.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
          await last.fill(`price_${stamp}`);
          const confirm = dialog.getByRole("button", { name: "Create product" });
          expect(await inViewport(page, confirm)).toBe(true);
          await shot(page, `05-create-product-${viewport.width}-bottom`);
          await confirm.click();
          await dialog.waitFor({ state: "detached" });
          await page.getByText("Done: Create a product", { exact: true }).waitFor();
          await page.getByRole("cell", { name, exact: true }).waitFor();
          await page.close();
        } finally {
          await small.close();
        }
      },
      JOURNEY_TIMEOUT,
    );
  }
});
