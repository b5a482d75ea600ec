import { randomUUID } from "node:crypto";
import { Code } from "@connectrpc/connect";
import { createServiceHarness, type ServiceHarness } from "@tt/kit/testing";
import { AuditService } from "@tt/proto/tt/audit/v1/audit_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditServiceDefinition } from "../index.ts";
import { ModerationAction } from "../modules/moderation/moderation-action.entity.ts";
import { refusal } from "../testing/poll.ts";

let h: ServiceHarness;

beforeAll(async () => {
  h = await createServiceHarness(auditServiceDefinition);
});
afterAll(() => h?.close());

const audit = (token?: string) => h.client(AuditService, token ? { token } : {});

describe("info-admin", () => {
  it("status, event names and the last recorded event for admins and staff", async () => {
    const staff = await h.tokens.user("staff");
    const status = await audit(staff).getStatus({});
    expect(status).toMatchObject({ status: "ok", service: "audit", database: true, bus: true });
    expect(status.consumers.length).toBe(8);
    expect((await audit(staff).listUserEventNames({})).names).toContain("tt.user.user.banned");
    expect((await audit(staff).listSocketEventNames({})).names).toContain("tt.room.user.kicked");
    const eventId = randomUUID();
    await h.orm.em.fork().insert(ModerationAction, {
      id: randomUUID(),
      actionType: "globalKick",
      userUuid: randomUUID(),
      sourceEventId: eventId,
      sourceSubject: "tt.user.user.kicked",
      createdAt: new Date(Date.now() + 86_400_000),
      updatedAt: new Date(),
    });
    expect(await audit(staff).getLastEvent({})).toMatchObject({ eventId, subject: "tt.user.user.kicked" });
    for (const token of [await h.tokens.user("moderator"), await h.tokens.guest(), undefined]) {
      expect((await refusal(audit(token).getStatus({}))).code).toBe(Code.Unauthenticated);
    }
  });

  it("sentry-testing is for admins only", async () => {
    expect(await audit(await h.tokens.user("admin")).sentryTesting({ message: "hello" })).toMatchObject({
      reported: true,
    });
    expect((await refusal(audit(await h.tokens.user("staff")).sentryTesting({}))).code).toBe(Code.Unauthenticated);
  });
});
