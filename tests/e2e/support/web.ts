// What every browser journey (tests/e2e/web-*.e2e.test.ts) needs, shared by the test run:
//
//   let web: WebSetup;
//   beforeAll(async () => { web = await webSetup(); /* the file's own accounts, rooms… over web.api */ }, 300_000);
//   afterAll(() => web?.close());
//   … const context = await web.browser.newContext({ viewport }); const page = await context.newPage(); …
//
// webSetup() builds the web apps once per run (when their sources changed), gives the run's all-in-one platform
// that serves them (`web.platform`, a TestPlatform: signUp, adminToken, call…) and a connection to the run's
// headless Chromium (its headless shell; `webSetup({ browser: "full" })` for the full browser): each file opens its
// own browser contexts (fresh storage, like a fresh profile), and close() closes them. The platform is shared by
// the browser journeys only (not by the REST suites): the same rules hold as for sharedPlatform
// (support/platform.ts): a file isolates itself by unique names and its own accounts, and asserts nothing about rows
// it did not make. A journey that needs other settings or a whole table to itself asks for a platform of its own,
// serving the same apps: webSetup({ own: true }) (or `{ own: { env } }`); its close() stops that platform and drops
// its database too.
//
// Every page of that browser is checked by axe-core on each route it visits, and a test fails on a serious or
// critical WCAG 2.2 AA violation (support/axe.ts; AXE_REPORT_ONLY=1 logs them instead): the hooks that report them are
// registered on every test file (tests/setup/axe-hooks.ts).
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { eventually } from "@tt/kit/testing";
import { createFrontendHandler } from "@tt/web-server";
import { watchBrowser } from "./axe.ts";
import type { BrowserKind } from "../../setup/shared-platforms.ts";
import { askShared, sharedPlatformOf, startTestPlatform, type TestPlatform } from "./platform.ts";

/** Where the journeys' screenshots go: test-artifacts/<dir>/ at the repository's root. */
export function screenshots(dir: string): (page: Page, name: string) => Promise<void> {
  const folder = path.resolve(import.meta.dirname, "../../../test-artifacts", dir);
  mkdirSync(folder, { recursive: true });
  return async (page, name) => {
    await page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: true });
  };
}

/**
 * Opens a room page's folded "Room settings" and waits until it shows `text`. The fold is the page's own <details>:
 * a click that lands while the room screen is still replaced (a busy machine) is lost with it, so it is opened again
 * whenever it is found closed.
 */
export async function openRoomSettings(page: Page, text: string): Promise<void> {
  const details = page.getByTestId("room-details");
  await eventually(
    `"Room settings" open, showing ${text}`,
    async () => {
      if (!(await details.evaluate((element) => (element as HTMLDetailsElement).open).catch(() => true))) {
        await page.getByText("Room settings", { exact: true }).click();
      }
      return page.getByText(text).first().isVisible();
    },
    { timeoutMs: 30_000, intervalMs: 200 },
  );
}

/** A journey's person: an account signed up on the platform, its token, and its nickname (the e-mail's local part). */
export interface WebAccount {
  uuid: string;
  email: string;
  /** The nickname: the address before the @ when none was given. */
  name: string;
  token: string;
}

/** Signs up `<prefix>-<random>@example.test` with `password`. */
export async function webAccount(platform: TestPlatform, prefix: string, password: string): Promise<WebAccount> {
  const email = `${prefix}-${randomUUID().slice(0, 8)}@example.test`;
  const { user, token } = await platform.signUp(email, password);
  return { uuid: user.uuid, email, name: email.split("@")[0]!, token };
}

/** Builds the web apps once per test run, when their sources are newer than their last build. */
export async function builtWebApps(): Promise<void> {
  await askShared("/frontends");
}

/**
 * A connection to one of the test run's two Chromiums (`shell` unless the journey needs push messaging, see
 * BrowserKind); close() ends the connection and its contexts, not the browser.
 * Its pages are checked by axe on every route they visit (support/axe.ts), and ask for reduced motion unless the
 * context is opened with another `reducedMotion`: the pages' animations (the home hero, the live room's lights and
 * meters) stop, as they promise their visitors who ask for it. Otherwise each open page is painted anew every frame
 * for as long as the journey keeps it: an idle home page took 8 to 11 CPU-s of every 10 s in Chromium's processes,
 * 0.02 with reduced motion. Playwright's contexts emulate "no-preference" whatever flags the browser was started with.
 */
export async function sharedBrowser(kind: BrowserKind = "shell"): Promise<Browser> {
  const { wsEndpoint } = await askShared<{ wsEndpoint: string }>(`/chromium/${kind}`);
  const browser = await chromium.connect(wsEndpoint);
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options) => newContext({ reducedMotion: "reduce", ...options });
  const newPage = browser.newPage.bind(browser);
  browser.newPage = (options) => newPage({ reducedMotion: "reduce", ...options });
  return watchBrowser(browser);
}

/** A REST call to the platform at `url` that fails the test unless it answers 2xx; the parsed JSON body. */
export function restApi(url: string) {
  return async (method: string, route: string, body?: unknown, token?: string): Promise<Record<string, unknown>> => {
    const res = await fetch(`${url}${route}`, {
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
  };
}

export interface WebSetup {
  /** The shared web platform, or the file's own (`own`): all-in-one, serving the built apps at its url. */
  platform: TestPlatform;
  url: string;
  /** This file's connection to the shared Chromium. */
  browser: Browser;
  /** restApi(url). */
  api: ReturnType<typeof restApi>;
  close(): Promise<void>;
}

/**
 * `own`: a platform of the file's own (all-in-one on a fresh database, with `env` over the test platforms' settings)
 * instead of the shared one, for a file that needs other settings or asserts a whole table. `browser`: which of the
 * run's browsers the file connects to (`shell` unless it needs push messaging).
 */
export async function webSetup(
  opts: { own?: boolean | { env?: Record<string, string> }; browser?: BrowserKind } = {},
): Promise<WebSetup> {
  await builtWebApps();
  let platform: TestPlatform;
  if (opts.own) {
    // Serves whatever the web apps' dist folders hold (built above), as the shared web platform does.
    const frontends = createFrontendHandler();
    platform = await startTestPlatform({
      mode: "all-in-one",
      env: opts.own === true ? {} : (opts.own.env ?? {}),
      staticHandler: (req, res) => frontends(req, res),
    });
  } else {
    platform = await sharedPlatformOf("web");
  }
  let browser: Browser;
  try {
    browser = await sharedBrowser(opts.browser);
  } catch (err) {
    await platform.close();
    throw err;
  }
  return {
    platform,
    url: platform.url,
    browser,
    api: restApi(platform.url),
    close: async () => {
      try {
        await browser.close();
      } finally {
        // The shared platform's close() does nothing; the file's own stops here.
        await platform.close();
      }
    },
  };
}
