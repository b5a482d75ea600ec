export { KvConflictError } from "./bus.ts";
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
  SubscribeOptions,
  Subscription,
} from "./bus.ts";
export type { BusLogger } from "./bus-logger.ts";
export { createMemoryBus } from "./memory.ts";
export type { MemoryBusOptions } from "./memory.ts";
export { createNatsBus } from "./nats.ts";
export type { NatsBusOptions } from "./nats.ts";
export { enqueue, OutboxMessage, OutboxMessageSchema, relayOutboxOnce, startOutboxRelay } from "./outbox.ts";
export type { OutboxRelay, OutboxRelayOptions } from "./outbox.ts";
export { RequestError } from "./request-error.ts";
export type { RequestFailure } from "./request-error.ts";
export { InvalidSubjectError, subject, subjectMatches, subjectsOverlap, validateSubject } from "./subject.ts";
