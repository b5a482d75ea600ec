import { getOption } from "@bufbuild/protobuf";
import { http } from "@tt/proto/google/api/annotations_pb";
import { FixtureService } from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { UserService } from "@tt/proto/tt/user/v1/user_service_pb";
import { describe, expect, it } from "vitest";
import { buildOpenApi } from "./openapi.ts";
import { buildRouteTable } from "./routes.ts";

type Operation = {
  operationId: string;
  parameters: Array<{ name: string; in: string; schema: Record<string, unknown> }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  security: unknown[];
  "x-tt-access": { anonymous: boolean; tokenTypes: string[]; roles: string[] };
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>> };
};

const services = [FixtureService, UserService];
const doc = buildOpenApi(buildRouteTable([{ services }]).routes) as unknown as Doc;

describe("buildOpenApi", () => {
  it("lists every annotated path and method, additional bindings included", () => {
    const expected: string[] = [];
    for (const s of services) {
      for (const m of s.methods) {
        const rule = getOption(m, http);
        for (const r of rule.pattern.case ? [rule, ...rule.additionalBindings] : []) {
          const verb = r.pattern.case === "custom" ? r.pattern.value.kind.toLowerCase() : r.pattern.case!;
          const path = (r.pattern.case === "custom" ? r.pattern.value.path : (r.pattern.value as string)).replace(
            /\{([\w.]+)(=[^}]*)?\}/g,
            "{$1}",
          );
          expected.push(`${verb} ${path}`);
        }
      }
    }
    const listed = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((v) => `${v} ${p}`));
    expect(listed.sort()).toEqual(expected.sort());
    expect(listed).toContain("get /api/user-service/profile/{id}");
    expect(listed).toContain("search /api/fixture/things");
    expect(listed).toContain("post /api/fixture/{name}:archive");
  });

  it("gives path and query parameters with their JSON types", () => {
    const op = doc.paths["/api/fixture/tenants/{tenant}/things/{thing.id}"]!.get!;
    const byName = Object.fromEntries(op.parameters.map((p) => [p.name, p]));
    expect(byName.tenant).toMatchObject({ in: "path", schema: { type: "string" } });
    expect(byName["thing.id"]).toMatchObject({ in: "path" });
    expect(byName["thing.int64Value"]).toMatchObject({ in: "query", schema: { type: "string", format: "int64" } });
    expect(byName["thing.int32Value"]).toMatchObject({ schema: { type: "integer", format: "int32" } });
    expect(byName["thing.boolValue"]).toMatchObject({ schema: { type: "boolean" } });
    expect(byName["thing.timestamp"]).toMatchObject({ schema: { type: "string", format: "date-time" } });
    expect(byName["thing.color"]).toMatchObject({ schema: { $ref: "#/components/schemas/tt.fixture.v1.Color" } });
    expect(byName["thing.repeatedString"]).toMatchObject({ schema: { type: "array", items: { type: "string" } } });
    expect(byName["thing.stringMap[key]"]).toMatchObject({ schema: { type: "string" } });
    expect(byName["thing.nested.name"]).toBeDefined();
    // A recursive message is listed once, not forever.
    expect(byName["thing.nested.child.name"]).toBeUndefined();
    expect(byName.tenant && byName["thing.id"] && !byName["thing"]).toBeTruthy();
  });

  it("describes bodies, responses, errors and the access policy", () => {
    const put = doc.paths["/api/fixture/echo"]!.put!;
    expect(put.requestBody?.content["application/json"]?.schema).toEqual({
      $ref: "#/components/schemas/tt.fixture.v1.EchoRequest",
    });
    expect(put.parameters).toEqual([]);
    expect(put.responses["200"]?.content?.["application/json"]?.schema).toEqual({
      $ref: "#/components/schemas/tt.fixture.v1.EchoResponse",
    });
    expect(put.responses.default?.content?.["application/json"]?.schema).toEqual({
      $ref: "#/components/schemas/Error",
    });
    const everything = doc.components.schemas["tt.fixture.v1.Everything"] as { properties: Record<string, unknown> };
    expect(Object.keys(everything.properties)).toHaveLength(38);
    expect(doc.components.schemas["tt.fixture.v1.Color"]).toEqual({
      type: "string",
      enum: ["COLOR_UNSPECIFIED", "COLOR_RED", "COLOR_GREEN", "COLOR_BLUE"],
    });
    const admin = doc.paths["/api/user-service/admin/users"]!.get!;
    expect(admin["x-tt-access"]).toEqual({ anonymous: false, tokenTypes: ["user"], roles: ["admin"] });
    expect(admin.security).toEqual([{ bearer: [] }]);
    const hello = doc.paths["/api/user-service"]!.get!;
    expect(hello.security).toEqual([{}]);
    const shelf = doc.paths["/api/fixture/{name}"]!.get!;
    expect(shelf.responses["200"]?.content?.["application/json"]?.schema).toEqual({
      $ref: "#/components/schemas/tt.fixture.v1.Everything",
    });
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("describes a body with an UploadedFile field as JSON and as multipart/form-data", () => {
    const upload = doc.paths["/api/fixture/uploads"]!.post!;
    expect(Object.keys(upload.requestBody!.content)).toEqual(["application/json", "multipart/form-data"]);
    const form = upload.requestBody!.content["multipart/form-data"]!.schema as { properties: Record<string, unknown> };
    expect(form.properties).toMatchObject({
      file: { type: "string", format: "binary" },
      attachments: { type: "array", items: { type: "string", format: "binary" } },
      kind: { type: "string" },
      size: { type: "integer", format: "int32" },
      colors: { type: "array", items: { $ref: "#/components/schemas/tt.fixture.v1.Color" } },
      "meta.cover": { type: "string", format: "binary" },
      "meta.title": { type: "string" },
    });
    expect(form.properties).not.toHaveProperty("file.content");
    const meta = doc.paths["/api/fixture/uploads/{kind}/meta"]!.post!;
    const metaForm = meta.requestBody!.content["multipart/form-data"]!.schema as {
      properties: Record<string, unknown>;
    };
    expect(Object.keys(metaForm.properties)).toContain("cover");
    expect(Object.keys(metaForm.properties)).not.toContain("kind");
    expect(Object.keys(doc.paths["/api/fixture/echo"]!.put!.requestBody!.content)).toEqual(["application/json"]);
  });

  // The kit's input-rules interceptor enforces tt.options.v1.field; the document lists the same limits.
  const schemaOf = (message: string) =>
    doc.components.schemas[message] as { properties: Record<string, Record<string, unknown>> };
  it.each([
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
    ["tt.fixture.v1.Everything", "int64Value", { type: "string", format: "int64", pattern: "^-?[0-9]+$" }],
    ["tt.fixture.v1.Everything", "bytesValue", { type: "string", contentEncoding: "base64" }],
    ["tt.fixture.v1.Everything", "nested", { $ref: "#/components/schemas/tt.fixture.v1.Nested" }],
    ["tt.user.v1.User", "email", { type: "string" }],
  ])("issue 9 defect 4: %s.%s is listed with its declared maxLength (or none)", (message, field, schema) => {
    expect(schemaOf(message).properties[field]).toEqual(schema);
  });

  it("issue 9 defect 4: path and query parameters carry maxLength too", () => {
    const profile = doc.paths["/api/user-service/profile/{id}"]!.get!;
    expect(profile.parameters.find((p) => p.name === "id")?.schema).toEqual({ type: "string", maxLength: 36 });
    const outbox = doc.paths["/api/user-service/dev/outbox"]!.get!;
    expect(outbox.parameters.find((p) => p.name === "to")?.schema).toEqual({ type: "string", maxLength: 320 });
  });
});
