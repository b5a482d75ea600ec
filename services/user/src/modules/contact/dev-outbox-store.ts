// The dev outbox in PostgreSQL: every replica writes and lists the same messages, and they survive a restart.
import type { MikroORM } from "@mikro-orm/postgresql";
import type { DevOutbox, DevOutboxEntry } from "../../providers/dev-outbox.ts";
import { autoCommitDb } from "../../db.ts";
import { DevOutboxMessage } from "./dev-outbox-message.entity.ts";

function toEntry(row: DevOutboxMessage): DevOutboxEntry {
  const entry: DevOutboxEntry = {
    id: row.id,
    channel: row.channel === "sms" ? "sms" : "email",
    to: row.to,
    body: row.body,
    createdAt: row.createdAt,
  };
  if (row.subject !== null && row.subject !== undefined) entry.subject = row.subject;
  return entry;
}

/**
 * Keeps the newest DEV_OUTBOX_CAPACITY messages (500 by default); each add removes what falls beyond it, as a
 * dev tool may.
 */
export function createTableDevOutbox(orm: MikroORM, capacity: number): DevOutbox {
  return {
    async add(message) {
      const em = orm.em.fork();
      const row = em.create(DevOutboxMessage, {
        channel: message.channel,
        to: message.to,
        subject: message.subject ?? null,
        body: message.body,
        createdAt: new Date(),
      });
      await em.flush();
      await autoCommitDb(em)
        .deleteFrom("dev_outbox_message")
        .where("id", "in", (eb) =>
          eb
            .selectFrom("dev_outbox_message")
            .select("id")
            .orderBy("created_at", "desc")
            .orderBy("id", "desc")
            .offset(capacity),
        )
        .execute();
      return toEntry(row);
    },
    async list({ to, limit }) {
      const rows = await orm.em
        .fork()
        .find(DevOutboxMessage, to === undefined ? {} : { to }, { orderBy: { createdAt: "DESC", id: "DESC" }, limit });
      return rows.map(toEntry);
    },
  };
}
