import { defineConfig } from "vitest/config";

// Backend suites run against real PostgreSQL and NATS (tests/setup/global-setup.ts finds or starts them);
// frontend component suites run in jsdom.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "backend",
          include: ["services/*/src/**/*.test.ts", "gateway/src/**/*.test.ts", "tests/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/setup/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The user service's end-to-end suites once more, against distributed mode (one process per chart
        // Deployment, HTTP/2 between gateway and service); the account suite runs in both modes by itself.
        test: {
          name: "e2e-distributed",
          include: ["tests/e2e/user-*.e2e.test.ts"],
          environment: "node",
          env: { TT_E2E_MODE: "distributed" },
          globalSetup: ["tests/setup/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "web",
          include: ["frontends/*/src/**/*.test.{ts,tsx}"],
          environment: "jsdom",
          testTimeout: 30_000,
        },
      },
    ],
  },
});
