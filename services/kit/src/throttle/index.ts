export {
  accountAndAddress,
  clientAddress,
  enforceThrottles,
  hit,
  maybePrune,
  refundThrottles,
  REMEMBERED_ACTION_SUFFIX,
  subjectAndAddress,
  throttleKey,
  throttleSql,
  TOO_MANY_REQUESTS,
  tooMany,
} from "./throttle.ts";
export type { ThrottleCheck, ThrottleRule, ThrottleTables } from "./throttle.ts";
export { THROTTLE_MIGRATION_NAME, throttleMigration } from "./migration.ts";
export { ThrottleWindow, ThrottleWindowSchema } from "./throttle-window.entity.ts";
