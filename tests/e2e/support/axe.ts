// Accessibility checks of the browser journeys (issue 24): axe-core, injected into the page, on every route a journey
// visits, failing the test on any serious or critical violation of WCAG 2.2 AA (the AXE_TAGS rules).
//
// Every journey gets it without asking: sharedBrowser() (support/web.ts) hands out a browser whose contexts and
// pages are watched (watchBrowser). When a page's main frame navigates to a route it has not checked yet (a page
// load, or the apps' history.pushState/replaceState; a route is the path plus the hash, without the query), the
// page is checked once the screen has settled (see settle: no `.tt-loading` placeholder, no change of the address,
// nodes or text for QUIET_MS, at most SETTLE_MAX_MS). The journey does not wait: the check runs beside its steps,
// one per route visit, not one per click. A route left before it settled, or while axe ran, is not checked there
// (its check would see half of one screen and half of the next); the next route is. Such routes are listed at the
// end of the file; web-routes.e2e.test.ts checks every route by itself (checkAccessibility). Closing a page or its
// context first finishes the check under way, without waiting for more quiet.
//
// After each test (and after the file, for pages closed in afterAll) the hooks of reportChecksOfThisFile, which
// tests/setup/axe-hooks.ts registers on every test file, fail with every serious or critical violation found: rule,
// impact, help text and link, each offending element's selector. AXE_REPORT_ONLY=1 logs them instead, so the branch
// can merge while the screens are being fixed. Every check of a file, with the moderate and minor violations too
// and the routes left unchecked, goes to test-artifacts/axe/<file>.json. AXE_DEBUG=1 prints a line per check with
// its timings.
//
// axe's source goes in by page.evaluate (DevTools' Runtime.evaluate, which the page's Content-Security-Policy does
// not govern): the policy forbids inline scripts, so page.addScriptTag({ content }) is refused, and bypassCSP on the
// journeys' contexts would switch off the very policy web.e2e.test.ts checks. Once per document, when first checked.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { AxeResults, RunOptions } from "axe-core";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach } from "vitest";

/** The WCAG 2.2 AA rule set (axe's tags for levels A and AA of WCAG 2.0, 2.1 and 2.2). */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] as const;
/** The impacts that fail a journey. */
export const FAILING_IMPACTS = ["serious", "critical"] as const;
/** `AXE_REPORT_ONLY=1`: log the violations instead of failing the test. */
export const AXE_REPORT_ONLY_ENV = "AXE_REPORT_ONLY";

/** How long the DOM must stay unchanged before a route counts as settled, and the longest wait for it. */
const QUIET_MS = 300;
const SETTLE_MAX_MS = 5_000;

export interface AxeViolation {
  /** axe's rule id (https://dequeuniversity.com/rules/axe/4.14/<id>). */
  id: string;
  impact: string;
  help: string;
  helpUrl: string;
  /** Each offending element: its CSS selector (through shadow roots and frames, joined by " > "). */
  targets: string[];
  /** What axe found wrong with the first of them (a contrast's ratio and colours, the names compared…). */
  why: string;
}

export interface AxeCheck {
  /** The route (path and hash), or the label the check was given. */
  route: string;
  url: string;
  /** The serious and critical violations. */
  violations: AxeViolation[];
  /** The moderate and minor ones: in test-artifacts/axe/ only, never failing. */
  lesser: AxeViolation[];
  /** The test it ran in; set when the test's results are collected. */
  test?: string;
  /** How long the screen took to settle, and axe to run (ms). */
  settleMs: number;
  axeMs: number;
}

let axeSource: string | undefined;
function source(): string {
  axeSource ??= readFileSync(
    path.join(path.dirname(createRequire(import.meta.url).resolve("axe-core")), "axe.min.js"),
    "utf8",
  );
  return axeSource;
}

/** The route of a URL for the checks: path and hash, without the query (`?lang=en`, search terms). */
export function routeOf(url: string): string {
  const { pathname, hash } = new URL(url);
  return `${pathname}${hash}`;
}

/**
 * Waits in the page until the screen has settled: the document loaded, no `.tt-loading` placeholder, and neither
 * the address nor the DOM's nodes and text changed for `quietMs` (attributes are left out: a controlled input's
 * value attribute changes with each key the journey types); or until `maxMs` passed or the page is asked to hurry.
 */
function settle({ quietMs, maxMs }: { quietMs: number; maxMs: number }): Promise<void> {
  const flags = window as unknown as { ttAxeHurry?: boolean };
  flags.ttAxeHurry = false;
  return new Promise((resolve) => {
    const started = performance.now();
    let changed = started;
    let href = location.href;
    const observer = new MutationObserver(() => (changed = performance.now()));
    observer.observe(document, { subtree: true, childList: true, characterData: true });
    const poll = setInterval(() => {
      const now = performance.now();
      if (location.href !== href) [href, changed] = [location.href, now];
      const loaded = document.readyState === "complete" && document.querySelector(".tt-loading") === null;
      if ((loaded && now - changed >= quietMs) || now - started >= maxMs || flags.ttAxeHurry) {
        clearInterval(poll);
        observer.disconnect();
        resolve();
      }
    }, 50);
  });
}

interface AxeRun {
  /** The page's address when axe started, and whether it was still the same when axe ended. */
  href: string;
  stable: boolean;
  violations: AxeViolation[];
  lesser: AxeViolation[];
}

async function axeIn(page: Page): Promise<AxeRun> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(source());
  return page.evaluate(
    async ({ tags, impacts }) => {
      const axe = (window as unknown as { axe: { run(context: Document, options: RunOptions): Promise<AxeResults> } })
        .axe;
      const href = location.href;
      // While a modal layer is open (a dialog, a select's list), Radix hides the page behind it from assistive
      // technology with aria-hidden (marked data-aria-hidden) and keeps focus inside the layer with a focus trap:
      // the WAI-ARIA modal pattern. axe's aria-hidden-focus still sees the hidden page's buttons as focusable;
      // those nodes are the layer's doing, not a defect of the page, and are left out. The layer may open or close
      // while axe runs (the journey goes on beside it), so every element marked at any moment of the run counts.
      const hiddenByModal = new Set<Element>(document.querySelectorAll("[data-aria-hidden]"));
      const mark = (records: MutationRecord[]) => {
        for (const record of records) if (record.target instanceof Element) hiddenByModal.add(record.target);
      };
      const marking = new MutationObserver(mark);
      marking.observe(document, { subtree: true, attributes: true, attributeFilter: ["data-aria-hidden"] });
      const results = await axe.run(document, {
        runOnly: { type: "tag", values: tags },
        resultTypes: ["violations"],
        // Third-party player frames are not ours to fix, and axe would wait for frames it cannot enter.
        iframes: false,
        // Not the CSSOM: axe would fetch each cross-origin stylesheet again (a remote on a CDN) and parse it in a
        // <style> of a scratch document, which the Content-Security-Policy refuses with a console error. Only
        // css-orientation-lock reads it, an experimental rule outside these tags.
        preload: { assets: ["media"] },
      });
      mark(marking.takeRecords());
      marking.disconnect();
      const layerDoing = (node: { target: unknown[] }) => {
        const selector = node.target[0];
        const element = typeof selector === "string" ? document.querySelector(selector) : null;
        return element !== null && hiddenByModal.has(element);
      };
      const all = results.violations
        .map((violation) =>
          violation.id === "aria-hidden-focus"
            ? { ...violation, nodes: violation.nodes.filter((node) => !layerDoing(node)) }
            : violation,
        )
        .filter((violation) => violation.nodes.length > 0)
        .map((violation) => ({
          id: violation.id,
          impact: violation.impact ?? "",
          help: violation.help,
          helpUrl: violation.helpUrl,
          targets: violation.nodes.map((node) => node.target.flat(2).join(" > ")),
          why: (violation.nodes[0]?.failureSummary ?? "").replace(/\s+/g, " ").trim(),
        }));
      return {
        href,
        stable: location.href === href,
        violations: all.filter((violation) => impacts.includes(violation.impact)),
        lesser: all.filter((violation) => !impacts.includes(violation.impact)),
      };
    },
    { tags: [...AXE_TAGS] as string[], impacts: [...FAILING_IMPACTS] as string[] },
  );
}

/** Runs axe (injected when the page does not have it yet) on the page as it is; its serious and critical violations. */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  return (await axeIn(page)).violations;
}

/** What the watched pages of this test file found, not yet handed to a test. */
const unreported: AxeCheck[] = [];
/** Every check of this test file, for test-artifacts/axe/. */
const journal: AxeCheck[] = [];
/** Every route the file's pages showed, checked or not. */
const visited = new Set<string>();
const watchers = new Set<PageWatcher>();

/** AXE_DEBUG=1: a line per check (done with its timings, or dropped and why). */
function debug(line: string): void {
  if (process.env.AXE_DEBUG) process.stdout.write(`axe ${new Date().toISOString().slice(11, 23)} ${line}\n`);
}

/** A page closed, or its document replaced, under a check: expected, not worth a word. */
function expectedFailure(error: unknown): boolean {
  return /context was destroyed|has been closed|navigat/i.test(String(error));
}

class PageWatcher {
  /** Routes checked on this page. */
  private readonly checked = new Set<string>();
  /** A navigation to an unchecked route happened since the last automatic check started. */
  private wanted = false;
  /** The automatic checks' loop, while it runs. */
  private loop: Promise<void> | undefined;
  /** One axe at a time in a page (axe refuses a second run while one is going). */
  private lock: Promise<unknown> = Promise.resolve();
  /** Counts the explicit checks: an automatic check still settling when one is asked for leaves the page to it. */
  private explicit = 0;

  constructor(private readonly page: Page) {
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) this.navigated(frame.url());
    });
    page.on("close", () => watchers.delete(this));
  }

  private navigated(url: string): void {
    if (!/^https?:/.test(url)) return;
    const route = routeOf(url);
    visited.add(route);
    if (this.checked.has(route)) return;
    this.wanted = true;
    this.loop ??= this.pump().finally(() => (this.loop = undefined));
  }

  /** Checks the route on screen once it settles, again while navigations to unchecked routes keep coming. */
  private async pump(): Promise<void> {
    while (this.wanted && !this.page.isClosed()) {
      this.wanted = false;
      await this.exclusive(() => this.automatic());
    }
  }

  private async automatic(): Promise<void> {
    const explicit = this.explicit;
    try {
      const started = performance.now();
      await this.page.evaluate(settle, { quietMs: QUIET_MS, maxMs: SETTLE_MAX_MS });
      const settled = performance.now();
      if (this.explicit !== explicit) return debug(`${this.page.url()}: left to an explicit check`);
      if (this.checked.has(routeOf(this.page.url()))) return;
      const run = await axeIn(this.page);
      // The route changed while axe ran (what it saw was half one screen, half another): the navigation that
      // changed it asked for another check already.
      if (!run.stable) return debug(`${run.href}: left while axe ran`);
      this.record(routeOf(run.href), run, started, settled);
    } catch (error) {
      debug(`${this.page.url()}: ${String(error).split("\n")[0]}`);
      if (!this.page.isClosed() && !expectedFailure(error)) {
        process.stdout.write(`axe: the check of ${this.page.url()} failed: ${String(error)}\n`);
      }
    }
  }

  /** Checks the page now, as `route` (default: its current route), after it has settled when `settle`. */
  async check(route: string | undefined, opts: { settle: boolean }): Promise<AxeCheck> {
    this.explicit += 1;
    // An automatic check already running axe finishes first, and records what it saw too: it may have started
    // before the screen the caller waited for was there.
    if (this.loop) await this.hurry();
    return this.exclusive(async () => {
      const started = performance.now();
      if (opts.settle) await this.page.evaluate(settle, { quietMs: QUIET_MS, maxMs: SETTLE_MAX_MS });
      const settled = performance.now();
      const run = await axeIn(this.page);
      return this.record(route ?? routeOf(run.href), run, started, settled);
    });
  }

  private record(route: string, run: AxeRun, started: number, settled: number): AxeCheck {
    this.checked.add(routeOf(run.href));
    const check: AxeCheck = {
      route,
      url: run.href,
      violations: run.violations,
      lesser: run.lesser,
      settleMs: Math.round(settled - started),
      axeMs: Math.round(performance.now() - settled),
    };
    unreported.push(check);
    journal.push(check);
    debug(`${route}: ${run.violations.length} violations, settled in ${check.settleMs} ms, axe ${check.axeMs} ms`);
    return check;
  }

  private exclusive<T>(run: () => Promise<T>): Promise<T> {
    const done = this.lock.then(run);
    this.lock = done.catch(() => undefined);
    return done;
  }

  /** Finishes the queued checks, telling the one that waits for quiet not to wait any longer. */
  async flush(): Promise<void> {
    if (this.page.isClosed()) return;
    if (this.loop) await this.hurry();
    await this.loop;
    await this.lock;
  }

  private async hurry(): Promise<void> {
    await this.page
      .evaluate(() => {
        (window as unknown as { ttAxeHurry?: boolean }).ttAxeHurry = true;
      })
      .catch(() => {});
  }
}

const watchedPages = new WeakMap<Page, PageWatcher>();
const watchedContexts = new WeakSet<BrowserContext>();

function watchPage(page: Page): PageWatcher {
  let watcher = watchedPages.get(page);
  if (watcher) return watcher;
  watcher = new PageWatcher(page);
  watchedPages.set(page, watcher);
  watchers.add(watcher);
  const close = page.close.bind(page);
  page.close = async (options) => {
    await watchedPages.get(page)?.flush();
    return close(options);
  };
  return watcher;
}

function watchContext(context: BrowserContext): BrowserContext {
  if (watchedContexts.has(context)) return context;
  watchedContexts.add(context);
  for (const page of context.pages()) watchPage(page);
  context.on("page", (page) => {
    watchPage(page);
  });
  const newPage = context.newPage.bind(context);
  context.newPage = async () => {
    const page = await newPage();
    watchPage(page);
    return page;
  };
  const close = context.close.bind(context);
  context.close = async (options) => {
    await Promise.all(context.pages().map((page) => watchedPages.get(page)?.flush()));
    return close(options);
  };
  return context;
}

/**
 * Makes every page of every context the browser opens from now on checked by axe on each route it visits
 * (`browser.newContext()` and `browser.newPage()`); the browser itself, for chaining.
 */
export function watchBrowser(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => watchContext(await newContext(options));
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage(options);
    watchContext(page.context());
    watchPage(page);
    return page;
  };
  for (const context of browser.contexts()) watchContext(context);
  return browser;
}

/**
 * Checks the page now (once it has settled), as `route` (default: the page's route), recording the result with
 * the automatic checks: for screens a route does not name (a tab without an address) and for journeys that want
 * the result in hand. Does not fail by itself; the file's hooks do (see the top of this file).
 */
export async function checkAccessibility(
  page: Page,
  opts: { route?: string; settle?: boolean } = {},
): Promise<AxeCheck> {
  return watchPage(page).check(opts.route, { settle: opts.settle ?? true });
}

/** The violations of the checks, readable in a failure message: one block per route, one line per element. */
export function formatViolations(checks: AxeCheck[]): string {
  const failing = checks.filter((check) => check.violations.length > 0);
  const count = failing.reduce((sum, check) => sum + check.violations.length, 0);
  const lines = [
    `axe: ${count} serious or critical WCAG 2.2 AA violation${count === 1 ? "" : "s"} on ${failing.length} ` +
      `of ${checks.length} checked route${checks.length === 1 ? "" : "s"}` +
      ` (${AXE_REPORT_ONLY_ENV}=1 reports them without failing):`,
  ];
  for (const check of failing) {
    lines.push(`  ${check.route}${check.test ? `  [${check.test}]` : ""}`);
    for (const violation of check.violations) {
      lines.push(
        `    ${violation.id} (${violation.impact}, ${violation.targets.length} element` +
          `${violation.targets.length === 1 ? "" : "s"}): ${violation.help} — ${violation.helpUrl}`,
      );
      if (violation.why) lines.push(`      ${violation.why}`);
      for (const target of violation.targets.slice(0, 10)) lines.push(`      ${target}`);
      if (violation.targets.length > 10) lines.push(`      … and ${violation.targets.length - 10} more`);
    }
  }
  return lines.join("\n");
}

export function reportOnly(): boolean {
  const value = process.env[AXE_REPORT_ONLY_ENV] ?? "";
  return value !== "" && value !== "0" && value !== "false";
}

/** Hands the checks recorded so far to `test`: fails with their violations, or logs them (AXE_REPORT_ONLY=1). */
async function report(test: string): Promise<void> {
  await Promise.all([...watchers].map((watcher) => watcher.flush()));
  const checks = unreported.splice(0);
  for (const check of checks) check.test = test;
  if (!checks.some((check) => check.violations.length > 0)) return;
  const message = formatViolations(checks);
  if (reportOnly()) process.stdout.write(`${message}\n`);
  else throw new Error(message);
}

/**
 * Registers on the running test file's suite the hooks that hand its checks to its tests (see the top of this file),
 * and starts the file's record afresh. tests/setup/axe-hooks.ts calls it for every file of the backend projects: a
 * setup file runs again for each test file, while this module is evaluated once per worker and shared by the files
 * it runs (record 0345), so hooks registered here at import would report the first file's checks only. afterEach
 * hooks run in the reverse order of their registration, so the file's own run first.
 */
export function reportChecksOfThisFile(): void {
  unreported.length = 0;
  journal.length = 0;
  visited.clear();
  let testFile: string | undefined;
  afterEach(async ({ task }) => {
    testFile = task.file.filepath;
    await report(task.name);
  }, 30_000);
  afterAll(async () => {
    try {
      await report("after all tests");
    } finally {
      if (testFile && journal.length > 0) {
        const folder = path.resolve(import.meta.dirname, "../../../test-artifacts/axe");
        mkdirSync(folder, { recursive: true });
        const checkedRoutes = new Set(journal.map((check) => routeOf(check.url)));
        const unchecked = [...visited].filter((route) => !checkedRoutes.has(route));
        writeFileSync(
          path.join(folder, `${path.basename(testFile).replace(/\.e2e\.test\.ts$/, "")}.json`),
          `${JSON.stringify({ checks: journal, unchecked }, null, 2)}\n`,
        );
        if (unchecked.length > 0) {
          process.stdout.write(`axe: shown but left before they settled, not checked: ${unchecked.join(", ")}\n`);
        }
      }
    }
  }, 30_000);
}
