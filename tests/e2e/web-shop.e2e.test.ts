// Browser journey through the shop app (issue 15): an admin grants tokens, the user buys a consumable in the
// shop and sees the new balance. The platform in one process with the frontends mounted in the gateway, driven
// by headless Chromium, as tests/e2e/web.e2e.test.ts does. Screenshots go to test-artifacts/web/.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startAllInOne, type AllInOne } from "@tt/platform";
import { createTestDatabase } from "@tt/kit/testing";
import { buildFrontendsIfStale, chromiumLaunchOptions, createFrontendHandler } from "@tt/web-server";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../test-artifacts/web");
const JOURNEY_TIMEOUT = 90_000;
const ADMIN = { email: "shop-admin@example.test", password: "admin-password-1" };

let platform: AllInOne;
let dropDatabase: () => Promise<void>;
let context: BrowserContext;
let profileDir: string;
const account = { email: `shop-${Date.now()}@example.test`, password: "correct-horse-1" };

/** Waits until the shop shows this balance. */
async function balance(page: Page, text: string): Promise<void> {
  await page
    .getByTestId("token-balance")
    .filter({ hasText: new RegExp(`^${text}$`) })
    .waitFor({ timeout: 30_000 });
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

async function api(method: string, route: string, body?: unknown, token?: string) {
  const res = await fetch(`${platform.url}${route}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  await buildFrontendsIfStale();
  const db = await createTestDatabase(inject("databaseUrl"));
  dropDatabase = db.drop;
  const frontends = createFrontendHandler();
  platform = await startAllInOne({
    port: 0,
    host: "127.0.0.1",
    databaseUrl: db.url,
    natsUrl: inject("natsUrl"),
    env: { LOG_LEVEL: "warn", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
    staticHandler: (req, res) => frontends(req, res),
  });
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
  profileDir = mkdtempSync(path.join(tmpdir(), "tt-e2e-shop-chromium-"));
  context = await chromium.launchPersistentContext(profileDir, {
    ...chromiumLaunchOptions,
    viewport: { width: 1280, height: 900 },
  });
}, 300_000);

afterAll(async () => {
  await context?.close();
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  await platform?.close();
  await dropDatabase?.();
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

      await page.getByRole("button", { name: "Confetti: Buy for 15" }).click();
      await page.getByText("Bought Confetti.").waitFor();
      await balance(page, "35 tokens");
      await shot(page, "shop-02-bought");
      // The server kept it: a reload shows the same balance.
      await page.reload();
      await balance(page, "35 tokens");
      expect(problems).toEqual([]);
      await page.close();
    },
    JOURNEY_TIMEOUT,
  );
});
