import { defineEntity, p } from "@mikro-orm/core";

/**
 * One fixed window of a throttle key (e.g. login:ip:203.0.113.5): hits counted since windowStart. Each service
 * that throttles lists this entity and `throttleMigration(schema)`: the table lives in the service's own schema.
 */
export const ThrottleWindowSchema = defineEntity({
  name: "ThrottleWindow",
  tableName: "throttle_window",
  properties: {
    key: p.string().length(400).primary(),
    windowStart: p.datetime(),
    hits: p.integer(),
  },
});

export class ThrottleWindow extends ThrottleWindowSchema.class {}
ThrottleWindowSchema.setClass(ThrottleWindow);
