import { Code } from "@connectrpc/connect";
import { MerchService } from "@tt/proto/tt/merch/v1/merch_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CustomField } from "../modules/misc/custom-field.entity.ts";
import { createMerchHarness, refusal, type MerchHarness } from "../testing/merch-harness.ts";

let h: MerchHarness;
let admin: string;

beforeAll(async () => {
  h = await createMerchHarness();
  admin = (await h.user("admin")).token;
});
afterAll(() => h?.close());

describe("hello, custom fields, error-reporting test", () => {
  it("answers the hello check without a token", async () => {
    expect(await h.client(MerchService).hello({})).toMatchObject({ service: "merch-service" });
  });

  it("admins set, replace and delete a user's custom field; others are refused", async () => {
    const u = await h.user();
    const a = h.client(MerchService, { token: admin });
    await a.setCustomField({ userUuid: u.uuid, key: "tier", value: "gold" });
    await a.setCustomField({ userUuid: u.uuid, key: "tier", value: "platinum" });
    const rows = await h.orm.em.fork().find(CustomField, { userUuid: u.uuid });
    expect(rows.map((r) => [r.key, r.value])).toEqual([["tier", "platinum"]]);
    await a.deleteCustomField({ userUuid: u.uuid, key: "tier" });
    expect(await refusal(a.deleteCustomField({ userUuid: u.uuid, key: "tier" }))).toMatchObject({
      code: Code.NotFound,
      message: "custom field not found",
    });
    expect((await refusal(a.setCustomField({ userUuid: u.uuid, key: "bad key!", value: "" }))).code).toBe(
      Code.InvalidArgument,
    );
    const mine = h.client(MerchService, { token: u.token });
    expect((await refusal(mine.setCustomField({ userUuid: u.uuid, key: "tier", value: "x" }))).code).toBe(
      Code.Unauthenticated,
    );
  });

  it("the error-reporting test answers reported for admins only", async () => {
    expect((await h.client(MerchService, { token: admin }).sentryTesting({})).reported).toBe(true);
    const u = await h.user();
    expect((await refusal(h.client(MerchService, { token: u.token }).sentryTesting({}))).code).toBe(
      Code.Unauthenticated,
    );
  });
});
