import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

export const ConsumableSchema = defineEntity({
  name: "Consumable",
  tableName: "consumable",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    name: p.string().length(100),
    tokenCost: p.integer(),
    fileId: p.uuid().nullable(),
    createdAt: p
      .datetime()
      .onCreate(() => new Date())
      .index(),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export class Consumable extends ConsumableSchema.class {}
ConsumableSchema.setClass(Consumable);
