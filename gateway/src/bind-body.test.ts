import { create, toJson } from "@bufbuild/protobuf";
import { FieldMaskSchema, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { Color, EchoRequestSchema, EverythingSchema } from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { compileBodyBinding } from "./bind-body.ts";
import { BindError, BindingDefinitionError } from "./bind-values.ts";
import { binding, json } from "./testing/bindings.ts";

const echoPut = binding(EchoRequestSchema, "/echo", "*");

describe("compileBodyBinding", () => {
  it.each([
    ["", false, false, undefined],
    ["*", true, true, undefined],
    ["thing", true, false, "thing"],
  ])("body %j: hasBody %s, wholeBody %s, field %s", (body, hasBody, wholeBody, field) => {
    const b = compileBodyBinding("m", EchoRequestSchema, body);
    expect([b.hasBody, b.wholeBody, b.field?.name]).toEqual([hasBody, wholeBody, field]);
  });

  it.each([
    ["*", '{"tenant":"a"}', { tenant: "a" }],
    ["*", "  ", {}],
    ["*", undefined, {}],
    ["thing", '{"id":"x"}', { thing: { id: "x" } }],
    ["thing", "", { thing: {} }],
  ])("body %j: %j is the JSON %j", (body, raw, expected) => {
    expect(compileBodyBinding("m", EchoRequestSchema, body).toJson(raw)).toEqual(expected);
  });

  it("refuses a body that names no top-level field, and malformed JSON", () => {
    expect(() => compileBodyBinding("m", EchoRequestSchema, "nope")).toThrow(BindingDefinitionError);
    expect(() => compileBodyBinding("m", EchoRequestSchema, "*").toJson("{")).toThrow(/malformed JSON body/);
  });
});

describe("request bodies", () => {
  it("an empty body is an empty message", () => {
    expect(json(EchoRequestSchema, echoPut.bind([], "", ""))).toEqual({});
  });

  it.each([
    ["malformed JSON", "{", /malformed JSON/],
    ["unknown body field", '{"nope":1}', /nope/],
    ["wrong type in body", '{"thing":{"int32Value":"x"}}', /int32_value/],
    ["body not an object", "[1]", /EchoRequest/],
  ])("body: %s is a 400", (_what, body, message) => {
    let caught: unknown;
    try {
      echoPut.bind([], "", body);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(BindError);
    expect((caught as BindError).status).toBe(400);
    expect((caught as BindError).message).toMatch(message);
  });

  it("accepts every field kind in a body", () => {
    const thing = create(EverythingSchema, {
      id: "x",
      int64Value: 1n << 60n,
      color: Color.BLUE,
      repeatedNested: [{ name: "a" }],
      nestedMap: { 3: { amount: 1 } },
      timestamp: timestampFromDate(new Date("2024-01-01T00:00:00Z")),
      structValue: { fields: {} },
      fieldMask: create(FieldMaskSchema, { paths: ["string_value"] }),
      choice: { case: "choiceText", value: "t" },
      optionalString: "",
    });
    const body = JSON.stringify({ thing: toJson(EverythingSchema, thing) });
    expect(json(EchoRequestSchema, echoPut.bind([], "", body))).toEqual({ thing: toJson(EverythingSchema, thing) });
  });
});

describe("raw bodies (a google.api.HttpBody body field)", () => {
  it("issue 16: the field receives the body byte-exact with its content type, never parsed", async () => {
    const { StripeWebhookRequestSchema } = await import("@tt/proto/tt/payment/v1/webhook_service_pb");
    const b = compileBodyBinding("m", StripeWebhookRequestSchema, "body");
    expect(b.rawBody).toBe(true);
    const raw = '{ "id": "evt_1",\n  "name": "café ☕" }';
    const out = b.toJson(raw, "application/json; charset=utf-8") as { body: { contentType: string; data: string } };
    expect(out.body.contentType).toBe("application/json; charset=utf-8");
    expect(Buffer.from(out.body.data, "base64").equals(Buffer.from(raw, "utf8"))).toBe(true);
    // Not JSON is fine too: nothing parses it.
    expect(() => b.toJson("{not json", "text/plain")).not.toThrow();
    expect(compileBodyBinding("m", EchoRequestSchema, "thing").rawBody).toBe(false);
  });
});
