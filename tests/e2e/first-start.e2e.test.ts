// issue 9 defect 13: `npm start` on a fresh clone must not announce a URL whose pages are broken. The real
// start command (`npm start`, the README's) runs here from a clean state: WEB_DIST_ROOT points it at a temporary
// copy of five tiny web apps without any dist folder, so their (real, webpack) builds are quick. Whenever /readyz
// says ready, and when the URL is printed, every app must already be built and the page must answer 200. Stopping
// npm (as a process manager or a closed terminal does) stops the platform: the script execs node, or npm's signal
// would reach only the shell it runs the script in, and the platform would go on without it.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort } from "@tt/kit";
import { createTestDatabase, removeDeploymentFromNats, uniqueDeploymentName } from "@tt/kit/testing";

const root = path.resolve(import.meta.dirname, "../..");
const APPS = ["shell", "room", "crates", "shop", "admin"];

/** A tiny webpack project that writes main.js and an index.html, like the real apps (no HTML plugin needed). */
function makeApp(dir: string, name: string): void {
  mkdirSync(path.join(dir, name, "src"), { recursive: true });
  writeFileSync(path.join(dir, name, "src", "index.ts"), `document.title = ${JSON.stringify(name)};\n`);
  writeFileSync(
    path.join(dir, name, "webpack.config.cjs"),
    `const page = "<!doctype html><title>${name}</title><script src=\\"/main.js\\"></script>";
module.exports = {
  entry: "./src/index.ts",
  output: { path: __dirname + "/dist", filename: "main.js", clean: true },
  plugins: [{
    apply(compiler) {
      const { Compilation, sources } = compiler.webpack;
      compiler.hooks.thisCompilation.tap("page", (compilation) =>
        compilation.hooks.processAssets.tap({ name: "page", stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () =>
          compilation.emitAsset("index.html", new sources.RawSource(page)),
        ),
      );
    },
  }],
};
`,
  );
}

const built = (dir: string) =>
  APPS.every(
    (app) =>
      existsSync(path.join(dir, app, "dist", "index.html")) && existsSync(path.join(dir, app, "dist", ".build-stamp")),
  );

let webRoot: string;
let dropDatabase: () => Promise<void>;
let databaseUrl: string;
const deployment = uniqueDeploymentName("first-start");

beforeAll(async () => {
  webRoot = mkdtempSync(path.join(tmpdir(), "tt-first-start-"));
  for (const app of APPS) makeApp(webRoot, app);
  const db = await createTestDatabase(inject("databaseUrl"));
  dropDatabase = db.drop;
  databaseUrl = db.url;
});

afterAll(async () => {
  rmSync(webRoot, { recursive: true, force: true });
  await dropDatabase?.();
  await removeDeploymentFromNats(inject("natsUrl"), deployment);
});

describe("issue 9 defect 13: the first start", () => {
  it("announces the URL, and says ready, only once every web app is built and the page works", async () => {
    expect(APPS.some((app) => existsSync(path.join(webRoot, app, "dist")))).toBe(false);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawn("npm", ["start"], {
      cwd: root,
      // A process group of its own: whatever npm leaves running is found and ended below.
      detached: true,
      env: {
        PATH: process.env.PATH ?? "",
        // npm asks the registry whether it has a newer version; the test needs no network.
        npm_config_update_notifier: "false",
        HOST: "127.0.0.1",
        PORT: String(port),
        LOG_LEVEL: "info",
        DATABASE_URL: databaseUrl,
        NATS_URL: inject("natsUrl"),
        DEPLOYMENT_NAME: deployment,
        WEB_DIST_ROOT: webRoot,
        // What the start writes besides the database (the resident DJ's state file, issue 26) stays out of the checkout.
        DATA_DIR: path.join(webRoot, "data"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = once(child, "exit");
    let output = "";
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    // The moment the URL is printed, every app must be on disk: checked right in the data handler.
    const announced = new Promise<boolean>((resolve) => {
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes(`turntable is listening on ${url}`)) resolve(built(webRoot));
      });
      void exited.then(() => resolve(false));
    });
    let announcedBuilt: boolean | undefined;
    void announced.then((value) => (announcedBuilt = value));
    try {
      // Until the URL is printed: a ready /readyz is never seen before every app is built.
      const readyWhileUnbuilt: number[] = [];
      await expect
        .poll(
          async () => {
            if (child.exitCode !== null) throw new Error(`the start command exited:\n${output}`);
            const status = await fetch(`${url}/readyz`).then(
              (res) => res.status,
              () => 0,
            );
            if (status === 200 && !built(webRoot)) readyWhileUnbuilt.push(status);
            return announcedBuilt !== undefined;
          },
          { timeout: 120_000, interval: 100 },
        )
        .toBe(true);
      expect(announcedBuilt, output).toBe(true);
      expect(readyWhileUnbuilt).toEqual([]);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      const page = await fetch(`${url}/`, { headers: { accept: "text/html" } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<title>shell</title>");
      expect((await fetch(`${url}/remotes/room/main.js`)).status).toBe(200);
      // A newcomer sees what is going on: the build's progress comes before the URL.
      expect(output.indexOf("building shell")).toBeGreaterThanOrEqual(0);
      expect(output.indexOf("building shell")).toBeLessThan(output.indexOf("turntable is listening on"));
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
    try {
      // npm is gone, and so is the platform it started.
      await expect(fetch(`${url}/readyz`)).rejects.toThrow();
    } finally {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // Nothing of the group is left.
      }
    }
  }, 180_000);
});
