// @vitest-environment node
import { existsSync, mkdtempSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildFrontendsIfStale, startWebBuild } from "./build-if-stale.ts";

// A real (tiny) webpack project, so the test runs the same build command the gateway start-up runs.
function makeApp(root: string, name: string): void {
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, "src"), { recursive: true });
  writeFileSync(path.join(dir, "src", "index.js"), `document.title = ${JSON.stringify(name)};\n`);
  writeFileSync(
    path.join(dir, "webpack.config.cjs"),
    `module.exports = { entry: "./src/index.js", output: { path: __dirname + "/dist", filename: "main.js", clean: true } };\n`,
  );
}

describe("buildFrontendsIfStale", () => {
  const root = mkdtempSync(path.join(tmpdir(), "tt-web-build-"));
  makeApp(root, "alpha");
  makeApp(root, "beta");

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("builds apps without a build, skips current ones and rebuilds after a source change", async () => {
    const first = await buildFrontendsIfStale({ distRoot: root, apps: ["alpha", "beta"] });
    expect(first.built.sort()).toEqual(["alpha", "beta"]);
    expect(existsSync(path.join(root, "alpha", "dist", "main.js"))).toBe(true);

    const second = await buildFrontendsIfStale({ distRoot: root, apps: ["alpha", "beta"] });
    expect(second).toEqual({ built: [], upToDate: ["alpha", "beta"] });

    const later = new Date(Date.now() + 5_000);
    utimesSync(path.join(root, "beta", "src", "index.js"), later, later);
    const third = await buildFrontendsIfStale({ distRoot: root, apps: ["alpha", "beta"] });
    expect(third).toEqual({ built: ["beta"], upToDate: ["alpha"] });
  }, 60_000);

  it("reports a failing build with webpack's output", async () => {
    makeApp(root, "broken");
    writeFileSync(path.join(root, "broken", "src", "index.js"), "import './does-not-exist.js';\n");
    await expect(buildFrontendsIfStale({ distRoot: root, apps: ["broken"] })).rejects.toThrow(/broken failed/);
  }, 60_000);

  it("issue 9 defect 13: startWebBuild is ready only once every app is built, from a clean state", async () => {
    const clean = mkdtempSync(path.join(tmpdir(), "tt-web-build-clean-"));
    try {
      makeApp(clean, "gamma");
      makeApp(clean, "delta");
      const build = startWebBuild({ distRoot: clean, apps: ["gamma", "delta"] });
      expect(build.building()).toBe(true);
      expect(build.ready()).toBe(false);
      const result = await build.done;
      expect(result.built.sort()).toEqual(["delta", "gamma"]);
      expect(build.building()).toBe(false);
      expect(build.ready()).toBe(true);
      for (const app of ["gamma", "delta"]) expect(existsSync(path.join(clean, app, "dist", "main.js"))).toBe(true);

      makeApp(clean, "broken");
      writeFileSync(path.join(clean, "broken", "src", "index.js"), "import './does-not-exist.js';\n");
      const failing = startWebBuild({ distRoot: clean, apps: ["broken"] });
      await expect(failing.done).rejects.toThrow(/broken failed/);
      expect(failing.building()).toBe(false);
      expect(failing.ready()).toBe(false);
    } finally {
      rmSync(clean, { recursive: true, force: true });
    }
  }, 60_000);
});
