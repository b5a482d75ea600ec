import { defineEntity, p } from "@mikro-orm/core";

/**
 * A playlist import (002 §4): one per imported crate (its id is the crate's). The worker reads the provider's
 * playlist page by page and commits each page's songs together with `nextOffset` and the counts, so a worker
 * that dies resumes at the first page it did not commit and never adds a song twice.
 */
export const ImportJobSchema = defineEntity({
  name: "ImportJob",
  tableName: "import_job",
  properties: {
    crateId: p.uuid().primary(),
    userUuid: p.uuid(),
    // A tt.common.v1.MusicProvider wire value (spotify, apple).
    provider: p.string().length(32),
    playlistId: p.string().length(255),
    storefront: p.string().length(8).default("us"),
    // A CrateImportStatus wire value.
    status: p.string().length(16),
    nextOffset: p.integer().default(0),
    total: p.integer().default(0),
    processed: p.integer().default(0),
    added: p.integer().default(0),
    skipped: p.integer().default(0),
    message: p.string().length(300).default(""),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export class ImportJob extends ImportJobSchema.class {}
ImportJobSchema.setClass(ImportJob);
