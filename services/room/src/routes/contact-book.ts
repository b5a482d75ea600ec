// The contact book (spec 001 §7): only keyed hashes (HMAC-SHA-256 under the contact key) of normalized phone
// numbers (E.164) and e-mails (lowercase) are stored, never the raw book. At upload the normalized values are
// matched once by the user service (MatchContacts, service-only: verified e-mails and phone numbers) and the
// matched user is kept beside the hash; the values are then forgotten.
import { createHmac } from "node:crypto";
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { advisoryXactLock, callEm } from "@tt/kit";
import type { ContactBookService } from "@tt/proto/tt/room/v1/contact_book_service_pb";
import type { RoomServiceContext } from "../context.ts";
import { db } from "../db.ts";
import { ContactBookEntry } from "../modules/contact-book/contact-book-entry.entity.ts";
import { FriendInvitation } from "../modules/people/friend-invitation.entity.ts";
import { Friendship } from "../modules/people/friendship.entity.ts";
import { invite } from "./friends.ts";
import { badRequest, callerId, page, ts } from "./people-shared.ts";

const MAX_CONTACTS = 1000;
const MAX_VALUES_PER_CONTACT = 10;
const MAX_INVITES = 100;
/** Values of one kind per MatchContacts call (the user service's MAX_CONTACT_MATCH_VALUES). */
const MATCH_BATCH = 1000;

/** E.164 from what a phone book holds ("+1 (212) 555-0143", "0049 152…"); undefined when there is no country. */
export function normalizePhone(raw: string): string | undefined {
  let s = raw.replace(/[\s().\-/]/g, "");
  if (s.startsWith("00")) s = `+${s.slice(2)}`;
  return /^\+[1-9][0-9]{6,14}$/.test(s) ? s : undefined;
}

export function normalizeEmail(raw: string): string | undefined {
  const s = raw.trim().toLowerCase();
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s) && s.length <= 320 ? s : undefined;
}

interface ContactLike {
  phoneNumbers: string[];
  emails: string[];
}

export function contactRoutes(svc: RoomServiceContext): ServiceImpl<typeof ContactBookService> {
  const hash = (value: string) => createHmac("sha256", svc.people.contactKey).update(value).digest("hex");

  /** Normalizes, hashes and matches the contacts; the values never leave this function. */
  async function entriesOf(ctx: HandlerContext, contacts: ContactLike[]) {
    if (contacts.length > MAX_CONTACTS) throw badRequest(`contacts must hold at most ${MAX_CONTACTS} entries`);
    const phones = new Set<string>();
    const emails = new Set<string>();
    let skipped = 0;
    contacts.forEach((c, i) => {
      if (c.phoneNumbers.length > MAX_VALUES_PER_CONTACT || c.emails.length > MAX_VALUES_PER_CONTACT) {
        throw badRequest(`contacts[${i}] must hold at most ${MAX_VALUES_PER_CONTACT} phone numbers and e-mails`);
      }
      for (const raw of c.phoneNumbers) {
        const v = normalizePhone(raw);
        if (v) phones.add(v);
        else skipped++;
      }
      for (const raw of c.emails) {
        const v = normalizeEmail(raw);
        if (v) emails.add(v);
        else skipped++;
      }
    });
    const matched = new Map<string, string>();
    // The user service takes at most MATCH_BATCH values of each kind per call.
    const emailList = [...emails];
    const phoneList = [...phones];
    for (let i = 0; i < Math.max(emailList.length, phoneList.length); i += MATCH_BATCH) {
      const { matches } = await svc.people.contacts.matchContacts(
        { emails: emailList.slice(i, i + MATCH_BATCH), phoneNumbers: phoneList.slice(i, i + MATCH_BATCH) },
        { signal: ctx.signal },
      );
      for (const m of matches) matched.set(m.value, m.userUuid);
    }
    const me = callerId(ctx);
    const entries = [
      ...[...phones].map((v) => ({ kind: "phone", value: v })),
      ...[...emails].map((v) => ({ kind: "email", value: v })),
    ].map(({ kind, value }) => {
      const user = matched.get(value);
      return { kind, hash: hash(value), matchedUserId: user && user !== me ? user : null };
    });
    return { entries, skipped };
  }

  async function store(
    em: EntityManager,
    userId: string,
    entries: { kind: string; hash: string; matchedUserId: string | null }[],
  ) {
    const existing = new Set(
      (await em.find(ContactBookEntry, { userId, hash: { $in: entries.map((e) => e.hash) } })).map((e) => e.hash),
    );
    for (const e of entries) if (!existing.has(e.hash)) em.create(ContactBookEntry, { userId, ...e });
  }

  const toMessage = (e: ContactBookEntry) => ({
    id: e.id,
    kind: e.kind,
    hash: e.hash,
    matchedUserId: e.matchedUserId ?? "",
    createdAt: ts(e.createdAt),
  });

  /** The distinct users the caller's book matched (never the caller). */
  async function matchedUsers(em: EntityManager, userId: string): Promise<string[]> {
    const rows = await db(em)
      .selectFrom("contact_book_entry")
      .select("matched_user_id")
      .distinct()
      .where("user_id", "=", userId)
      .where("matched_user_id", "is not", null)
      .orderBy("matched_user_id")
      .execute();
    return rows.map((r) => r.matched_user_id!);
  }

  return {
    async uploadContactBook(req, ctx) {
      const { entries, skipped } = await entriesOf(ctx, req.contacts);
      const userId = callerId(ctx);
      const stored = await callEm(ctx).transactional(async (em) => {
        // One change of a user's book at a time, as addContact: two replacements at once both deleted, then both
        // inserted the same entries and the second answered 409 (issue 23).
        await advisoryXactLock(em, `tt.room.contact-book:${userId}`);
        await em.nativeDelete(ContactBookEntry, { userId });
        await store(em, userId, entries);
        await em.flush();
        return em.count(ContactBookEntry, { userId });
      });
      return { stored, matched: entries.filter((e) => e.matchedUserId).length, skipped };
    },

    async addContact(req, ctx) {
      const { entries, skipped } = await entriesOf(ctx, [req.contact!]);
      const userId = callerId(ctx);
      const stored = await callEm(ctx).transactional(async (em) => {
        await advisoryXactLock(em, `tt.room.contact-book:${userId}`);
        await store(em, userId, entries);
        await em.flush();
        return em.count(ContactBookEntry, { userId });
      });
      return { stored, matched: entries.filter((e) => e.matchedUserId).length, skipped };
    },

    async deleteContactBook(_req, ctx) {
      return { deleted: await callEm(ctx).nativeDelete(ContactBookEntry, { userId: callerId(ctx) }) };
    },

    async listContactBook(req, ctx) {
      const { limit, offset } = page(req, 100);
      const [rows, total] = await callEm(ctx).findAndCount(
        ContactBookEntry,
        { userId: callerId(ctx) },
        { orderBy: { createdAt: "ASC", id: "ASC" }, limit, offset },
      );
      return { entries: rows.map(toMessage), total };
    },

    async adminListContactBook(req, ctx) {
      const { limit, offset } = page(req, 100);
      const [rows, total] = await callEm(ctx).findAndCount(
        ContactBookEntry,
        { userId: req.id.toLowerCase() },
        { orderBy: { createdAt: "ASC", id: "ASC" }, limit, offset },
      );
      return { entries: rows.map(toMessage), total };
    },

    async listMatchingContacts(req, ctx) {
      const em = callEm(ctx);
      const me = callerId(ctx);
      const { limit, offset } = page(req);
      const all = await matchedUsers(em, me);
      const slice = all.slice(offset, offset + limit);
      const friends = new Set(
        (await em.find(Friendship, { userId: me, friendId: { $in: slice } })).map((f) => f.friendId),
      );
      return { contacts: slice.map((userId) => ({ userId, friend: friends.has(userId) })), total: all.length };
    },

    async inviteMatchingContacts(req, ctx) {
      if (req.userIds.length > MAX_INVITES) throw badRequest(`userIds must hold at most ${MAX_INVITES} entries`);
      const me = callerId(ctx);
      const em = callEm(ctx);
      const matched = await matchedUsers(em, me);
      let targets = matched;
      if (req.userIds.length > 0) {
        const wanted = [...new Set(req.userIds.map((u) => u.toLowerCase()))];
        const known = new Set(matched);
        const stranger = wanted.find((u) => !known.has(u));
        if (stranger) throw new ConnectError(`user ${stranger} is not among your matching contacts`, Code.NotFound);
        targets = wanted;
      }
      const invited: string[] = [];
      for (const to of targets.slice(0, MAX_INVITES)) {
        const made = await em.transactional(async (tx) => {
          const result = await invite(tx, me, to);
          return result instanceof FriendInvitation;
        });
        if (made) invited.push(to);
      }
      return { invitedUserIds: invited };
    },
  };
}
