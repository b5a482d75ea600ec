// Test helpers for every frontend's component tests; never imported by application code.
export { recordAnalytics } from "./analytics-sink.ts";
export type { AnalyticsSink } from "./analytics-sink.ts";
export { MemoryStorage } from "./memory-storage.ts";
export { createTestKit, renderWithKit } from "./test-kit.tsx";
export type { TestKit, TestKitOptions } from "./test-kit.tsx";
export { createTestUserService } from "./user-service.ts";
export type { TestUserService, TestUserServiceOptions } from "./user-service.ts";
export { installFollowObserver } from "./follow-observer.ts";
