// The kit's public surface: what every service needs once.
export { createCallContext, kEm, kIdentity, kLogger, kRequestId } from "./context.ts";
export { callEm, callIdentity, checkLimit, checkUuid, isUuid, loadCaller, UNAUTHORIZED } from "./call.ts";
export { DEFAULT_TOKEN_AUDIENCE, DEFAULT_TOKEN_ISSUER, TOKEN_ALG, TOKEN_TYPES, USER_ROLES } from "./auth/claims.ts";
export {
  checkSetTogether,
  ConfigError,
  envFlag,
  httpBaseUrl,
  kitConfigSchema,
  loadKitConfig,
  metricsListen,
  optionalEnvString,
  parseEnv,
  parseEnvParts,
  serverLimits,
  serviceUrlsSchema,
  unsetIfEmpty,
} from "./config.ts";
export { createCallLogger, createLogger } from "./logger.ts";
export {
  ALREADY_EXISTS_MESSAGE,
  BUS_UNAVAILABLE_MESSAGE,
  DATABASE_UNAVAILABLE_MESSAGE,
  INTERNAL_ERROR_MESSAGE,
  isDatabaseUnavailable,
  isServerFault,
  toConnectError,
  toLoggedConnectError,
} from "./errors.ts";
export { remoteKeySource } from "./auth/key-source.ts";
export { createTokenVerifier } from "./auth/verifier.ts";
export { createSessionRevocations, REVOCATIONS_BUCKET } from "./auth/revocations-kv.ts";
export { ROOM_LIVE_BUCKET } from "./bus/buckets.ts";
export { createRequestIdInterceptor, REQUEST_ID_HEADER, requestIdOf } from "./interceptors/request-id.ts";
export {
  accessRuleOf,
  assertAccessOptions,
  authorizeCall,
  bearerToken,
  createAccessInterceptor,
  createEdgeAccessCheck,
} from "./interceptors/access.ts";
export { createEntityManagerInterceptor } from "./interceptors/entity-manager.ts";
export {
  assertInputRules,
  createInputRulesInterceptor,
  inputRulesProblems,
  maxLengthOf,
} from "./interceptors/input-rules.ts";
export { allowedStringsOf, enumOfWire, inEnumOf, wireName, wireNamesOf } from "./proto/wire-enum.ts";
export { optionalTimestamp } from "./proto/timestamp.ts";
export { createMetricsInterceptor, rpcMetrics } from "./interceptors/metrics.ts";
export { createLoggingInterceptor } from "./interceptors/logging.ts";
export { initOrm, initServiceOrm, migrateUp } from "./db/orm.ts";
export { findOrInsert, insertIfMissing } from "./db/insert-if-missing.ts";
export {
  advisoryXactLock,
  advisoryXactLocks,
  sqlArray,
  autoCommitSql,
  compiledOnce,
  jsonb,
  jsonRows,
  pingDatabase,
  sql,
  tryAdvisoryXactLock,
  typedSql,
  unnestRows,
} from "./db/tables.ts";
export type { ArrayElementType, ExpressionBuilder, Kysely, Selectable, Tables } from "./db/tables.ts";
export { captureRoutes, methodKey } from "./transport/route-capture.ts";
export { createInProcessTransport, IN_PROCESS_PROTOCOL } from "./transport/in-process-transport.ts";
export { startServiceHost } from "./host.ts";
export { createServer, DEFAULT_SERVER_LIMITS } from "./transport/server.ts";
export { DIRECT_STREAM_MAX_BUFFERED, directStream, envelope, SharedMessage } from "./transport/direct-stream.ts";
export type { DirectStream, HeldCall, WireFormat } from "./transport/direct-stream.ts";
export { freePort } from "./net.ts";
export { assertValidMediaKey, MediaKeyError, mediaContentType, mediaFilePath } from "./media/files.ts";
export { createMediaHandler } from "./media/handler.ts";
export { DEMO_ACCOUNT, demoProductUuid, nameBasedUuid } from "./demo/name-uuid.ts";
export { seedOnce } from "./demo/seed-once.ts";
export { FsObjectStore, ObjectStoreError, S3ObjectStore } from "./media/object-store.ts";
export type { ObjectStore, S3ObjectStoreOptions, StoredObject } from "./media/object-store.ts";
export {
  checkMediaStore,
  createObjectStore,
  DEFAULT_MEDIA_DIR,
  mediaStoreShape,
  mediaUrl,
  type MediaStoreConfig,
} from "./media/store-config.ts";
export { runServiceMain } from "./main.ts";
export {
  createServiceTokenMinter,
  SERVICE_TOKEN_KEY_VARIABLE,
  SERVICE_TOKEN_TTL_SECONDS,
  serviceIdentityKey,
} from "./auth/service-identity.ts";
export {
  backendSession,
  clientIdleTimeoutMs,
  createBackendTransport,
  DEFAULT_READ_MAX_BYTES,
} from "./transport/http2-transport.ts";
export {
  createReplicatedTransport,
  createServiceTransport,
  DEFAULT_REPLICA_DOWN_MS,
  DEFAULT_REPLICA_MAX_DOWN_MS,
  parseServiceUrls,
  ReplicaSet,
} from "./transport/replicas.ts";
export type {
  ReplicaEndpoint,
  ReplicaSetOptions,
  ServiceTransport,
  ServiceTransportOptions,
} from "./transport/replicas.ts";
export {
  createServiceClientPool,
  DEFAULT_SERVICE_CALL_TIMEOUT_MS,
  serviceClientsEnvSchema,
  serviceNameOf,
  serviceUrlVariable,
} from "./clients/service-clients.ts";
export {
  currentRequestId,
  installProcessGuards,
  runWithRequestId,
  UNHANDLED_REJECTIONS_METRIC,
  unhandledRejectionsCounter,
} from "./process-guards.ts";
export {
  AGGREGATE_ID_HEADER,
  BusUnavailableError,
  consumeEvents,
  createMemoryBus,
  createNatsBus,
  DEFAULT_DEPLOYMENT_NAME,
  deploymentDurable,
  deploymentNames,
  enqueue,
  EVENT_ID_HEADER,
  eventDeclaration,
  eventRecord,
  eventStreamOf,
  HandBack,
  InvalidDeploymentNameError,
  InvalidSubjectError,
  KvConflictError,
  markProcessed,
  OCCURRED_AT_HEADER,
  OUTBOX_MIGRATION_NAME,
  OutboxMessage,
  OutboxMessageSchema,
  outboxMigration,
  outboxRecord,
  PROCESSED_EVENTS_MIGRATION_NAME,
  ProcessedEvent,
  ProcessedEventSchema,
  processedEventsMigration,
  publishEvent,
  relayOutboxOnce,
  RequestError,
  startOutboxRelay,
  subject,
  subjectMatches,
  subjectsOverlap,
  validateDeploymentName,
  validateSubject,
} from "./bus/index.ts";
export type { DeploymentDurableOptions } from "./bus/index.ts";

export {
  adminList,
  conditionToFilter,
  escapeLike,
  invalidQuery,
  parseAdminQuery,
  parseCondition,
} from "./admin-query/index.ts";

export type { CallContextOptions, Identity, TokenType } from "./context.ts";
export type { AdminListPage, AdminListQuery, AdminListSpec } from "./admin-query/index.ts";
export type { AccessTokenClaims, UserRole } from "./auth/claims.ts";
export type { SessionRevocations } from "./auth/revocations.ts";
export type { KitConfig } from "./config.ts";
export type { CallBindings, LoggerOptions } from "./logger.ts";
export type { KeySource, RemoteKeySourceOptions } from "./auth/key-source.ts";
export type { TokenVerifier, TokenVerifierOptions } from "./auth/verifier.ts";
export type { ManagedSessionRevocations, SessionRevocationsOptions } from "./auth/revocations-kv.ts";
export type { RequestIdInterceptorOptions } from "./interceptors/request-id.ts";
export type { AccessInterceptorOptions, AccessOptionsCheck, EdgeAccessCheckOptions } from "./interceptors/access.ts";
export type { EntityManagerInterceptorOptions } from "./interceptors/entity-manager.ts";
export type { MetricsInterceptorOptions, RpcMetrics } from "./interceptors/metrics.ts";
export type { LoggingInterceptorOptions } from "./interceptors/logging.ts";
export type { InitOrmOptions } from "./db/orm.ts";
export type { CapturedRoutes } from "./transport/route-capture.ts";
export type { InProcessTransportOptions } from "./transport/in-process-transport.ts";
export type { ServiceHost, ServiceHostOptions } from "./host.ts";
export type { NodeRequestHandler, RunningServer, ServerLimits, ServerOptions } from "./transport/server.ts";
export type { MediaHandler, MediaHandlerOptions } from "./media/handler.ts";
export type { RunServiceMainOptions } from "./main.ts";
export type { ServiceIdentityKey, ServiceTokenMinter, ServiceTokenMinterOptions } from "./auth/service-identity.ts";
export type { BackendProtocol, BackendTransportOptions } from "./transport/http2-transport.ts";
export type {
  ServiceClientOptions,
  ServiceClientPool,
  ServiceClientPoolOptions,
  ServiceClients,
} from "./clients/service-clients.ts";
export type { ProcessGuards, ProcessGuardsOptions } from "./process-guards.ts";
export type { ServiceDefinition, ServiceDeps, ServiceInstance } from "./service.ts";
export type {
  Bus,
  BusMessage,
  DeploymentNames,
  ConsumeOptions,
  DurableMessage,
  DurablePublishOptions,
  KvBucket,
  KvBucketOptions,
  KvEntry,
  KvWatchOptions,
  PublishOptions,
  StreamInfo,
  StreamOptions,
  SubscribeOptions,
  Subscription,
  BusLogger,
  MemoryBusOptions,
  NatsBusOptions,
  OutboxRecord,
  OutboxRelay,
  OutboxRelayOptions,
  RequestFailure,
  ConsumeEventsOptions,
  EnqueueOptions,
  EventContext,
  EventDeclaration,
} from "./bus/index.ts";
export { NODE_TYPESCRIPT_FLAGS } from "./node-flags.ts";
export {
  accountAndAddress,
  clientAddress,
  enforceThrottles,
  hit,
  maybePrune,
  refundThrottles,
  REMEMBERED_ACTION_SUFFIX,
  subjectAndAddress,
  THROTTLE_MIGRATION_NAME,
  throttleKey,
  throttleMigration,
  throttleSql,
  ThrottleWindow,
  ThrottleWindowSchema,
  TOO_MANY_REQUESTS,
  tooMany,
} from "./throttle/index.ts";
export type { ThrottleCheck, ThrottleRule, ThrottleTables } from "./throttle/index.ts";
