import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** One entry of a user's contact book: a keyed hash and the user it matched at upload. */
export const ContactBookEntrySchema = defineEntity({
  name: "ContactBookEntry",
  tableName: "contact_book_entry",
  uniques: [{ properties: ["userId", "hash"] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    userId: p.uuid(),
    /** phone or email. */
    kind: p.string().length(8),
    /** Hex HMAC-SHA-256 of the normalized value under the contact key; never the value itself. */
    hash: p.string().length(64),
    matchedUserId: p.uuid().nullable().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class ContactBookEntry extends ContactBookEntrySchema.class {}
ContactBookEntrySchema.setClass(ContactBookEntry);
