import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { serviceNames } from "@tt/platform/catalogue";

/** How the backend suites run, in both modes: in Node, against real PostgreSQL and NATS. */
const backend = {
  environment: "node",
  // A worker runs its files one after another in one module graph, not each in a fresh process that loads
  // MikroORM, Connect, the generated code and the services again: on two cores that loading was most of the unit
  // suites' time (record 0345). A file cleans up after itself (a platform it starts, a guard it installs, fake
  // timers); services/kit/src/process-guards.test.ts fails when a guard outlives its runner.
  isolate: false,
  // Finds or starts PostgreSQL and NATS, and the run's shared platforms, web build and Chromium.
  globalSetup: ["tests/setup/global-setup.ts"],
  // Setup files run for each test file: the browser journeys' accessibility checks report per file.
  setupFiles: ["tests/setup/axe-hooks.ts"],
  testTimeout: 30_000,
  // expect.poll's default of 1 s is what a busy two-core machine misses (a browser journey's list that loads after
  // a click): a poll that fails takes this long, one that passes no longer than before.
  expect: { poll: { timeout: 10_000 } },
};

// Frontend component suites run in jsdom.
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on a two-core machine (CI), which left a core idle
    // while that worker imported a file or waited on what runs outside it (the shared platforms in the main
    // process, the distributed children, PostgreSQL, Chromium). At least two, and the default on more cores.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          ...backend,
          name: "backend",
          include: [
            "services/*/src/**/*.test.ts",
            "services/*/bench/**/*.test.ts",
            "gateway/src/**/*.test.ts",
            "tests/**/*.test.ts",
          ],
          hookTimeout: 60_000,
        },
      },
      {
        // Every service's end-to-end suites (tests/e2e/<service>-*.e2e.test.ts, for each service of the
        // platform's catalogue) once more, against distributed mode (one process per chart Deployment, HTTP/2
        // between gateway and services); the account suite runs in both modes by itself.
        test: {
          ...backend,
          name: "e2e-distributed",
          include: serviceNames.map((name) => `tests/e2e/${name}-*.e2e.test.ts`),
          env: { TT_E2E_MODE: "distributed" },
          // The first suite's beforeAll waits for the run's shared distributed platform (eleven processes).
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: "web",
          include: ["frontends/*/src/**/*.test.{ts,tsx}"],
          environment: "jsdom",
          // The browser APIs Radix needs that jsdom lacks (ResizeObserver, pointer capture, scrollIntoView).
          setupFiles: ["frontends/kit/src/testing/dom-setup.ts"],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
