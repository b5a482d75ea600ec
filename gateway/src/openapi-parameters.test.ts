import { FixtureService } from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { FlatListRequestSchema } from "@tt/proto/tt/fixture/v1/flatten_pb";
import { RulesProbeSchema } from "@tt/proto/tt/testing/v1/field_rules_pb";
import { describe, expect, it } from "vitest";
import {
  formSchema,
  leafNames,
  OpenApiError,
  pathParameters,
  queryParameters,
  QUERY_DEPTH,
} from "./openapi-parameters.ts";
import { createSchemaBuilder, type JsonSchema } from "./openapi-schema.ts";
import { buildRouteTable, type Route } from "./routes.ts";
import { parseTemplate } from "./template/parse.ts";
import { serviceCatalog } from "./catalog.ts";

const routes = buildRouteTable([{ services: [FixtureService, ...serviceCatalog.user] }]).routes;
const routeOf = (verb: string, pattern: string): Route => {
  const route = routes.find((r) => r.httpMethod === verb && r.pattern === pattern);
  if (!route) throw new Error(`no route ${verb} ${pattern}`);
  return route;
};
type Parameter = { name: string; in: string; required?: boolean; schema: JsonSchema; explode?: boolean };
const byName = (params: JsonSchema[]) =>
  Object.fromEntries((params as Parameter[]).map((p) => [p.name, p])) as Record<string, Parameter>;

describe("path parameters", () => {
  const input = FixtureService.method.echo.input;
  it.each<[string, string, string[]]>([
    [
      "/api/fixture/tenants/{tenant}/things/{thing.id}",
      "/api/fixture/tenants/{tenant}/things/{thing.id}",
      ["tenant", "thing.id"],
    ],
    ["/api/fixture/{tenant=shelves/*}", "/api/fixture/{tenant}", ["tenant"]],
    ["/api/fixture/{tenant=files/**}:archive", "/api/fixture/{tenant}:archive", ["tenant"]],
    ["/api/fixture/plain", "/api/fixture/plain", []],
  ])("%s is %s", (pattern, path, names) => {
    const got = pathParameters(createSchemaBuilder(), parseTemplate(pattern, "test"), input, "Echo");
    expect(got.path).toBe(path);
    expect(got.parameters.map((p) => p.name)).toEqual(names);
    for (const p of got.parameters) expect(p).toMatchObject({ in: "path", required: true });
  });

  it("says what an explicit variable matches, and carries the field's rules", () => {
    const got = pathParameters(createSchemaBuilder(), parseTemplate("/a/{tenant=shelves/*}", "t"), input, "Echo");
    expect(got.parameters[0]).toEqual({
      name: "tenant",
      in: "path",
      required: true,
      schema: { type: "string", maxLength: 64 },
      description: "matches shelves/*",
    });
  });

  it("refuses a variable that names no field", () => {
    expect(() => pathParameters(createSchemaBuilder(), parseTemplate("/a/{nope}", "t"), input, "Echo")).toThrow(
      OpenApiError,
    );
  });
});

describe("query parameters", () => {
  it("gives the leaf fields the path leaves unbound, with their JSON types", () => {
    const params = byName(
      queryParameters(createSchemaBuilder(), routeOf("GET", "/api/fixture/tenants/{tenant}/things/{thing.id}")),
    );
    expect(params.tenant).toBeUndefined();
    expect(params["thing.id"]).toBeUndefined();
    expect(params["thing.int64Value"]).toMatchObject({ in: "query", schema: { type: "string", format: "int64" } });
    expect(params["thing.int32Value"]).toMatchObject({ schema: { type: "integer", format: "int32" } });
    expect(params["thing.timestamp"]).toMatchObject({ schema: { type: "string", format: "date-time" } });
    expect(params["thing.repeatedString"]).toMatchObject({ explode: true, schema: { type: "array" } });
    expect(params["thing.stringMap[key]"]).toEqual({
      name: "thing.stringMap[key]",
      in: "query",
      schema: { type: "string", maxLength: 64 },
    });
    expect(params["thing.nested.name"]).toMatchObject({ required: false });
    // A recursive message is listed once, not forever; repeated messages and Struct are not query names.
    expect(params["thing.nested.child.name"]).toBeUndefined();
    expect(params["thing.repeatedNested"]).toBeUndefined();
    expect(params["thing.structValue"]).toBeUndefined();
  });

  it("gives none for a body of *, and leaves out the body field otherwise", () => {
    expect(queryParameters(createSchemaBuilder(), routeOf("PUT", "/api/fixture/echo"))).toEqual([]);
    const patch = byName(queryParameters(createSchemaBuilder(), routeOf("PATCH", "/api/fixture/things/{thing.id}")));
    expect(Object.keys(patch)).toEqual(["updateMask"]);
  });

  it("issue 9 defect 4: query parameters carry maxLength", () => {
    const outbox = byName(queryParameters(createSchemaBuilder(), routeOf("GET", "/api/user-service/dev/outbox")));
    expect(outbox.to?.schema).toEqual({ type: "string", maxLength: 320 });
  });
});

describe("query names of flattened fields (tt.options.v1.query, issue 10)", () => {
  const LIST = ["fields", "s", "filter", "or", "sort", "join", "limit", "offset", "page", "cache"];

  it("names a flattened message's fields top-level, also inside a flattened field, and dotted below a plain one", () => {
    const names = leafNames(createSchemaBuilder(), FlatListRequestSchema, new Set(), false).map((l) => l.name);
    expect(names).toEqual([
      "tenant",
      ...LIST,
      "archived",
      "labels[key]",
      "extra.name",
      ...LIST.map((n) => `extra.${n}`),
    ]);
  });

  it("leaves out a flattened field bound by the path or the body", () => {
    const names = leafNames(createSchemaBuilder(), FlatListRequestSchema, new Set(["query"]), false).map((l) => l.name);
    expect(names).not.toContain("s");
    expect(names).toContain("archived");
  });

  it("issue 10: the admin lists keep their documented top-level query names", () => {
    const params = queryParameters(createSchemaBuilder(), routeOf("GET", "/api/user-service/admin/users"));
    expect(params.map((p) => p.name)).toEqual(LIST);
    expect(byName(params).filter).toMatchObject({
      explode: true,
      schema: { type: "array", items: { type: "string", maxLength: 2048 } },
    });
  });
});

describe("leaf names and declared rules (issue 10)", () => {
  const leaves = Object.fromEntries(
    leafNames(createSchemaBuilder(), RulesProbeSchema, new Set(), false).map((l) => [l.name, l]),
  );

  it.each<[string, boolean, JsonSchema]>([
    ["id", true, { type: "string", maxLength: 36, format: "uuid" }],
    ["users", true, { type: "array", items: { type: "string", maxLength: 36, format: "uuid" }, minItems: 1 }],
    ["child.key", true, { type: "string", maxLength: 8 }],
    ["nickname", false, { type: "string", maxLength: 8, minLength: 2 }],
    ["limit", false, { type: "integer", format: "int32", minimum: 1, maximum: 100 }],
  ])("%s: required %s", (name, required, schema) => {
    expect(leaves[name]).toMatchObject({ name, required, schema });
  });

  it("a required field under an optional message is not required on its own", () => {
    const fixture = leafNames(createSchemaBuilder(), FixtureService.method.echo.input, new Set(), false);
    expect(fixture.every((l) => !l.required)).toBe(true);
  });

  it(`walks nested messages ${QUERY_DEPTH} levels deep and skips bound paths`, () => {
    const names = leafNames(createSchemaBuilder(), FixtureService.method.echo.input, new Set(["thing.id"]), false).map(
      (l) => l.name,
    );
    expect(names).toContain("thing.nested.name");
    expect(names).not.toContain("thing.id");
  });
});

describe("multipart forms", () => {
  it("lists file fields as binary and the others as text, dotted", () => {
    const route = routeOf("POST", "/api/fixture/uploads");
    const form = formSchema(createSchemaBuilder(), route.method.input) as { properties: Record<string, unknown> };
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
  });

  it("lists a form's required fields", () => {
    expect(formSchema(createSchemaBuilder(), RulesProbeSchema)).toMatchObject({
      required: ["id", "users", "child.key"],
    });
  });
});
