export { BusUnavailableError, KvConflictError } from "./bus.ts";
export type {
  Bus,
  BusMessage,
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
} from "./bus.ts";
export type { BusLogger } from "./bus-logger.ts";
export { HandBack } from "./redelivery.ts";
export {
  DEFAULT_DEPLOYMENT_NAME,
  deploymentNames,
  InvalidDeploymentNameError,
  namespacedBus,
  validateDeploymentName,
} from "./deployment.ts";
export type { DeploymentNames } from "./deployment.ts";
export { createMemoryBus } from "./memory.ts";
export type { MemoryBusOptions } from "./memory.ts";
export { createNatsBus } from "./nats.ts";
export type { NatsBusOptions } from "./nats.ts";
export {
  AGGREGATE_ID_HEADER,
  enqueue,
  EVENT_ID_HEADER,
  OCCURRED_AT_HEADER,
  OUTBOX_MIGRATION_NAME,
  OutboxMessage,
  OutboxMessageSchema,
  outboxMigration,
  outboxRecord,
  relayOutboxOnce,
  startOutboxRelay,
} from "./outbox.ts";
export type { EnqueueOptions, OutboxRecord, OutboxRelay, OutboxRelayOptions } from "./outbox.ts";
export {
  consumeEvents,
  eventDeclaration,
  eventRecord,
  eventStreamOf,
  markProcessed,
  PROCESSED_EVENTS_MIGRATION_NAME,
  ProcessedEvent,
  ProcessedEventSchema,
  processedEventsMigration,
  publishEvent,
} from "./events.ts";
export type { ConsumeEventsOptions, EventContext, EventDeclaration } from "./events.ts";
export { deploymentDurable } from "./deployment-durable.ts";
export type { DeploymentDurableOptions } from "./deployment-durable.ts";
export { RequestError } from "./request-error.ts";
export type { RequestFailure } from "./request-error.ts";
export { InvalidSubjectError, subject, subjectMatches, subjectsOverlap, validateSubject } from "./subject.ts";
