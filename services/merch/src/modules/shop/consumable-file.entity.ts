import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** An uploaded consumable file (its bytes in the object store under key). */
export const ConsumableFileSchema = defineEntity({
  name: "ConsumableFile",
  tableName: "consumable_file",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    key: p.string().length(200),
    contentType: p.string().length(64),
    size: p.integer(),
    createdBy: p.uuid(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class ConsumableFile extends ConsumableFileSchema.class {}
ConsumableFileSchema.setClass(ConsumableFile);
