// Every screen of the five apps in the browser (issue 24): each route of the shell and of the room, crates, shop
// and admin remotes (and the shop's tabs and the admin's user detail, which have no address of their own), signed
// out, signed in as a listener and as the bootstrap admin. Each must render (a heading, status or alert in the
// main landmark, no loading placeholder, no failed remote) without a console error, and pass axe-core's WCAG 2.2 AA
// rules (support/axe.ts: a serious or critical violation fails the test, unless AXE_REPORT_ONLY=1).
//
// The routes, with the parameters the journey makes through the API before it starts:
//   shell   /, /login, /login/phone, /signup, /people, /users/:user, /magic-link/:token/:path, a path nobody serves
//   room    /room, /room/create, /room/communities, /room/communities/:id, /room/events, /room/r/:slug,
//           /room/r/:slug/settings                                   (frontends/room/src/App.tsx)
//   crates  /crates, /crates/queue, /crates/likes, /crates/search, /crates/uploads, /crates/:crate
//                                                                    (frontends/crates/src/App.tsx)
//   shop    /shop and its tabs (frontends/shop/src/App.tsx)
//   admin   /admin#<section> for every section (as the admin; the others see one), and a user's detail
//                                                                    (frontends/admin/src/App.tsx)
// A new screen goes in the lists below.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkAccessibility } from "./support/axe.ts";
import { ADMIN } from "./support/platform.ts";
import { openRoomSettings, screenshots, webSetup, type WebSetup } from "./support/web.ts";

// A full-page picture of every screen for every role (about 130) is for looking at the whole product at once, not
// for the run: WEB_ROUTES_SHOTS=1 writes them to test-artifacts/web-routes (the journeys keep their own).
const shot = process.env.WEB_ROUTES_SHOTS === "1" ? screenshots("web-routes") : async () => {};
const STAMP = Date.now().toString(36);
const PASSWORD = "correct-horse-1";
const ROLE_TIMEOUT = 300_000;

type Role = "signed out" | "signed in" | "admin";

interface Account {
  email: string;
  uuid: string;
  token: string;
}

interface Route {
  /** How the route is reported: its path with the parameters named. */
  name: string;
  path: string;
  /** What the screen shows once rendered, when a heading, status or alert in the main landmark is not enough. */
  ready?: (page: Page) => Promise<unknown>;
}

/**
 * Texts that are the same in English and Spanish: the brand, the language picker's names, words spelt the same in
 * both (no, roles) or that Spanish uses as they are (DJ, slug, fans, club, festival), the venues' and music providers' proper names, and data (the journey's
 * names, e-mails, the admin's nickname, web addresses, texts without words).
 */
const SAME_IN_BOTH = new Set([
  "Turntable",
  "English",
  "Español",
  "DJ",
  "DJs",
  "Slug",
  "No",
  "Roles",
  "Fans",
  "Club",
  "Festival",
  "Ferry Building",
  "Tomorrowland",
  "Underground",
  "Stripe",
  "Discord",
  "7digital",
  "Amazon Music",
  "Apple Music",
  "Audius",
  "Deezer",
  "Napster",
  "Pandora",
  "SoundCloud",
  "Spinrilla",
  "Spotify",
  "TIDAL",
  "YouTube",
  ADMIN.email.split("@")[0]!,
]);

function sameInBoth(text: string): boolean {
  return (
    SAME_IN_BOTH.has(text) ||
    !/\p{L}{2}/u.test(text) ||
    text.includes(STAMP) ||
    // Other journeys' data on the shared platform (a room another test made, in the admin's lists): their stamps.
    /\b[0-9a-f]{8}\b/.test(text) ||
    text.includes("@") ||
    text.startsWith("http") ||
    /^routes-(listener|friend)/.test(text) ||
    ["The Checkers", "Every screen, checked"].includes(text)
  );
}

/** Every text a person reads or hears on the page: text nodes and the labels, placeholders and titles of elements. */
function textsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      // <noscript> is the static page's one language: only a browser without JavaScript shows it.
      if (node.parentElement?.closest("script, style, svg, noscript")) continue;
      const text = node.textContent?.trim();
      if (text) texts.push(text);
    }
    for (const element of document.body.querySelectorAll("[aria-label], [placeholder], [title]")) {
      for (const name of ["aria-label", "placeholder", "title"]) {
        const text = element.getAttribute(name)?.trim();
        if (text) texts.push(text);
      }
    }
    return texts;
  });
}

/**
 * The requests a screen makes that fail on purpose (the browser logs every 4xx answer as a console error), by
 * route and role; any other console error fails the journey. A `defect` is a fault of the screen, listed here so
 * that the journey can run before it is fixed: remove the entry with the fix.
 */
const EXPECTED_FAILED_REQUESTS: { route: RegExp; roles?: Role[]; request: RegExp; why: string; defect?: true }[] = [
  {
    route: /^\/magic-link\/.*\(refused\)$/,
    request: /\/tt\.user\.v1\.AccountService\/ValidateMagicLink$/,
    why: "a made-up link is refused (401)",
  },
  {
    route: /^\/login \(wrong password\)$/,
    request: /\/tt\.user\.v1\.AuthService\/Login$/,
    why: "the wrong password is refused (401)",
  },
  {
    route: /^\/shop \(Ranking\)$/,
    request: /\/tt\.merch\.v1\.PointsService\/GetCurrentSeason$/,
    why: "no season is running (404) unless another journey started one",
  },
];

/** The admin console's sections (frontends/admin/src/App.tsx, SECTIONS). */
const ADMIN_SECTIONS = [
  "users",
  "vouchers",
  "phones",
  "rooms",
  "djs",
  "communities",
  "events",
  "avatars",
  "seasons",
  "shop",
  "payments",
  "moderation",
  "analytics",
  "outbox",
];
/** The shop's tabs (frontends/shop/src/App.tsx, TABS), by their buttons' English names. */
const SHOP_TABS = ["Tokens and plans", "Avatars", "Ranking", "Consumables"];

let web: WebSetup;
const contexts: BrowserContext[] = [];
let listener: Account;
let friend: Account;
let slug = "";
let communityId = "";
const crates: Partial<Record<Role, string>> = {};

async function account(email: string): Promise<Account> {
  await web.api("POST", "/api/user-service/users/sign-up", { email, password: PASSWORD });
  const login = await web.api("POST", "/api/user-service/auth/login", { email, password: PASSWORD });
  return {
    email,
    uuid: (login.user as { uuid: string }).uuid,
    token: (login.accessToken as { token: string }).token,
  };
}

function shellRoutes(): Route[] {
  return [
    { name: "/", path: "/" },
    { name: "/login", path: "/login" },
    { name: "/login/phone", path: "/login/phone" },
    { name: "/signup", path: "/signup" },
    { name: "/people", path: "/people" },
    { name: "/vouchers", path: "/vouchers" },
    { name: "/users/:user", path: `/users/${friend.uuid}` },
    { name: "/<unknown>", path: `/nothing-here-${STAMP}` },
    { name: "/<unknown>/<deeper>", path: `/nothing-here-${STAMP}/deeper` },
    {
      // An expired or made-up link: the page says so.
      name: "/magic-link/:token/:path (refused)",
      path: "/magic-link/not-a-valid-token/%2Fpeople",
      ready: (page) => page.getByRole("alert").waitFor(),
    },
  ];
}

function roomRoutes(): Route[] {
  return [
    { name: "/room", path: "/room" },
    { name: "/room/create", path: "/room/create" },
    { name: "/room/communities", path: "/room/communities" },
    { name: "/room/communities/:id", path: `/room/communities/${communityId}` },
    { name: "/room/events", path: "/room/events" },
    { name: "/room/r/:slug", path: `/room/r/${slug}` },
    { name: "/room/r/:slug/settings", path: `/room/r/${slug}/settings` },
  ];
}

function cratesRoutes(role: Role): Route[] {
  return [
    { name: "/crates", path: "/crates" },
    { name: "/crates/queue", path: "/crates/queue" },
    { name: "/crates/likes", path: "/crates/likes" },
    { name: "/crates/search", path: "/crates/search" },
    {
      // The results of a search (the songs of the journey's crates, in the catalogue since they were added).
      name: "/crates/search?q=:term",
      path: `/crates/search?q=${encodeURIComponent(`Routes ${STAMP}`)}`,
      ...(role === "signed out" ? {} : { ready: (page: Page) => page.getByTestId("search-result").first().waitFor() }),
    },
    { name: "/crates/uploads", path: "/crates/uploads" },
    // The role's own crate (a guest is shown the sign-in card whatever the crate).
    { name: "/crates/:crate", path: `/crates/${crates[role] ?? crates["signed in"]}` },
  ];
}

/**
 * The admin console's sections for `role`. Anyone but staff gets the same screen whatever the section (its title
 * over "admins only", frontends/admin/src/App.tsx): the first section stands for them all.
 */
function adminRoutes(role: Role): Route[] {
  return ADMIN_SECTIONS.slice(0, role === "admin" ? undefined : 1).map((section) => ({
    name: `/admin#${section}`,
    path: `/admin#${section}`,
  }));
}

/** A page of a fresh browser profile, signed in as `who` when given. */
async function openAs(who?: { email: string }): Promise<Page> {
  const context = await web.browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  if (who) {
    await page.goto(`${web.url}/login?lang=en`);
    await page.getByLabel("E-mail").fill(who.email);
    await page.getByLabel("Password").fill(who.email === ADMIN.email ? ADMIN.password : PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByTestId("signed-in-user").waitFor();
  }
  return page;
}

/**
 * Visits routes one after the other on `page`, each a fresh load in English, and checks each: rendered, no
 * console error, axe. Problems of every route are gathered and asserted at the end, so one run lists them all.
 */
class Visit {
  readonly problems: string[] = [];
  /** The known defects already printed. */
  private readonly told = new Set<string>();
  /** This route's console errors: the message, and the failed request's URL when it is one. */
  private errors: { text: string; url?: string }[] = [];

  constructor(
    readonly page: Page,
    readonly role: Role,
  ) {
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      // A failed request's message does not name the request; its location does.
      const failed = message.text().startsWith("Failed to load resource");
      this.errors.push({ text: `console: ${message.text()}`, ...(failed ? { url: message.location().url } : {}) });
    });
    page.on("pageerror", (error) => this.errors.push({ text: `page error: ${error.message}` }));
  }

  /**
   * Loads the route in English and checks it. With `spanish`, then loads it in Spanish and reports every text of
   * the Spanish page (text nodes, labels, placeholders, titles) that is also on the English one: a text left
   * untranslated. Names, the brand, the journey's own data and texts without letters are the same in both
   * (SAME_IN_BOTH). The page is left in Spanish.
   */
  async route(route: Route, opts: { spanish?: boolean } = {}): Promise<void> {
    this.errors = [];
    const url = new URL(route.path, web.url);
    url.searchParams.set("lang", "en");
    await this.page.goto(url.href);
    await this.rendered(route);
    await this.check(route.name);
    if (!opts.spanish) return;
    const english = new Set(await textsOf(this.page));
    url.searchParams.set("lang", "es");
    await this.page.goto(url.href);
    await this.rendered(route);
    const left = [...new Set(await textsOf(this.page))].filter((text) => english.has(text) && !sameInBoth(text));
    if (left.length > 0) this.problems.push(`${route.name} (es): English left: ${left.join(" | ")}`);
    process.stdout.write(`web-routes es ${route.name.padEnd(40)} ${left.length} English texts\n`);
  }

  /** Checks the screen on display as `name` (a tab or a detail, shown by a click rather than an address). */
  /** A screen reached by acting on the page; `ready` tells when it is shown (a modal dialog hides the page). */
  async screen(name: string, show: () => Promise<unknown>, ready?: Route["ready"]): Promise<void> {
    this.errors = [];
    await show();
    await this.rendered({ name, path: "", ready });
    await this.check(name);
  }

  private async rendered(route: Route): Promise<void> {
    const main = this.page.getByRole("main");
    try {
      await (route.ready
        ? route.ready(this.page)
        : main.getByRole("heading").or(main.getByRole("status")).or(main.getByRole("alert")).first().waitFor());
      // A screen's data may take a while when the run is busiest (the file starts with the run, beside the
      // distributed platform's start): a placeholder that stays a minute is what fails.
      await main.locator(".tt-loading").first().waitFor({ state: "detached", timeout: 60_000 });
      const text = (await main.textContent()) ?? "";
      if (/is unavailable right now/.test(text))
        this.problems.push(`${this.role} ${route.name}: ${text.slice(0, 200)}`);
    } catch (error) {
      this.problems.push(`${this.role} ${route.name}: did not render: ${String(error).split("\n")[0]}`);
    }
  }

  private async check(name: string): Promise<void> {
    const result = await checkAccessibility(this.page, { route: `${name} (${this.role})` });
    for (const error of this.errors) {
      const expected = EXPECTED_FAILED_REQUESTS.find(
        (entry) =>
          entry.route.test(name) &&
          (entry.roles ?? [this.role]).includes(this.role) &&
          entry.request.test(error.url ?? ""),
      );
      const line = `${this.role} ${name}: ${error.text}${error.url ? ` ${error.url}` : ""}`;
      if (!expected) this.problems.push(line);
      else if (expected.defect && !this.told.has(line)) {
        this.told.add(line);
        process.stdout.write(`web-routes known defect: ${line}: ${expected.why}\n`);
      }
    }
    const rules = result.violations.map((v) => `${v.id}×${v.targets.length}`).join(", ");
    process.stdout.write(`web-routes ${this.role.padEnd(10)} ${name.padEnd(40)} ${rules || "no violations"}\n`);
    await shot(this.page, `${this.role.replace(" ", "-")}${name.replace(/[^a-z0-9]+/gi, "-")}`);
  }
}

beforeAll(async () => {
  web = await webSetup();
  listener = await account(`routes-listener-${STAMP}@example.test`);
  friend = await account(`routes-friend-${STAMP}@example.test`);
  const admin = await web.platform.adminToken();
  // The listener's room, community (the friend's, which the listener joined and put the room in), event and crate.
  const created = await web.api(
    "POST",
    "/api/room-service/rooms/infrastructure",
    { name: `Routes ${STAMP}` },
    listener.token,
  );
  const room = created.room as { uuid: string; slug: string };
  slug = room.slug;
  const community = await web.api(
    "POST",
    "/api/room-service/admin/communities",
    { name: `Routes ${STAMP}`, description: "Every screen, checked", ownerId: friend.uuid },
    admin,
  );
  communityId = community.id as string;
  await web.api("POST", `/api/room-service/communities/${communityId}/join`, {}, listener.token);
  await web.api("PUT", `/api/room-service/communities/${communityId}/rooms/${room.uuid}`, {}, listener.token);
  const at = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
  await web.api(
    "POST",
    "/api/room-service/events",
    { name: `Routes ${STAMP}`, startsAt: at(24), endsAt: at(26) },
    listener.token,
  );
  const songs = [{ trackName: `Routes ${STAMP}`, artistName: "The Checkers", duration: 185 }];
  for (const [role, token] of [
    ["signed in", listener.token],
    ["admin", admin],
  ] as const) {
    const crate = await web.api("POST", "/api/playlist-service/crate", { crateName: `Routes ${STAMP}` }, token);
    crates[role] = crate.crateUuid as string;
    await web.api("POST", `/api/playlist-service/crate/${crates[role]}/songs`, { songs }, token);
    await web.api("POST", "/api/playlist-service/crate/special/likes/songs", { songs }, token);
  }
}, 300_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await web?.close();
});

describe("every route of the five apps", () => {
  it(
    "signed out",
    async () => {
      const visit = new Visit(await openAs(), "signed out");
      for (const route of [...shellRoutes(), ...roomRoutes(), ...cratesRoutes("signed out")]) await visit.route(route);
      await visit.screen("/login (wrong password)", async () => {
        await visit.page.goto(`${web.url}/login?lang=en`);
        await visit.page.getByLabel("E-mail").fill(listener.email);
        await visit.page.getByLabel("Password").fill("not-the-password");
        await visit.page.getByRole("button", { name: "Log in" }).click();
        await visit.page.getByRole("alert").waitFor();
      });
      await visit.route({ name: "/shop", path: "/shop" });
      for (const route of adminRoutes("signed out")) await visit.route(route);
      // A valid magic link signs the listener in and opens its path (last: the page is signed in from here on).
      const link = await web.api("GET", "/api/user-service/auth/magic-link?path=%2Fpeople", undefined, listener.token);
      const token = /\/magic-link\/([^/]+)\//.exec(link.link as string)?.[1];
      expect(token, JSON.stringify(link)).toBeTruthy();
      await visit.route({
        name: "/magic-link/:token/:path (signs in, opens /people)",
        path: `/magic-link/${token}/%2Fpeople`,
        ready: (page) => page.getByRole("heading", { level: 1, name: "Friends and fans" }).waitFor(),
      });
      expect(visit.problems).toEqual([]);
    },
    ROLE_TIMEOUT,
  );

  it(
    "signed in as a listener",
    async () => {
      const visit = new Visit(await openAs(listener), "signed in");
      for (const route of [...shellRoutes(), ...roomRoutes(), ...cratesRoutes("signed in")]) await visit.route(route);
      // The owner's room with its folded "Room settings" open.
      await visit.screen("/room/r/:slug (room settings open)", async () => {
        await visit.page.goto(`${web.url}/room/r/${slug}?lang=en`);
        await openRoomSettings(visit.page, "You moderate this room");
      });
      await visit.route({ name: "/shop", path: "/shop" });
      for (const tab of SHOP_TABS) {
        await visit.screen(`/shop (${tab})`, () => visit.page.getByRole("tab", { name: tab }).click());
      }
      for (const route of adminRoutes("signed in")) await visit.route(route);
      expect(visit.problems).toEqual([]);
    },
    ROLE_TIMEOUT,
  );

  it(
    "signed in as the admin, each screen in English and in Spanish (no text equals its English source)",
    async () => {
      const visit = new Visit(await openAs(ADMIN), "admin");
      // The refused magic link's page is the same for everyone, and the same in both languages but for its texts.
      for (const route of [...shellRoutes(), ...roomRoutes(), ...cratesRoutes("admin")]) {
        await visit.route(route, { spanish: !route.path.startsWith("/magic-link/") });
      }
      const shop = { name: "/shop", path: "/shop" };
      await visit.route(shop);
      for (const tab of SHOP_TABS) {
        await visit.screen(`/shop (${tab})`, () => visit.page.getByRole("tab", { name: tab }).click());
      }
      await visit.route(shop, { spanish: true });
      for (const route of adminRoutes("admin")) await visit.route(route, { spanish: true });
      // A user's detail, opened from the users list.
      await visit.route({ name: "/admin#users", path: "/admin#users" });
      await visit.screen(
        "/admin#users (user detail)",
        async () => {
          const filters = visit.page.getByRole("form", { name: "Filters" });
          await filters.getByLabel("E-mail").fill(listener.email);
          await visit.page.getByRole("button", { name: "Apply" }).click();
          // The nickname in the listener's row opens their details in a dialog that shows their e-mail.
          const row = visit.page
            .getByRole("row")
            .filter({ has: visit.page.getByRole("cell", { name: listener.email, exact: true }) });
          await row.locator(".tt-admin-link").click();
        },
        (page) => page.getByRole("dialog").filter({ hasText: listener.email }).waitFor(),
      );
      await visit.page.keyboard.press("Escape");
      await visit.page.getByRole("dialog").waitFor({ state: "detached" });
      // A row action's confirmation dialog, left by Cancel.
      await visit.screen(
        "/admin#users (confirm dialog)",
        async () => {
          await visit.page.getByRole("button", { name: `Actions for ${listener.email}` }).click();
          await visit.page.getByRole("menuitem", { name: "Ban", exact: true }).click();
        },
        (page) => page.getByRole("dialog", { name: `Ban: ${listener.email}` }).waitFor(),
      );
      await visit.page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
      expect(visit.problems).toEqual([]);
    },
    ROLE_TIMEOUT,
  );
});
