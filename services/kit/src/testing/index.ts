export { createServiceHarness } from "./service-harness.ts";
export { createTestDatabase } from "./test-database.ts";
export { createTestTokenIssuer } from "./test-tokens.ts";

export type {
  CallAs,
  ContextOptions,
  DirectCalls,
  HarnessTokens,
  ServiceHarness,
  ServiceHarnessOptions,
} from "./service-harness.ts";
export type { TestDatabase } from "./test-database.ts";
export type { TestTokenClaims, TestTokenIssuer } from "./test-tokens.ts";
