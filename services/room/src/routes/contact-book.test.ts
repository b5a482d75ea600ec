// The contact book: only keyed hashes are stored, matches come from the user service (verified values only),
// one user's book is never another's, and matching contacts become friend invitations.
import { createHmac, randomUUID } from "node:crypto";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceHarness, type ServiceHarness } from "@tt/kit/testing";
import { ContactBookService } from "@tt/proto/tt/room/v1/contact_book_service_pb";
import { FriendService } from "@tt/proto/tt/room/v1/friend_service_pb";
import { userServiceDefinition } from "@tt/user-service";
import { roomServiceDefinition } from "../index.ts";
import { ContactBookEntry } from "../modules/contact-book/contact-book-entry.entity.ts";
import { refusal } from "../testing/refusal.ts";
import { testUser, type TestUser } from "../testing/people-fixtures.ts";
import { normalizeEmail, normalizePhone } from "./contact-book.ts";

const KEY = "contact-key-for-tests-0123456789abcdef";
let h: ServiceHarness;
beforeAll(async () => {
  h = await createServiceHarness(roomServiceDefinition, {
    alongside: [userServiceDefinition],
    env: { CONTACT_HASH_KEY: KEY },
  });
});
afterAll(() => h?.close());

const as = (u: TestUser) => h.client(ContactBookService, { token: u.token });
const hash = (v: string) => createHmac("sha256", KEY).update(v).digest("hex");

/** A verified e-mail of `userId` in the user service (written as the user service would after verification). */
async function verifiedEmail(userId: string, email: string) {
  await h.orm.em
    .fork()
    .execute(
      `insert into "user"."email" (id, user_id, email, type, status, "primary", created_at, updated_at) values (?, ?, ?, 'personal', 'VERIFIED', true, now(), now())`,
      [randomUUID(), userId, email],
    );
}

describe("contact book", () => {
  it("normalizes phone numbers and e-mails", () => {
    expect(normalizePhone("+1 (212) 555-0143")).toBe("+12125550143");
    expect(normalizePhone("0049 152 2345 6789")).toBe("+4915223456789");
    expect(normalizePhone("555-0143")).toBeUndefined();
    expect(normalizeEmail(" Ann@Example.TEST ")).toBe("ann@example.test");
    expect(normalizeEmail("not an email")).toBeUndefined();
  });

  it("stores only hashes with their matches; another user's book stays unreadable", async () => {
    const ann = await testUser(h);
    const bob = await testUser(h);
    const eve = await testUser(h);
    await verifiedEmail(bob.id, `bob-${bob.id.slice(0, 8)}@example.test`);
    const bobEmail = `bob-${bob.id.slice(0, 8)}@example.test`;
    const uploaded = await as(ann).uploadContactBook({
      contacts: [
        { name: "Bob", emails: [bobEmail.toUpperCase()], phoneNumbers: ["+1 212 555 0199"] },
        { name: "Nobody", emails: ["nobody@example.test"], phoneNumbers: ["12345"] },
      ],
    });
    expect(uploaded).toEqual(expect.objectContaining({ stored: 3, matched: 1, skipped: 1 }));

    const rows = await h.orm.em.fork().find(ContactBookEntry, { userId: ann.id });
    expect(rows.map((r) => r.hash).sort()).toEqual(
      [hash(bobEmail), hash("nobody@example.test"), hash("+12125550199")].sort(),
    );
    const stored = JSON.stringify(
      await h.orm.em.fork().execute(`select * from contact_book_entry where user_id = ?`, [ann.id]),
    );
    expect(stored).not.toContain("example.test");
    expect(stored).not.toContain("5550199");

    const list = await as(ann).listContactBook({});
    expect(list.total).toBe(3);
    expect(list.entries.find((e) => e.hash === hash(bobEmail))?.matchedUserId).toBe(bob.id);
    expect((await as(eve).listContactBook({})).total).toBe(0);
    expect((await as(ann).listMatchingContacts({})).contacts).toEqual([
      expect.objectContaining({ userId: bob.id, friend: false }),
    ]);
    expect((await as(eve).listMatchingContacts({})).total).toBe(0);
    await refusal(as(eve).adminListContactBook({ id: ann.id }), Code.Unauthenticated);
    const admin = await testUser(h, "admin");
    expect((await as(admin).adminListContactBook({ id: ann.id })).total).toBe(3);

    await as(ann).addContact({ contact: { emails: ["carol@example.test", "nobody@example.test"] } });
    expect((await as(ann).listContactBook({})).total).toBe(4);

    await refusal(as(eve).inviteMatchingContacts({ userIds: [bob.id] }), Code.NotFound);
    const invited = await as(ann).inviteMatchingContacts({});
    expect(invited.invitedUserIds).toEqual([bob.id]);
    expect((await as(ann).inviteMatchingContacts({})).invitedUserIds).toEqual([]);
    expect(
      (await h.client(FriendService, { token: bob.token }).listInvitationsForMe({})).invitations[0]?.fromUserId,
    ).toBe(ann.id);

    expect((await as(eve).deleteContactBook({})).deleted).toBe(0);
    expect((await as(ann).deleteContactBook({})).deleted).toBe(4);
    expect((await as(ann).listContactBook({})).total).toBe(0);
  });

  it("issue 11: a book of more than 1000 e-mails is matched in batches the user service accepts", async () => {
    const ann = await testUser(h);
    const bob = await testUser(h);
    const bobEmail = `bob-${bob.id.slice(0, 8)}@example.test`;
    await verifiedEmail(bob.id, bobEmail);
    const contacts = Array.from({ length: 1000 }, (_, i) => ({ emails: [`a${i}@big.test`, `b${i}@big.test`] }));
    contacts[999]!.emails[1] = bobEmail;
    const uploaded = await as(ann).uploadContactBook({ contacts });
    expect(uploaded).toMatchObject({ stored: 2000, matched: 1 });
  });

  it("refuses a book that is too big", async () => {
    const ann = await testUser(h);
    await refusal(
      as(ann).uploadContactBook({ contacts: Array.from({ length: 1001 }, () => ({ emails: ["a@b.test"] })) }),
      Code.InvalidArgument,
      "contacts must hold at most 1000 entries",
    );
    await refusal(
      as(ann).addContact({ contact: { emails: Array.from({ length: 11 }, (_, i) => `a${i}@b.test`) } }),
      Code.InvalidArgument,
      "contacts[0] must hold at most 10 phone numbers and e-mails",
    );
  });
});
