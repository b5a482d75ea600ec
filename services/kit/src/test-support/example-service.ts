// The throwaway example service of docs/new-service.md, kept as the kit's own test fixture: one entity, one
// migration, a REST rule per RPC, one event and one call to another service, built only from what the kit
// gives every service. A new service starts as a copy of this file split into its places (entity, migration,
// routes, definition). Its tests: services/kit/src/testing/service-harness.test.ts (alone) and
// tests/service-calls/user-service-calls.test.ts (with the user service it calls).
import { randomUUID } from "node:crypto";
import { Code, ConnectError, type Client, type ServiceImpl } from "@connectrpc/connect";
import type { MigrationObject } from "@mikro-orm/core";
import { defineEntity, p } from "@mikro-orm/core";
import { Migration } from "@mikro-orm/migrations";
import { NoteAddedSchema } from "@tt/proto/tt/example/v1/events_pb";
import { ExampleService } from "@tt/proto/tt/example/v1/example_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { OutboxMessageSchema, outboxMigration } from "../bus/outbox.ts";
import { publishEvent } from "../bus/events.ts";
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

// migrations/20261124000000-notes.ts (written by hand or by `orm.migrator.create()`, then checked in)
class Migration20261124000000 extends Migration {
  override up(): void {
    this.addSql(
      `create table "note" ("id" uuid primary key, "author" uuid not null, "text" varchar(200) not null, ` +
        `"created_at" timestamptz not null)`,
    );
    this.addSql(`create index "note_author_index" on "note" ("author")`);
  }
}
const noteMigration: MigrationObject = { name: "Migration20261124000000", class: Migration20261124000000 };

// routes/notes.ts (`users` is absent only in the kit's runServiceMain test, whose stand-in calls nobody)
export function noteRoutes(users?: Client<typeof ProfileService>): ServiceImpl<typeof ExampleService> {
  return {
    async addNote(req, ctx) {
      // The access option already admitted only user tokens; the input rules already held max_length.
      const author = callIdentity(ctx).subject;
      const em = callEm(ctx);
      const note = em.create(Note, { id: randomUUID(), author, text: req.text });
      // Stored by the same flush (one transaction) as the note; the host's relay publishes it afterwards.
      publishEvent(em, NoteAddedSchema, { id: note.id, author });
      await em.flush();
      return { note: { id: note.id, author, text: note.text }, count: await em.count(Note, { author }) };
    },
    async getNote(req, ctx) {
      // The field rule (uuid) already refused anything else.
      const note = await callEm(ctx).findOne(Note, { id: req.id });
      if (!note) throw new ConnectError("note not found", Code.NotFound);
      if (!users) throw new ConnectError("the user service is not configured", Code.Unimplemented);
      // A service-only RPC of the user service, with this service's own token; the call ends with the caller's.
      // Its errors (404 for an unknown author, 503 while it is away) reach the caller as they are.
      const { user } = await users.getServiceUserProfile({ id: note.author }, { signal: ctx.signal });
      return {
        note: { id: note.id, author: note.author, text: note.text },
        authorNickname: user?.profile?.nickname ?? "",
      };
    },
  };
}

// src/index.ts
export const exampleServiceDefinition: ServiceDefinition = {
  name: "example",
  services: [ExampleService],
  // The outbox's entity and migration: listing them is all a service does for its events (the host creates
  // the stream TT_EXAMPLE and runs the relay).
  entities: [NoteSchema, OutboxMessageSchema],
  migrations: [noteMigration, outboxMigration("example")],
  async create(deps) {
    // In create: a missing USER_SERVICE_URL (when the user service is not in this process) fails the start.
    const users = deps.clients.get(ProfileService);
    return { routes: (router) => router.service(ExampleService, noteRoutes(users)) };
  },
};
