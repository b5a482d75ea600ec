import { FixtureService } from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { RulesProbeSchema } from "@tt/proto/tt/testing/v1/field_rules_pb";
import { AdminService } from "@tt/proto/tt/user/v1/admin_service_pb";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { describe, expect, it } from "vitest";
import { accessOf, operationOf, requestBodyOf } from "./openapi-operation.ts";
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
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe("access", () => {
  it.each([
    [
      "AdminListUsers",
      AdminService.method.adminListUsers,
      "tokens: user; roles: admin",
      [{ bearer: [] }],
      { anonymous: false, tokenTypes: ["user"], roles: ["admin"] },
    ],
    [
      "Hello",
      AuthService.method.hello,
      "anyone (no token needed)",
      [{}],
      { anonymous: true, tokenTypes: [], roles: [] },
    ],
    [
      "GetThing",
      FixtureService.method.getThing,
      "anyone (no token needed); tokens: user",
      [{ bearer: [] }, {}],
      { anonymous: true, tokenTypes: ["user"], roles: [] },
    ],
  ])("%s", (_name, method, description, security, policy) => {
    expect(accessOf(method)).toEqual({ description, security, policy });
  });
});

describe("operations", () => {
  it("describes a body, the responses, errors and the access policy", () => {
    const { path, verb, operation } = operationOf(createSchemaBuilder(), routeOf("PUT", "/api/fixture/echo"), "op");
    expect([verb, path]).toEqual(["put", "/api/fixture/echo"]);
    expect(operation).toMatchObject({
      operationId: "op",
      tags: ["tt.fixture.v1.FixtureService"],
      summary: "Echo",
      description: "Access: anyone (no token needed). RPC tt.fixture.v1.FixtureService/Echo.",
      parameters: [],
      requestBody: { required: true, content: { "application/json": { schema: ref("tt.fixture.v1.EchoRequest") } } },
      responses: {
        "200": { description: "OK", content: { "application/json": { schema: ref("tt.fixture.v1.EchoResponse") } } },
        "400": { description: "Bad Request", content: { "application/json": { schema: ref("Error") } } },
        default: { description: "error", content: { "application/json": { schema: ref("Error") } } },
      },
    });
  });

  it("answers with the response_body field, and still lists the whole output message", () => {
    const builder = createSchemaBuilder();
    const { operation } = operationOf(builder, routeOf("GET", "/api/fixture/{name=shelves/*}"), "op");
    expect(operation.responses).toMatchObject({
      "200": { content: { "application/json": { schema: ref("tt.fixture.v1.Everything") } } },
    });
    expect(builder.schemas).toHaveProperty(["tt.fixture.v1.GetShelfResponse"]);
  });

  it("describes a server stream as NDJSON and server-sent events", () => {
    const route = routes.find((r) => r.method === FixtureService.method.streamThings)!;
    const { operation } = operationOf(createSchemaBuilder(), route, "op");
    expect(operation.responses).toMatchObject({
      "200": {
        description: "a stream of messages, one JSON document per line",
        content: {
          "application/x-ndjson": { schema: ref("tt.fixture.v1.StreamThingsResponse") },
          "text/event-stream": { schema: { type: "string" } },
        },
      },
    });
  });

  it("offers multipart/form-data only for a body holding uploaded files", () => {
    const upload = requestBodyOf(createSchemaBuilder(), routeOf("POST", "/api/fixture/uploads")) as {
      content: Record<string, unknown>;
    };
    expect(Object.keys(upload.content)).toEqual(["application/json", "multipart/form-data"]);
    const meta = requestBodyOf(createSchemaBuilder(), routeOf("POST", "/api/fixture/uploads/{kind}/meta")) as {
      content: Record<string, { schema: { properties: Record<string, unknown> } }>;
    };
    expect(Object.keys(meta.content["multipart/form-data"]!.schema.properties)).toContain("cover");
    expect(Object.keys(meta.content["multipart/form-data"]!.schema.properties)).not.toContain("kind");
    expect(requestBodyOf(createSchemaBuilder(), routeOf("GET", "/api/fixture/things/{id}"))).toBeUndefined();
  });

  it("issue 10: a required field bound by the path is not required in a body of * too", () => {
    const route = (template: string) =>
      ({
        body: "*",
        method: { input: RulesProbeSchema },
        template: parseTemplate(template, "Probe"),
        binding: { acceptsForm: false },
      }) as unknown as Route;
    const builder = createSchemaBuilder();
    const bodySchema = (template: string) =>
      (requestBodyOf(builder, route(template)) as { content: Record<string, { schema: Record<string, unknown> }> })
        .content["application/json"]!.schema;
    expect(bodySchema("/probes")).toEqual(ref("tt.testing.v1.RulesProbe"));
    const inPath = bodySchema("/probes/{id}");
    expect(inPath.required).toEqual(["users", "child"]);
    expect(inPath.properties).toEqual((builder.schemas["tt.testing.v1.RulesProbe"] as JsonSchema).properties);
  });
});
