export {
  expectEveryOperationRouted,
  expectEveryRpcImplemented,
  expectSpecificationRows,
  SAMPLE_UUID,
  SPEC_OPERATIONS_TSV,
} from "./completeness.ts";
export { eventually } from "./eventually.ts";
export { expectColumns } from "./expect-columns.ts";
export { expectMigrationsMatchEntities, migrationOrderCheck } from "./migration-checks.ts";
export { decodeBasicAuth, startFakeServer } from "./fake-http-server.ts";
export { removeDeploymentFromNats, uniqueDeploymentName } from "./nats-deployment.ts";
export { rawConnection } from "./raw-connection.ts";
export { codeAndMessageOf, codeOf, outcomeOf, refusalOf } from "./refusals.ts";
export { schemaSnapshot } from "./schema-snapshot.ts";
export { startTestNatsServer } from "../bus/test-nats-server.ts";
export { createServiceHarness } from "./service-harness.ts";
export { createTestDatabase, TEST_DATABASE_POOL_MAX } from "./test-database.ts";
export { createTestTokenIssuer } from "./test-tokens.ts";

export type {
  CallAs,
  ContextOptions,
  DirectCalls,
  HarnessTokens,
  ServiceHarness,
  ServiceHarnessOptions,
} from "./service-harness.ts";
export type { OperationMatcher } from "./completeness.ts";
export type { EventuallyOptions } from "./eventually.ts";
export type { MigrationOrderCheck } from "./migration-checks.ts";
export type { FakeAnswer, FakeHandler, FakeServer, RecordedRequest } from "./fake-http-server.ts";
export type { RawConnection } from "./raw-connection.ts";
export type { SchemaSnapshot } from "./schema-snapshot.ts";
export type { TestDatabase } from "./test-database.ts";
export type { TestTokenClaims, TestTokenIssuer } from "./test-tokens.ts";
export { serviceStructureProblems } from "./structure.ts";
export type { TestNatsServer } from "../bus/test-nats-server.ts";
