// Browser journey of issue 12: a user with the uploadMusic capability uploads a generated audio file in the crates
// app, sees the upload and packaging progress, completes the missing title and artist, waits for VERIFIED and
// previews the song with the web kit's player (hls.js, AES-128 segments, the key fetched with the listener's
// token). The platform runs in one process (startAllInOne) with the frontends mounted in the gateway; headless
// Chromium (Debian's) drives it. Screenshots go to test-artifacts/web-upload/.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN } from "./support/platform.ts";
import { screenshots, webSetup, type WebSetup } from "./support/web.ts";

const shot = screenshots("web-upload");
// The FFmpeg binary the @ffmpeg-installer/linux-x64 package ships (no system FFmpeg needed).
const FFMPEG = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@ffmpeg-installer/linux-x64/package.json")),
  "ffmpeg",
);
// FFmpeg packages three qualities of a 5-second file on a shared 2-core machine: seconds, with room to spare.
const VERIFIED_TIMEOUT = 120_000;

let web: WebSetup;
let platform: { url: string };
let browser: Browser;
let workDir: string;
let tonePath: string;

async function api(method: string, url: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(platform.url + url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), "tt-web-upload-"));
  // A 5-second 440 Hz tone as MP3 with no tags at all: the song will miss its title and artist.
  tonePath = path.join(workDir, "tone.mp3");
  execFileSync(FFMPEG, [
    ...["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=5"],
    ...["-map_metadata", "-1", "-c:a", "libmp3lame", "-b:a", "128k", "-y", tonePath],
  ]);
  expect(readFileSync(tonePath).length).toBeGreaterThan(10_000);
  // The shared web platform packages with this same bundled FFmpeg (the upload service's default).
  web = await webSetup();
  ({ platform, browser } = web);
}, 300_000);

afterAll(async () => {
  await web?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe("web upload journey", () => {
  it(
    "uploads a generated file, completes its details, waits for VERIFIED and previews it",
    async () => {
      // An uploader: a new account given the uploadMusic capability by the admin.
      const email = `uploader-${Date.now()}@example.test`;
      const password = "correct-horse-1";
      const signUp = await api("POST", "/api/user-service/users/sign-up", { email, password });
      expect(signUp.status).toBe(200);
      const uuid = (signUp.body.user as { uuid: string }).uuid;
      const admin = await api("POST", "/api/user-service/auth/login", ADMIN);
      const adminToken = (admin.body.accessToken as { token: string }).token;
      const grant = await api("PUT", `/api/user-service/users/${uuid}/capabilities/uploadMusic`, {}, adminToken);
      expect(grant.status).toBe(200);

      const page: Page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const problems: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(`console: ${message.text()}`);
      });
      page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
      // What the player fetched of the song's media, with the status each answered.
      const mediaRequests: string[] = [];
      page.on("response", (response) => {
        const { pathname } = new URL(response.url());
        if (pathname.startsWith("/api/upload-service/media/")) mediaRequests.push(`${response.status()} segment`);
        else if (/\/songs\/(hls\/key|\d+\/hls-playlist|\d+\/hls\/\w+)$/.test(pathname)) {
          mediaRequests.push(`${response.status()} ${pathname.replace(/\/\d+\//, "/{id}/")}`);
        }
      });
      try {
        await page.goto(`${platform.url}/login?lang=en`);
        await page.getByLabel("E-mail").fill(email);
        await page.getByLabel("Password").fill(password);
        await page.getByRole("button", { name: "Log in" }).click();
        await page.getByTestId("signed-in-user").waitFor();

        await page.goto(`${platform.url}/crates/uploads?lang=en`);
        await page.getByRole("heading", { name: "Upload music" }).waitFor();
        await page.getByLabel("Audio file").setInputFiles(tonePath);
        await page.getByRole("button", { name: "Upload", exact: true }).click();

        // No title or artist in the file: the song waits for them.
        const status = page.getByTestId("upload-status");
        // The status in words (the kit's names for the upload statuses).
        await status.filter({ hasText: "Needs details" }).waitFor({ timeout: 30_000 });
        expect(await page.getByRole("progressbar", { name: "Upload progress" }).getAttribute("value")).toBe("100");
        await shot(page, "01-missing-metadata");
        await page.getByLabel("Title", { exact: true }).fill("Journey tone");
        await page.getByLabel("Artist", { exact: true }).fill("The Oscillators");
        await page.getByRole("button", { name: "Save details" }).click();

        // Polled, so that a failure names the state the song was left in.
        await expect
          .poll(() => status.getAttribute("data-status"), { timeout: VERIFIED_TIMEOUT, interval: 500 })
          .toBe("VERIFIED");
        expect(await status.textContent()).toBe("Ready");
        await shot(page, "02-verified");

        // "Your uploads" lists it; its preview plays through the kit's player.
        const list = page.getByRole("list", { name: "Your uploaded songs" });
        await list.getByRole("button", { name: "Preview Journey tone" }).click();
        const media = page.getByLabel("Preview of Journey tone");
        await media.waitFor();
        await page.waitForFunction(
          () => {
            const element = document.querySelector<HTMLMediaElement>('[data-testid="tt-player-media"]');
            return element !== null && element.currentTime > 1;
          },
          undefined,
          { timeout: 30_000 },
        );
        const position = await media.evaluate((element) => (element as HTMLMediaElement).currentTime);
        expect(position).toBeGreaterThan(1);
        await shot(page, "03-preview");
        expect(await page.getByRole("alert").count()).toBe(0);
        // hls.js fetched the master and a quality's playlist and the key with the listener's token (200, not 401),
        // and decrypted segments: the element's clock only runs on decoded audio.
        expect(mediaRequests).toContain("200 /api/room-service/songs/{id}/hls-playlist");
        expect(mediaRequests).toContain("200 /api/upload-service/songs/{id}/hls/medium");
        expect(mediaRequests).toContain("200 /api/room-service/songs/hls/key");
        expect(mediaRequests).toContain("200 segment");
        expect(mediaRequests.filter((line) => !line.startsWith("200 "))).toEqual([]);
        expect(problems).toEqual([]);
      } catch (error) {
        await shot(page, "99-failure");
        throw error;
      } finally {
        await page.close();
      }
    },
    VERIFIED_TIMEOUT + 90_000,
  );
});
