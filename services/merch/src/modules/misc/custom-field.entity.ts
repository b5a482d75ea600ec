import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** A named value an admin keeps on a user (specification 000 names custom fields only). */
export const CustomFieldSchema = defineEntity({
  name: "CustomField",
  tableName: "custom_field",
  uniques: [{ properties: ["userUuid", "key"] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    userUuid: p.uuid(),
    key: p.string().length(100),
    value: p.string().length(2000),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export class CustomField extends CustomFieldSchema.class {}
CustomFieldSchema.setClass(CustomField);
