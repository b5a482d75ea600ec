import { FixtureService } from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { RulesProbeSchema } from "@tt/proto/tt/testing/v1/field_rules_pb";
import { describe, expect, it } from "vitest";
import { createSchemaBuilder, type JsonSchema } from "./openapi-schema.ts";
import { serviceCatalog } from "./catalog.ts";

/** The named schema of a message, built by a fresh builder. */
function schemaOf(builder: ReturnType<typeof createSchemaBuilder>, typeName: string) {
  return builder.schemas[typeName] as { properties: Record<string, JsonSchema>; required?: string[] };
}

const builder = createSchemaBuilder();
for (const service of [FixtureService, ...serviceCatalog.user]) {
  for (const method of service.methods) {
    builder.messageSchema(method.input);
    builder.messageSchema(method.output);
  }
}

describe("message schemas", () => {
  it("names messages and enums once, as $refs, recursion included", () => {
    const b = createSchemaBuilder();
    expect(b.messageSchema(FixtureService.method.echo.input)).toEqual({
      $ref: "#/components/schemas/tt.fixture.v1.EchoRequest",
    });
    const everything = schemaOf(b, "tt.fixture.v1.Everything");
    expect(Object.keys(everything.properties)).toHaveLength(38);
    expect(everything.properties.color).toEqual({ $ref: "#/components/schemas/tt.fixture.v1.Color" });
    expect(b.schemas["tt.fixture.v1.Color"]).toEqual({
      type: "string",
      enum: ["COLOR_UNSPECIFIED", "COLOR_RED", "COLOR_GREEN", "COLOR_BLUE"],
    });
    // Nested holds a Nested: one named schema that refers to itself.
    expect(schemaOf(b, "tt.fixture.v1.Nested").properties.child).toEqual({
      $ref: "#/components/schemas/tt.fixture.v1.Nested",
    });
  });

  it.each<[string, JsonSchema]>([
    ["int64Value", { type: "string", format: "int64", pattern: "^-?[0-9]+$" }],
    ["uint32Value", { type: "integer", format: "uint32", minimum: 0 }],
    ["bytesValue", { type: "string", contentEncoding: "base64" }],
    ["boolValue", { type: "boolean" }],
    ["timestamp", { type: "string", format: "date-time" }],
    ["structValue", { type: "object", additionalProperties: true }],
    ["int64Wrapper", { type: ["string", "null"], format: "int64", pattern: "^-?[0-9]+$" }],
    ["repeatedColor", { type: "array", items: { $ref: "#/components/schemas/tt.fixture.v1.Color" } }],
    ["nestedMap", { type: "object", additionalProperties: { $ref: "#/components/schemas/tt.fixture.v1.Nested" } }],
  ])("Everything.%s has its proto3 JSON form", (field, schema) => {
    expect(schemaOf(builder, "tt.fixture.v1.Everything").properties[field]).toEqual(schema);
  });

  // The kit's input-rules interceptor enforces tt.options.v1.field; the document lists the same limits.
  it.each<[string, string, JsonSchema]>([
    ["tt.user.v1.LoginRequest", "email", { type: "string", maxLength: 320 }],
    ["tt.user.v1.LoginRequest", "password", { type: "string", maxLength: 1024 }],
    ["tt.user.v1.SignUpBotRequest", "avatarId", { type: "string", maxLength: 128 }],
    ["tt.user.v1.UpdateProfileRequest", "bio", { type: "string", maxLength: 500 }],
    ["tt.user.v1.CreateVoucherRequest", "badges", { type: "array", items: { type: "string", maxLength: 64 } }],
    ["tt.fixture.v1.Everything", "stringWrapper", { type: ["string", "null"], maxLength: 256 }],
    [
      "tt.fixture.v1.Everything",
      "stringMap",
      {
        type: "object",
        propertyNames: { type: "string", maxLength: 64 },
        additionalProperties: { type: "string", maxLength: 64 },
      },
    ],
    ["tt.fixture.v1.Everything", "nested", { $ref: "#/components/schemas/tt.fixture.v1.Nested" }],
    ["tt.user.v1.User", "email", { type: "string" }],
  ])("issue 9 defect 4: %s.%s is listed with its declared maxLength (or none)", (message, field, schema) => {
    expect(schemaOf(builder, message).properties[field]).toEqual(schema);
  });
});

describe("declared field rules (issue 10)", () => {
  const b = createSchemaBuilder();
  b.messageSchema(RulesProbeSchema);
  const probe = schemaOf(b, "tt.testing.v1.RulesProbe");

  it.each<[string, JsonSchema]>([
    ["id", { type: "string", maxLength: 36, format: "uuid" }],
    ["nickname", { type: "string", maxLength: 8, minLength: 2 }],
    ["code", { type: "string", maxLength: 6, pattern: "^[A-Z]{3}-[0-9]{2}$" }],
    ["role", { type: "string", maxLength: 16, enum: ["admin", "support"] }],
    ["limit", { type: "integer", format: "int32", minimum: 1, maximum: 100 }],
    ["level", { type: "integer", format: "int32", minimum: 1, maximum: 5 }],
    ["delta", { type: "integer", format: "int32", minimum: -5, maximum: 5 }],
    // 64-bit integers are JSON strings: the range is said in words.
    ["offset", { type: "string", format: "int64", pattern: "^-?[0-9]+$", description: "at least 0" }],
    ["budget", { type: "string", format: "int64", pattern: "^-?[0-9]+$", description: "at most 1000" }],
    ["users", { type: "array", items: { type: "string", maxLength: 36, format: "uuid" }, minItems: 1 }],
    ["note", { type: ["string", "null"], maxLength: 10, minLength: 3 }],
    ["child", { $ref: "#/components/schemas/tt.testing.v1.RulesChild" }],
  ])("RulesProbe.%s lists its rules", (field, schema) => {
    expect(probe.properties[field]).toEqual(schema);
  });

  it("lists required fields in the message's required, nested messages included", () => {
    expect(probe.required).toEqual(["id", "users", "child"]);
    expect(schemaOf(b, "tt.testing.v1.RulesChild").required).toEqual(["key"]);
    expect(schemaOf(builder, "tt.fixture.v1.Everything").required).toBeUndefined();
  });
});
