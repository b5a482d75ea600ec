import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** fanId follows the DJ djId; one row per pair (no double follow). */
export const DjFanSchema = defineEntity({
  name: "DjFan",
  tableName: "dj_fan",
  uniques: [{ properties: ["fanId", "djId"] }],
  // (djId, fanId): a DJ's fans in pages by fan id, for the notification jobs (issue 29).
  indexes: [
    { properties: ["djId", "createdAt"] },
    { properties: ["fanId", "createdAt"] },
    { properties: ["djId", "fanId"] },
  ],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    fanId: p.uuid(),
    djId: p.uuid(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class DjFan extends DjFanSchema.class {}
DjFanSchema.setClass(DjFan);
