export { createTestDatabase } from "./test-database.ts";
export { createTestTokenIssuer } from "./test-tokens.ts";

export type { TestDatabase } from "./test-database.ts";
export type { TestTokenClaims, TestTokenIssuer } from "./test-tokens.ts";
