// The live room in the browser (issue 14): three Chromium pages on the shared all-in-one web platform. A DJ plays an
// uploaded song (packaged by FFmpeg, played over HLS); a signed-in listener hears it with the player's position
// within the drift target of the DJ's and of the server's clock; a guest sees it without seats or votes; a like
// crosses from the listener to the DJ; the listener takes the second seat and their song starts when the first
// ends; a chat message crosses to the DJ and the guest; the owner kicks the listener, whose page shows them out with
// the details. No console errors throughout. Issue 25: the venue follows the room's design on every page (pictures at
// 1280 × 800 and 390 × 844), the DJ's avatar in the booth is named by their nickname, a like makes the listener dance.
import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAudio } from "@tt/upload-service/testing";
import { screenshots, webSetup, type WebSetup } from "./support/web.ts";
import { eventually } from "@tt/kit/testing";

const JOURNEY_TIMEOUT = 90_000;
const PASSWORD = "correct-horse-1";
const STAMP = randomUUID().slice(0, 8);
/** Long enough to measure sync, short enough for the next DJ to start soon after. */
const SONG_SECONDS = 14;
/** The live room's no-jump margin (DRIFT_TOLERANCE_S, 0.25 s; the rate nudge closes the rest) plus what a loaded machine's sampling adds. */
const DRIFT_TARGET_S = 0.35;

let web: WebSetup;
const shot = screenshots("web-room-live");
const problems: string[] = [];

interface Account {
  uuid: string;
  email: string;
  token: string;
}

async function account(): Promise<Account> {
  const email = `live-${randomUUID()}@example.test`;
  const { user, token } = await web.platform.signUp(email, PASSWORD);
  return { uuid: user.uuid, email, token };
}

async function page(name: string, who?: Account): Promise<Page> {
  const context = await web.browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const opened = await context.newPage();
  opened.on("pageerror", (error) => problems.push(`${name}: page error: ${error.message}`));
  opened.on("console", (message) => {
    if (message.type() === "error") problems.push(`${name}: console error: ${message.text()}`);
  });
  if (who) {
    await opened.goto(`${web.url}/login?lang=en`);
    await opened.getByLabel("E-mail").fill(who.email);
    await opened.getByLabel("Password").fill(PASSWORD);
    await opened.getByRole("button", { name: "Log in" }).click();
    await opened.getByTestId("signed-in-user").waitFor();
  }
  return opened;
}

/** The page's player position, carried to the moment `at` (epoch ms; one clock: the pages share the machine's). */
async function positionAt(target: Page, at: number): Promise<{ position: number; paused: boolean }> {
  const sample = await target.evaluate(() => {
    const media = document.querySelector<HTMLAudioElement>("[data-testid=tt-player-media]");
    return { now: Date.now(), position: media?.currentTime ?? Number.NaN, paused: media?.paused ?? true };
  });
  return { position: sample.position + (at - sample.now) / 1000, paused: sample.paused };
}

async function listenInSync(target: Page): Promise<void> {
  const listen = target.getByRole("button", { name: "Listen in sync" });
  // The browser may have started the audio by itself; otherwise the listener starts it.
  await Promise.race([
    listen.waitFor({ timeout: 15_000 }).then(() => listen.click()),
    target.waitForFunction(
      () => !document.querySelector<HTMLAudioElement>("[data-testid=tt-player-media]")?.paused,
      undefined,
      { timeout: 15_000 },
    ),
  ]).catch(() => undefined);
  await target
    .waitForFunction(
      () => {
        const media = document.querySelector<HTMLAudioElement>("[data-testid=tt-player-media]");
        return media !== null && !media.paused && media.currentTime > 0.5;
      },
      undefined,
      { timeout: 30_000 },
    )
    .catch(async (error: unknown) => {
      // What the player says, for the failure's message.
      const state = await target.evaluate(() => {
        const media = document.querySelector<HTMLAudioElement>("[data-testid=tt-player-media]");
        return {
          status: document.querySelector(".tt-player")?.getAttribute("data-status"),
          alerts: [...document.querySelectorAll("[role=alert]")].map((node) => node.textContent),
          buttons: [...document.querySelectorAll("button")].map((node) => node.textContent),
          paused: media?.paused,
          time: media?.currentTime,
          readyState: media?.readyState,
          error: media?.error?.code,
        };
      });
      await shot(target, "failed-listen");
      throw new Error(`the player did not play: ${JSON.stringify(state)}; ${problems.join("; ")}`, { cause: error });
    });
}

beforeAll(async () => {
  web = await webSetup();
}, 300_000);

afterAll(async () => {
  await web?.close();
});

describe("the live room in the browser", () => {
  it(
    "a DJ plays, a listener hears it in sync, a guest sees it, a like and chat cross, the next DJ follows, a kick shows out",
    async () => {
      const started = Date.now();
      const admin = await web.platform.adminToken();
      const dj = await account();
      const listener = await account();
      // The DJ uploads a short song (the upload service packages it into HLS), and both DJs queue it.
      await web.api("PUT", `/api/user-service/users/${dj.uuid}/capabilities/uploadMusic`, {}, admin);
      const form = new FormData();
      form.append("public", "true");
      const audio = await makeAudio({ seconds: SONG_SECONDS, title: `Live ${STAMP}`, artist: "Journey" });
      form.append("file", new Blob([audio as Uint8Array<ArrayBuffer>], { type: "audio/mpeg" }), "song.mp3");
      const upload = await fetch(`${web.url}/api/room-service/upload/song`, {
        method: "POST",
        headers: { authorization: `Bearer ${dj.token}` },
        body: form,
      });
      expect(upload.status).toBe(200);
      const songId = String(((await upload.json()) as { songId: string }).songId);
      await eventually(
        "the song packaged",
        async () =>
          (await web.api("GET", `/api/room-service/songs/${songId}`, undefined, dj.token)).status === "VERIFIED",
        { timeoutMs: 60_000 },
      );
      for (const who of [dj, listener]) {
        await web.api(
          "POST",
          "/api/playlist-service/crate/special/queue/songs",
          {
            songs: [
              {
                trackName: `Live ${STAMP}`,
                artistName: "Journey",
                duration: SONG_SECONDS,
                musicProviders: { uploadService: songId },
              },
            ],
          },
          who.token,
        );
        await eventually(
          "the queued song's stream",
          async () => {
            const queue = await web.api(
              "GET",
              "/api/playlist-service/crate/special/queue/songs?limit=5",
              undefined,
              who.token,
            );
            const songs = (queue.songs ?? []) as { streamUrls?: Record<string, { hls?: string }> }[];
            return songs[0]?.streamUrls?.["uploadService"]?.hls;
          },
          { timeoutMs: 60_000 },
        );
      }
      const created = await web.api(
        "POST",
        "/api/room-service/rooms/infrastructure",
        { name: `Live room ${STAMP}`, numberOfDjs: 2 },
        dj.token,
      );
      const room = created.room as { uuid: string; slug: string };
      const roomUrl = `${web.url}/room/r/${room.slug}?lang=en`;

      const djPage = await page("dj", dj);
      const listenerPage = await page("listener", listener);
      const guestPage = await page("guest");
      for (const opened of [djPage, listenerPage, guestPage]) await opened.goto(roomUrl);
      for (const [name, opened] of [
        ["dj", djPage],
        ["listener", listenerPage],
        ["guest", guestPage],
      ] as const) {
        await opened
          .getByRole("list", { name: "DJ booth" })
          .waitFor()
          .catch(async (error: unknown) => {
            await shot(opened, `failed-join-${name}`);
            const text = (await opened.locator("main").textContent())?.slice(0, 400);
            throw new Error(`the ${name}'s page shows no booth: ${text}; ${problems.join("; ")}`, { cause: error });
          });
        await opened.getByRole("region", { name: "Live stage" }).getByText("Connected", { exact: true }).waitFor();
      }

      // The DJ takes a seat: their queue's top song plays, for everyone.
      await djPage.getByRole("button", { name: "Take a seat" }).click();
      for (const opened of [djPage, listenerPage, guestPage]) {
        await expect
          .poll(() => opened.getByTestId("live-title").textContent(), { timeout: 20_000 })
          .toBe(`Live ${STAMP}`);
      }
      expect(await guestPage.getByText("Sign in to take a DJ seat.").count()).toBe(1);
      expect(await guestPage.getByRole("button", { name: "Take a seat" }).count()).toBe(0);
      expect(await guestPage.getByRole("button", { name: /^Like/ }).isDisabled()).toBe(true);

      // The listener hears it where the DJ is, and where the server's clock says the song is.
      await Promise.all([listenInSync(djPage), listenInSync(listenerPage)]);
      const stage = await web.api("GET", `/api/social-service/rooms/${room.uuid}/stage`, undefined, dj.token);
      const play = (stage as { play: { startedAt: string; playId: string } }).play;
      const startedAt = Date.parse(play.startedAt);
      const sample = async () => {
        const at = Date.now();
        const [a, b] = await Promise.all([positionAt(djPage, at), positionAt(listenerPage, at)]);
        const server = (at - startedAt) / 1000;
        return { dj: a.position - server, listener: b.position - server, between: b.position - a.position };
      };
      // Both players converge on the server's clock (a page that started late, or was held up by a busy machine —
      // axe checks the room beside the journey — catches up by its rate nudge); then the figures are sampled.
      await expect
        .poll(
          async () => {
            const drift = await sample();
            return Math.max(Math.abs(drift.dj), Math.abs(drift.listener));
          },
          { timeout: 8_000, interval: 400 },
        )
        .toBeLessThanOrEqual(DRIFT_TARGET_S);
      const drifts: { dj: number; listener: number; between: number }[] = [];
      for (let i = 0; i < 5; i += 1) {
        // Give drift correction a moment between samples (a wait for the next correction tick, not a sync).
        await listenerPage.waitForTimeout(400);
        drifts.push(await sample());
      }
      const median = (values: number[]) => values.sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
      const figures = {
        djVsServer: median(drifts.map((d) => Math.abs(d.dj))),
        listenerVsServer: median(drifts.map((d) => Math.abs(d.listener))),
        listenerVsDj: median(drifts.map((d) => Math.abs(d.between))),
      };
      process.stdout.write(`live room drift (s, median of 5): ${JSON.stringify(figures)}\n`);
      expect(figures.listenerVsDj).toBeLessThanOrEqual(DRIFT_TARGET_S);
      expect(figures.listenerVsServer).toBeLessThanOrEqual(DRIFT_TARGET_S);
      await shot(listenerPage, "01-listener-in-sync");

      // The room as a place (issue 25): a design change in the settings reaches every open page on the join stream
      // and redraws the venue; pictures at a desktop's and a phone's width, nothing wider than the phone.
      for (const design of ["FESTIVAL", "THEATER", "YACHT"]) {
        await web.api("PATCH", `/api/room-service/rooms/${room.uuid}`, { design }, dj.token);
        for (const opened of [djPage, listenerPage, guestPage]) {
          await opened.locator(`.tt-venue[data-design="${design}"] svg[data-scene="${design}"]`).waitFor();
        }
        await listenerPage.setViewportSize({ width: 1280, height: 800 });
        await listenerPage.locator(".tt-live-grid:not(.tt-live-grid--phone)").waitFor();
        await shot(listenerPage, `04-venue-${design.toLowerCase()}-desktop`);
        await listenerPage.setViewportSize({ width: 390, height: 844 });
        await listenerPage.getByRole("tablist", { name: "The room's panels" }).waitFor();
        expect(await listenerPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await shot(listenerPage, `05-venue-${design.toLowerCase()}-phone`);
        process.stdout.write(`live room venue: ${design} drawn (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
      }
      await listenerPage.setViewportSize({ width: 1280, height: 1000 });
      // The DJ's avatar in the booth is named by their nickname on every page.
      // (The nickname: the address before the @ when none was given.)
      const djName = dj.email.split("@")[0]!;
      for (const opened of [listenerPage, guestPage]) {
        await opened.getByRole("list", { name: "DJ booth" }).getByRole("button", { name: djName }).waitFor();
      }

      // A like crosses from the listener to the DJ, whose page shows the listener dancing.
      await listenerPage.getByRole("button", { name: /^Like/ }).click();
      await djPage.getByRole("button", { name: "Like · 1 like" }).waitFor();
      await djPage.locator(`.tt-crowd__spot[data-user="${listener.uuid}"][data-dancing="true"]`).waitFor();

      // A chat message crosses from the listener to the DJ and the guest (who may read, not send).
      const line = `Nice tune ${STAMP}`;
      await listenerPage.getByLabel("Say something…").fill(line);
      await listenerPage.getByRole("button", { name: "Send" }).click();
      await djPage.getByTestId("chat-message").filter({ hasText: line }).waitFor();
      await guestPage.getByTestId("chat-message").filter({ hasText: line }).waitFor();
      expect(await guestPage.getByLabel("Say something…").count()).toBe(0);

      // The listener takes the second seat; when the DJ's song ends, theirs starts.
      await listenerPage.getByRole("button", { name: "Take a seat" }).click();
      await listenerPage.getByRole("button", { name: "Leave the seat" }).waitFor();
      // The room is told (issue 25): a system line in the room chat, not a stored message.
      const listenerName = listener.email.split("@")[0]!;
      for (const opened of [djPage, guestPage]) {
        await opened
          .getByTestId("chat-activity")
          .filter({ hasText: `${listenerName} took a DJ seat` })
          .waitFor();
      }
      await djPage
        .locator(`.tt-live-seat[data-user="${listener.uuid}"][aria-current="true"]`)
        .waitFor({ timeout: SONG_SECONDS * 1000 + 15_000 });
      // A new play (the DJ's, read from the stage at the start, may have ended while the venue's pictures were taken).
      expect(await djPage.locator(".tt-live-now").getAttribute("data-play")).not.toBe(play.playId);
      await guestPage.locator(`.tt-live-seat[data-user="${listener.uuid}"][aria-current="true"]`).waitFor();
      await shot(guestPage, "02-guest-next-dj");

      // The owner kicks the listener: their page shows them out, with the details.
      await web.api(
        "POST",
        "/api/room-service/roomUserRoles/kick-user-from-room",
        { roomId: room.uuid, userId: listener.uuid },
        dj.token,
      );
      const notice = listenerPage.getByRole("alert").filter({ hasText: "You were removed from this room" });
      await notice.waitFor();
      // Who kicked them, by nickname (the address before the @ when none was given), never by id.
      await notice.getByText(`By ${dj.email.split("@")[0]}`).waitFor();
      expect(await notice.textContent()).not.toContain(dj.uuid);
      expect(await listenerPage.getByRole("list", { name: "DJ booth" }).count()).toBe(0);
      await shot(listenerPage, "03-kicked");
      // Everyone else is told the listener was kicked.
      for (const opened of [djPage, guestPage]) {
        await opened
          .getByTestId("chat-activity")
          .filter({ hasText: `${listenerName} was kicked from the room` })
          .waitFor();
      }

      expect(problems).toEqual([]);
      process.stdout.write(`live room journey: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      for (const opened of [djPage, listenerPage, guestPage]) await opened.context().close();
    },
    // (Issue 25's venue pictures add three designs at two widths.)
    JOURNEY_TIMEOUT + 150_000,
  );
});
