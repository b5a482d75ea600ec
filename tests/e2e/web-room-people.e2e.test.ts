// The live room's people in the browser (issue 25), on the shared web platform, with no console errors throughout:
// axe-core finds no serious or critical WCAG 2.2 AA violation on the room page when it is empty, when a song plays,
// and at a phone's width; a listener opens the DJ's profile card from the crowd, follows them (the card turns to
// "Unfollow" and the fans count goes up) and starts a direct message from it, which reaches the DJ's page with an
// unread count on its tab; a vote-skip (three signed-in listeners besides the DJ, two of them joined from Node on
// the stage's join stream, dislikes outnumbering likes) is said in the room chat and the live region of the
// listener's and the DJ's pages. The songs are catalogue entries of an outside provider the platform has no player
// for: the stage plays them by their duration, no FFmpeg and no upload needed. Last, the room's pictures in
// frontends/README.md: three designs at 1280 × 800 and one at 390 × 844 (test-artifacts/web-room-people/room-*.png).
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { StageService } from "@tt/proto/tt/social/v1/stage_service_pb";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkAccessibility } from "./support/axe.ts";
import { webAccount, webSetup, type WebAccount, type WebSetup } from "./support/web.ts";

const PASSWORD = "correct-horse-1";
const STAMP = randomUUID().slice(0, 8);
/** Long enough that no song ends by itself during the journey. */
const SONG_SECONDS = 600;
/** expect.poll's own default is a second: a busy machine needs longer. */
const POLL = { timeout: 30_000, interval: 200 };

let web: WebSetup;
const PICTURES = path.resolve(import.meta.dirname, "../../test-artifacts/web-room-people");
mkdirSync(PICTURES, { recursive: true });
/**
 * A picture of what the page's screen shows. Not a full-page one (support/web.ts's screenshots()): Chromium resizes
 * the page for it for a moment, through the room's phone layout, which draws the chat panel anew (its tab, open
 * conversation and the room's activity lines lost) while the journey goes on.
 */
async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(PICTURES, `${name}.png`) });
}
const problems: string[] = [];

const account = (prefix: string) => webAccount(web.platform, prefix, PASSWORD);

async function page(name: string, who: WebAccount): Promise<Page> {
  const context = await web.browser.newContext({ viewport: { width: 1280, height: 800 } });
  // A shared machine may be busy with other journeys: waits get a minute rather than playwright's half.
  context.setDefaultTimeout(60_000);
  context.setDefaultNavigationTimeout(60_000);
  const opened = await context.newPage();
  opened.on("pageerror", (error) => problems.push(`${name}: page error: ${error.message}`));
  opened.on("console", (message) => {
    if (message.type() === "error") problems.push(`${name}: console error: ${message.text()}`);
  });
  await opened.goto(`${web.url}/login?lang=en`);
  await opened.getByLabel("E-mail").fill(who.email);
  await opened.getByLabel("Password").fill(PASSWORD);
  await opened.getByRole("button", { name: "Log in" }).click();
  await opened.getByTestId("signed-in-user").waitFor();
  return opened;
}

async function queueSongs(who: WebAccount, count: number): Promise<void> {
  await web.api(
    "POST",
    "/api/playlist-service/crate/special/queue/songs",
    {
      songs: Array.from({ length: count }, (_, i) => ({
        trackName: `People ${i + 1} ${STAMP}`,
        artistName: "Journey",
        duration: SONG_SECONDS,
        musicProviders: { spotify: `sp-${randomUUID()}` },
      })),
    },
    who.token,
  );
}

/** A signed-in listener in the room without a browser: the stage's join stream over Connect, read until closed. */
function joinFromNode(who: WebAccount, room: string): { close(): void; done: Promise<void> } {
  const abort = new AbortController();
  const transport = createConnectTransport({
    baseUrl: web.url,
    httpVersion: "1.1",
    interceptors: [
      (next) => (req) => {
        req.header.set("authorization", `Bearer ${who.token}`);
        return next(req);
      },
    ],
  });
  const done = (async () => {
    try {
      for await (const _ of createClient(StageService, transport).join({ room }, { signal: abort.signal })) {
        // The stream keeps the listener present; its messages are not needed here.
      }
    } catch (error) {
      if (!abort.signal.aborted) problems.push(`${who.name}: join stream: ${String(error)}`);
    }
  })();
  return { close: () => abort.abort(), done };
}

let dj: WebAccount;
let listener: WebAccount;
let room: { uuid: string; slug: string };
let roomUrl: string;
let djPage: Page;
let listenerPage: Page;
let started: number;
/** The listeners joined from Node for the vote-skip. */
let extra: WebAccount[] = [];

beforeAll(async () => {
  web = await webSetup();
  started = Date.now();
  [dj, listener] = await Promise.all([account("people-dj"), account("people-listener")]);
  await queueSongs(dj, 2);
  const created = await web.api(
    "POST",
    "/api/room-service/rooms/infrastructure",
    { name: `People room ${STAMP}`, numberOfDjs: 2 },
    dj.token,
  );
  room = created.room as { uuid: string; slug: string };
  roomUrl = `${web.url}/room/r/${room.slug}?lang=en`;
  [djPage, listenerPage] = await Promise.all([page("dj", dj), page("listener", listener)]);
  for (const opened of [djPage, listenerPage]) {
    await opened.goto(roomUrl);
    await opened.getByRole("region", { name: "Live stage" }).getByText("Connected", { exact: true }).waitFor();
  }
}, 300_000);

afterAll(async () => {
  for (const opened of [djPage, listenerPage]) await opened?.context().close();
  await web?.close();
  process.stdout.write(`room people journey: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
});

describe("the live room's people in the browser", () => {
  it("an empty room has no serious accessibility violation", async () => {
    await listenerPage.getByText("The booth is silent: nobody is playing.").waitFor();
    const check = await checkAccessibility(listenerPage, { route: `/room/r/${room.slug} (empty)` });
    expect(check.violations).toEqual([]);
    expect(problems).toEqual([]);
  }, 180_000);

  it("a profile card opened from the crowd follows the DJ and starts a direct message that reaches them", async () => {
    // The DJ, not seated yet, stands on the dancefloor: the listener opens their card from their avatar there.
    const spot = listenerPage.locator(`.tt-crowd__spot[data-user="${dj.uuid}"]`);
    await spot.getByRole("button", { name: dj.name }).click();
    const card = listenerPage.getByRole("dialog", { name: dj.name });
    await card.waitFor();
    await expect.poll(() => card.getByTestId("fan-count").textContent(), POLL).toBe("0");
    await card.getByRole("button", { name: "Follow", exact: true }).click();
    await card.getByRole("button", { name: "Unfollow" }).waitFor();
    await expect.poll(() => card.getByTestId("fan-count").textContent(), POLL).toBe("1");
    await shot(listenerPage, "01-card-followed");

    // The card's "Message" closes it and opens the conversation with the DJ in the chat's OTHERS tab.
    await card.getByRole("button", { name: "Message" }).click();
    await card.waitFor({ state: "detached" });
    await listenerPage.getByRole("tab", { name: /^Others/, selected: true }).waitFor();
    const line = `Hello DJ ${STAMP}`;
    await listenerPage.getByLabel("Say something…").fill(line);
    await listenerPage.getByRole("button", { name: "Send" }).click();
    await listenerPage.getByTestId("chat-message").filter({ hasText: line }).waitFor();

    // The DJ's page counts it unread on the OTHERS tab and lists the conversation; opening it shows the message.
    const others = djPage.getByRole("tab", { name: /^Others/ });
    await expect.poll(() => others.locator(".tt-tabs__count").textContent(), POLL).toBe("1");
    // Said to a screen reader too: the tab is named with its count in words.
    await djPage.getByRole("tab", { name: /^Others\W+1 unread$/ }).waitFor();
    await shot(djPage, "02-dj-unread");
    await others.click();
    // The conversation is named with its unread count in words.
    const peer = djPage
      .getByRole("list", { name: "Others" })
      .getByRole("button", { name: new RegExp(`${listener.name}\\W+1 unread$`) });
    await peer.waitFor();
    await peer.click();
    await djPage.getByTestId("chat-message").filter({ hasText: line }).waitFor();
    await djPage.getByRole("tab", { name: "Room" }).click();
    await listenerPage.getByRole("tab", { name: "Room" }).click();
    expect(problems).toEqual([]);
  }, 180_000);

  it("a playing room has no serious accessibility violation, on a desktop and a phone", async () => {
    await djPage.getByRole("button", { name: "Take a seat" }).click();
    for (const opened of [djPage, listenerPage]) {
      await expect.poll(() => opened.getByTestId("live-title").textContent(), POLL).toBe(`People 1 ${STAMP}`);
    }
    let check = await checkAccessibility(listenerPage, { route: `/room/r/${room.slug} (playing)` });
    expect(check.violations).toEqual([]);
    await shot(listenerPage, "03-playing-desktop");
    await listenerPage.setViewportSize({ width: 390, height: 844 });
    await listenerPage.getByRole("tablist", { name: "The room's panels" }).waitFor();
    check = await checkAccessibility(listenerPage, { route: `/room/r/${room.slug} (phone)` });
    expect(check.violations).toEqual([]);
    expect(await listenerPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(listenerPage, "04-playing-phone");
    await listenerPage.setViewportSize({ width: 1280, height: 800 });
    await listenerPage.locator(".tt-live-grid:not(.tt-live-grid--phone)").waitFor();
    expect(problems).toEqual([]);
  }, 180_000);

  it("a vote-skip is said to the room and to the DJ", async () => {
    // On a desktop's width (whatever the test before left), where the room chat is always in view.
    await listenerPage.setViewportSize({ width: 1280, height: 800 });
    await listenerPage.locator(".tt-live-grid:not(.tt-live-grid--phone)").waitFor();
    // Two more signed-in listeners join from Node: three besides the DJ, so vote-skip applies (2 of 3 dislikes).
    extra = await Promise.all([account("people-voter"), account("people-voter")]);
    const streams = extra.map((who) => joinFromNode(who, room.uuid));
    try {
      await listenerPage.getByText("2 dislikes skip the song when they outnumber the likes.").waitFor();
      const playing = await web.api("GET", `/api/social-service/rooms/${room.uuid}/stage`, undefined, dj.token);
      const playId = (playing as { play: { playId: string } }).play.playId;
      // One dislike from Node, the second from the listener's page: dislikes 2 > likes 0.
      await web.api("POST", `/api/social-service/rooms/${room.uuid}/votes/dislike`, { playId }, extra[0]!.token);
      await listenerPage.getByText("1 of 2 dislikes skip the song").waitFor();
      // The DJ's toast is watched for from before the vote: it goes away by itself after a few seconds.
      const yours = "The room skipped your song: 2 of 2 dislikes";
      const toast = djPage
        .locator(".tt-toast")
        .getByText(yours, { exact: true })
        .waitFor()
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      await listenerPage.getByRole("button", { name: /^Dislike/ }).click();
      const missed = await toast;
      if (missed) throw missed;

      // The room chat and its live region say it on both pages: of the DJ by name to the room, to the DJ as theirs.
      const said = `${dj.name}'s song was skipped by the room: 2 of 2 dislikes`;
      for (const [opened, text] of [
        [listenerPage, said],
        [djPage, yours],
      ] as const) {
        await opened.getByTestId("chat-activity").filter({ hasText: text }).waitFor();
        await expect.poll(() => opened.getByTestId("chat-activity-live").textContent(), POLL).toBe(text);
      }
      // The DJ's next song plays, with fresh votes: the listener's dislike is not carried over.
      await expect.poll(() => listenerPage.getByTestId("live-title").textContent(), POLL).toBe(`People 2 ${STAMP}`);
      const dislike = listenerPage.getByRole("button", { name: /^Dislike/ });
      await expect.poll(() => dislike.getAttribute("aria-pressed"), POLL).toBe("false");
      await shot(listenerPage, "05-vote-skipped");
      await shot(djPage, "06-vote-skipped-dj");
    } finally {
      for (const stream of streams) stream.close();
      await Promise.all(streams.map((stream) => stream.done));
    }
    expect(problems).toEqual([]);
  }, 180_000);

  it("the room in three designs, on a desktop and a phone (the pictures of frontends/README.md)", async () => {
    // The voters stand on the floor again, so the crowd is not a lone avatar.
    const streams = extra.map((who) => joinFromNode(who, room.uuid));
    try {
      await listenerPage.getByText("4 signed in, 0 guests").waitFor();
      // The top of the page, with no button under the mouse.
      await listenerPage.mouse.move(0, 0);
      await listenerPage.evaluate(() => window.scrollTo(0, 0));
      for (const design of ["FESTIVAL", "THEATER", "YACHT"]) {
        await web.api("PATCH", `/api/room-service/rooms/${room.uuid}`, { design }, dj.token);
        await listenerPage.locator(`.tt-venue[data-design="${design}"] svg[data-scene="${design}"]`).waitFor();
        // The top of the page: the venue, now playing and the chat.
        await shot(listenerPage, `room-${design.toLowerCase()}-desktop`);
      }
      // A design change redraws the venue, not the chat: the vote-skip's line is still there.
      await listenerPage.getByTestId("chat-activity").filter({ hasText: "skipped by the room" }).waitFor();
      await listenerPage.setViewportSize({ width: 390, height: 844 });
      await listenerPage.getByRole("tablist", { name: "The room's panels" }).waitFor();
      await listenerPage.evaluate(() => window.scrollTo(0, 0));
      await shot(listenerPage, "room-yacht-phone");
      await listenerPage.setViewportSize({ width: 1280, height: 800 });
    } finally {
      for (const stream of streams) stream.close();
      await Promise.all(streams.map((stream) => stream.done));
    }
    expect(problems).toEqual([]);
  }, 180_000);
});
