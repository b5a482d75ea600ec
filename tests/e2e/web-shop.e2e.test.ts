// Browser journey through the shop app (issue 15): an admin grants tokens, the user buys a consumable in the
// shop and sees the new balance. The platform in one process with the frontends mounted in the gateway, driven
// by headless Chromium, as tests/e2e/web.e2e.test.ts does. Screenshots go to test-artifacts/web/.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN } from "./support/platform.ts";
import { screenshots, webSetup, type WebSetup } from "./support/web.ts";

const shot = screenshots("web");
const JOURNEY_TIMEOUT = 90_000;

let web: WebSetup;
let platform: { url: string };
let api: WebSetup["api"];
let context: BrowserContext;
const account = { email: `shop-${Date.now()}@example.test`, password: "correct-horse-1" };

/** Waits until the shop shows this balance. */
async function balance(page: Page, text: string): Promise<void> {
  await page
    .getByTestId("token-balance")
    .filter({ hasText: new RegExp(`^${text}$`) })
    .waitFor({ timeout: 30_000 });
}

beforeAll(async () => {
  web = await webSetup();
  ({ platform, api } = web);
  // The user opens a token account; the admin puts a consumable on sale and grants the user 50 tokens.
  await api("POST", "/api/user-service/users/sign-up", account);
  const login = await api("POST", "/api/user-service/auth/login", account);
  const token = (login.accessToken as { token: string }).token;
  const tokenAccount = await api("POST", "/api/merch-service/api/v1/token-accounts", {}, token);
  const adminLogin = await api("POST", "/api/user-service/auth/login", ADMIN);
  const admin = (adminLogin.accessToken as { token: string }).token;
  await api("POST", "/api/merch-service/api/v1/consumables", { name: "Confetti", tokenCost: 15 }, admin);
  await api(
    "POST",
    `/api/merch-service/api/v1/token-accounts/${tokenAccount.id as string}/grant`,
    { tokens: 50, reason: "welcome gift" },
    admin,
  );
  context = await web.browser.newContext({ viewport: { width: 1280, height: 900 } });
}, 300_000);

afterAll(async () => {
  await context?.close();
  await web?.close();
});

describe("shop app journey", () => {
  it(
    "shows the granted tokens, buys a consumable and shows the new balance",
    async () => {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
      await page.goto(`${platform.url}/login?lang=en`);
      await page.getByLabel("E-mail").fill(account.email);
      await page.getByLabel("Password").fill(account.password);
      await page.getByRole("button", { name: "Log in" }).click();
      await page.getByTestId("signed-in-user").waitFor();

      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Shop" }).click();
      await page.getByRole("heading", { level: 1, name: "Shop" }).waitFor();
      await balance(page, "50 tokens");
      await shot(page, "shop-01-granted");

      // Buying asks first, saying what remains; the outcome is a toast.
      await page.getByRole("button", { name: "Confetti: Buy for 15" }).click();
      const dialog = page.getByRole("alertdialog", { name: "Buy Confetti?" });
      await dialog.getByText("It costs 15 tokens; 35 tokens remain after it.").waitFor();
      await shot(page, "shop-02-confirm");
      await dialog.getByRole("button", { name: "Buy for 15 tokens" }).click();
      // Exact: Radix also reads the toast out through a hidden live region ("Notifications Bought Confetti.").
      await page.getByText("Bought Confetti.", { exact: true }).waitFor();
      await balance(page, "35 tokens");
      await shot(page, "shop-03-bought");
      // The server kept it: a reload shows the same balance.
      await page.reload();
      await balance(page, "35 tokens");

      // The ranking without a season: a designed empty state, and no 404 in the console.
      const logged: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") logged.push(message.text());
      });
      await page.getByRole("tab", { name: "Ranking" }).click();
      await page
        .getByRole("heading", { name: "No season is running" })
        .or(page.getByRole("heading", { name: /^Season / }))
        .first()
        .waitFor();
      await shot(page, "shop-04-ranking");
      expect(logged).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    },
    JOURNEY_TIMEOUT,
  );
});
