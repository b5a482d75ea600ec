import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** A season runs from its seasonStart until the next season's. */
export const SeasonSchema = defineEntity({
  name: "Season",
  tableName: "season",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    seasonName: p.string().length(100).unique(),
    seasonStart: p.datetime().unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class Season extends SeasonSchema.class {}
SeasonSchema.setClass(Season);
