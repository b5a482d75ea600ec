// The throwaway example service of docs/new-service.md, kept as the kit's own test fixture: one entity,
// one migration, one RPC with a REST rule, built only from what the kit gives every service. A new service
// starts as a copy of this file split into its places (entity, migration, routes, definition).
import { randomUUID } from "node:crypto";
import type { ServiceImpl } from "@connectrpc/connect";
import { defineEntity, p } from "@mikro-orm/core";
import { Migration } from "@mikro-orm/migrations";
import { ExampleService } from "@tt/proto/tt/example/v1/example_service_pb";
import { callEm, callIdentity } from "../call.ts";
import type { ServiceDefinition } from "../service.ts";

// modules/notes/note.entity.ts
export const NoteSchema = defineEntity({
  name: "Note",
  tableName: "note",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    author: p.uuid().index(),
    text: p.string().length(200),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class Note extends NoteSchema.class {}
NoteSchema.setClass(Note);

// migrations/Migration20261124000000.ts (written by hand or by `orm.migrator.create()`, then checked in)
class Migration20261124000000 extends Migration {
  override up(): void {
    this.addSql(
      `create table "note" ("id" uuid primary key, "author" uuid not null, "text" varchar(200) not null, ` +
        `"created_at" timestamptz not null)`,
    );
    this.addSql(`create index "note_author_index" on "note" ("author")`);
  }
}

// routes/notes.ts
export function noteRoutes(): ServiceImpl<typeof ExampleService> {
  return {
    async addNote(req, ctx) {
      // The access option already admitted only user tokens; the input rules already held max_length.
      const author = callIdentity(ctx).subject;
      const em = callEm(ctx);
      const note = em.create(Note, { author, text: req.text });
      await em.flush();
      return { note: { id: note.id, author, text: note.text }, count: await em.count(Note, { author }) };
    },
  };
}

// src/index.ts
export const exampleServiceDefinition: ServiceDefinition = {
  name: "example",
  services: [ExampleService],
  entities: [NoteSchema],
  migrations: [{ name: "Migration20261124000000", class: Migration20261124000000 }],
  async create() {
    return { routes: (router) => router.service(ExampleService, noteRoutes()) };
  },
};
