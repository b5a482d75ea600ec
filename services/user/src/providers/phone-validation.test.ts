import { afterEach, describe, expect, it } from "vitest";
import { createDevPhoneValidator, createHttpPhoneValidator, normalizeE164 } from "./phone-validation.ts";
import { decodeBasicAuth, startFakeServer, type FakeHandler, type FakeServer } from "./testing/fake-http-server.ts";

describe("normalizeE164", () => {
  it.each([
    ["+1 (415) 555-2671", "+14155552671"],
    ["0044 20 7946 0958", "+442079460958"],
    ["+49.30.901820", "+4930901820"],
  ])("reads %s as %s", (input, expected) => {
    expect(normalizeE164(input)).toBe(expected);
  });

  it.each(["4155552671", "+0123456789", "+1234", "+1234567890123456", "+1 415 CALL ME", ""])("refuses %j", (input) => {
    expect(normalizeE164(input)).toBeUndefined();
  });
});

describe("HTTP phone validator (Twilio Lookup v2 shape)", () => {
  let fake: FakeServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  async function setup(handler: FakeHandler, timeoutMs = 5_000) {
    fake = await startFakeServer(handler);
    return createHttpPhoneValidator({ baseUrl: fake.url, accountSid: "AC9", authToken: "lookup-secret", timeoutMs });
  }

  const lookup = (type: string | null, valid = true) => ({
    status: 200,
    json: {
      phone_number: "+14155552671",
      country_code: "US",
      valid,
      validation_errors: valid ? [] : ["TOO_SHORT"],
      line_type_intelligence: type === null ? null : { type, carrier_name: "Carrier", error_code: null },
    },
  });

  it("asks for line type intelligence on the normalised number, with basic auth", async () => {
    const validator = await setup(() => lookup("mobile"));
    expect(await validator.validate("+1 415 555 2671")).toEqual({
      status: "VALID",
      e164: "+14155552671",
      countryCode: "US",
      carrierType: "mobile",
    });
    const [request] = fake!.requests;
    expect(request?.method).toBe("GET");
    expect(request?.path).toBe("/v2/PhoneNumbers/+14155552671");
    expect(request?.query.get("Fields")).toBe("line_type_intelligence");
    expect(decodeBasicAuth(request?.headers.authorization)).toEqual({ user: "AC9", password: "lookup-secret" });
  });

  it.each([
    ["nonFixedVoip", "VOIP"],
    ["voip", "VOIP"],
    ["fixedVoip", "VALID"],
    ["landline", "VALID"],
  ])("maps line type %s to %s", async (type, status) => {
    const validator = await setup(() => lookup(type));
    expect(await validator.validate("+14155552671")).toMatchObject({ status, carrierType: type });
  });

  it("maps valid: false and a 404 to INVALID", async () => {
    const validator = await setup(() => lookup(null, false));
    expect(await validator.validate("+14155552671")).toMatchObject({ status: "INVALID", e164: "+14155552671" });
    fake!.setHandler(() => ({ status: 404, json: { code: 20404, message: "not found" } }));
    expect(await validator.validate("+14155552671")).toEqual({ status: "INVALID", e164: "+14155552671" });
    expect(fake!.requests).toHaveLength(2);
  });

  it("answers INVALID for a number that is not E.164 without calling the lookup", async () => {
    const validator = await setup(() => lookup("mobile"));
    expect(await validator.validate("555-2671")).toEqual({ status: "INVALID" });
    expect(fake!.requests).toEqual([]);
  });

  it("answers VALIDATION_ERROR for a 5xx, a refused credential, a bad answer and a timeout", async () => {
    const validator = await setup(() => ({ status: 500, text: "boom" }));
    expect(await validator.validate("+14155552671")).toMatchObject({
      status: "VALIDATION_ERROR",
      e164: "+14155552671",
      reason: "phone-validation: boom (status 500)",
    });
    fake!.setHandler(() => ({ status: 401, json: { code: 20003, message: "Authenticate" } }));
    expect(await validator.validate("+14155552671")).toMatchObject({ status: "VALIDATION_ERROR" });
    fake!.setHandler(() => ({ status: 200, json: { phone_number: "+14155552671" } }));
    expect(await validator.validate("+14155552671")).toMatchObject({ status: "VALIDATION_ERROR" });

    const slow = await startFakeServer(() => "hang");
    try {
      const impatient = createHttpPhoneValidator({
        baseUrl: slow.url,
        accountSid: "AC9",
        authToken: "x",
        timeoutMs: 50,
      });
      expect(await impatient.validate("+14155552671")).toMatchObject({
        status: "VALIDATION_ERROR",
        reason: expect.stringContaining("no answer within 50 ms"),
      });
    } finally {
      await slow.close();
    }
  });
});

describe("development phone validator", () => {
  const validator = createDevPhoneValidator();

  it("accepts E.164 numbers as valid mobiles", async () => {
    expect(await validator.validate("+44 20 7946 0958")).toEqual({
      status: "VALID",
      e164: "+442079460958",
      carrierType: "mobile",
    });
  });

  it("treats the fictional 555-01XX range as VoIP so the refusal can be tried", async () => {
    expect(await validator.validate("+1 212 555 0142")).toEqual({
      status: "VOIP",
      e164: "+12125550142",
      carrierType: "nonFixedVoip",
    });
    expect(await validator.validate("+1 212 555 0242")).toMatchObject({ status: "VALID" });
  });

  it("refuses numbers that are not E.164 or +1 numbers of the wrong length", async () => {
    expect(await validator.validate("2125550142")).toEqual({ status: "INVALID" });
    expect(await validator.validate("+1212555014")).toEqual({ status: "INVALID", e164: "+1212555014" });
  });
});
