// Browser journey of the payment service (issue 16): a user buys a token bundle in the shop through the
// development checkout page and sees the balance rise. The platform in one process with the frontends mounted in the gateway, driven
// by headless Chromium, as tests/e2e/web.e2e.test.ts does. Screenshots go to test-artifacts/web/.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkAccessibility } from "./support/axe.ts";
import { ADMIN } from "./support/platform.ts";
import { screenshots, webSetup, type WebSetup } from "./support/web.ts";

const shot = screenshots("web");
const JOURNEY_TIMEOUT = 90_000;

let web: WebSetup;
let platform: { url: string };
let api: WebSetup["api"];
let context: BrowserContext;
const account = { email: `pay-${Date.now()}@example.test`, password: "correct-horse-1" };

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
  // The admin sells a pack of 70 tokens: a payment product and the merch token bundle that names it.
  await api("POST", "/api/user-service/users/sign-up", account);
  const adminLogin = await api("POST", "/api/user-service/auth/login", ADMIN);
  const admin = (adminLogin.accessToken as { token: string }).token;
  const product = await api("POST", "/api/payment-service/api/v1/products", { name: "Pack", price: 199 }, admin);
  await api(
    "POST",
    "/api/merch-service/api/v1/token-bundles",
    { productId: product.id, name: "Pack", tokens: 70 },
    admin,
  );
  context = await web.browser.newContext({ viewport: { width: 1280, height: 900 } });
}, 300_000);

afterAll(async () => {
  await context?.close();
  await web?.close();
});

describe("payment journey", () => {
  it(
    "buys a token bundle through the development checkout and sees the balance in the shop",
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
      await page.getByRole("tab", { name: "Tokens and plans" }).click();
      // A price in the reader's way of writing money; paying asks first and says it happens on the next page.
      await page.getByRole("button", { name: "Buy Pack for $1.99" }).click();
      await page.getByRole("alertdialog", { name: "Buy Pack?" }).getByRole("button", { name: "Go to payment" }).click();
      // The development pay page stands in for Stripe Checkout.
      await page.getByRole("heading", { name: "Development checkout" }).waitFor();
      await shot(page, "payment-01-checkout");
      // Left at once by "Pay", before the automatic check would find it settled: checked here.
      await checkAccessibility(page);
      await page.getByRole("button", { name: "Pay" }).click();
      await page.waitForURL(/\/shop$/);
      await page.getByRole("heading", { level: 1, name: "Shop" }).waitFor();
      // The credit travels as an event (payment outbox, NATS, merch): reload until it shows, with a deadline.
      const deadline = Date.now() + 30_000;
      for (;;) {
        const shown = await page
          .getByTestId("token-balance")
          .filter({ hasText: /^70 tokens$/ })
          .count();
        if (shown > 0) break;
        if (Date.now() > deadline) throw new Error("the balance did not rise to 70 tokens");
        await page.reload();
        await page.getByRole("heading", { level: 1, name: "Shop" }).waitFor();
        await page.getByTestId("token-balance").or(page.getByText("You have no token account yet.")).first().waitFor();
      }
      await balance(page, "70 tokens");
      await shot(page, "payment-02-credited");
      expect(problems).toEqual([]);
      await page.close();
    },
    JOURNEY_TIMEOUT,
  );
});
