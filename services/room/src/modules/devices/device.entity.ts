import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** A push device: a provider registration token owned by the user who registered it last. */
export const DeviceSchema = defineEntity({
  name: "Device",
  tableName: "device",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    userId: p.uuid().index(),
    token: p.string().length(512).unique(),
    /** ios, android or web (DevicePlatform wire names). */
    platform: p.string().length(16),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export class Device extends DeviceSchema.class {}
DeviceSchema.setClass(Device);
