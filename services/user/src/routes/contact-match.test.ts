// MatchContacts: the room service's contact book matching, service tokens only, verified values only.
import { randomUUID } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceHarness, type ServiceHarness } from "@tt/kit/testing";
import { ContactService } from "@tt/proto/tt/user/v1/contact_service_pb";
import { userServiceDefinition } from "../index.ts";
import { Email } from "../modules/contact/email.entity.ts";
import { PhoneNumber } from "../modules/contact/phone-number.entity.ts";

let h: ServiceHarness;
const ann = randomUUID();
const bob = randomUUID();
beforeAll(async () => {
  h = await createServiceHarness(userServiceDefinition);
  const em = h.orm.em.fork();
  em.create(Email, { userId: ann, email: "ann@example.test", type: "personal", status: "VERIFIED", primary: true });
  em.create(Email, {
    userId: bob,
    email: "bob@example.test",
    type: "personal",
    status: "PENDING_VERIFICATION",
    primary: true,
  });
  em.create(PhoneNumber, { phoneNumber: "+12125550143", userId: bob, verifiedAt: new Date() });
  em.create(PhoneNumber, { phoneNumber: "+12125550144", userId: ann, verifiedAt: null });
  await em.flush();
});
afterAll(() => h?.close());

describe("MatchContacts", () => {
  it("answers the verified e-mails and phone numbers that belong to accounts, to services only", async () => {
    const client = h.client(ContactService, { token: await h.tokens.service("room") });
    const { matches } = await client.matchContacts({
      emails: ["ANN@example.test", "bob@example.test", "nobody@example.test"],
      phoneNumbers: ["+12125550143", "+12125550144"],
    });
    expect(matches.map((m) => [m.value, m.userUuid]).sort()).toEqual(
      [
        ["ann@example.test", ann],
        ["+12125550143", bob],
      ].sort(),
    );
    for (const token of [await h.tokens.user("admin"), await h.tokens.user("user")]) {
      const refused = await h
        .client(ContactService, { token })
        .matchContacts({ emails: ["ann@example.test"] })
        .catch((e: unknown) => ConnectError.from(e));
      expect((refused as ConnectError).code).toBe(Code.Unauthenticated);
    }
    const tooMany = await client
      .matchContacts({ emails: Array.from({ length: 1001 }, (_, i) => `u${i}@example.test`) })
      .catch((e: unknown) => ConnectError.from(e));
    expect((tooMany as ConnectError).rawMessage).toBe("emails must hold at most 1000 entries");
  });
});
