import { create } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema, MethodOptionsSchema } from "@bufbuild/protobuf/wkt";
import { createFileRegistry, setExtension, type DescService } from "@bufbuild/protobuf";
import { file_google_api_annotations, http } from "@tt/proto/google/api/annotations_pb";
import { HttpRuleSchema } from "@tt/proto/google/api/http_pb";
import { FixtureService } from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { describe, expect, it } from "vitest";
import { BindingDefinitionError } from "./bind.ts";
import { RouteConflictError } from "./match.ts";
import { buildRouteTable } from "./routes.ts";
import { TemplateParseError } from "./template/parse.ts";

// A one-method service whose rule is given by the test, built as a real descriptor.
function serviceWithRule(rule: Parameters<typeof create<typeof HttpRuleSchema>>[1], name = "Probe"): DescService {
  const options = create(MethodOptionsSchema);
  setExtension(options, http, create(HttpRuleSchema, rule));
  const file = create(FileDescriptorProtoSchema, {
    name: `probe_${name}.proto`,
    package: "tt.probe.v1",
    syntax: "proto3",
    dependency: ["google/api/annotations.proto"],
    messageType: [{ name: "Req", field: [{ name: "id", number: 1, type: 9, label: 1, jsonName: "id" }] }],
    service: [
      {
        name: `${name}Service`,
        method: [{ name: "Get", inputType: ".tt.probe.v1.Req", outputType: ".tt.probe.v1.Req", options }],
      },
    ],
  });
  const registry = createFileRegistry(file, (n) =>
    n === "google/api/annotations.proto" ? file_google_api_annotations : undefined,
  );
  return registry.getService(`tt.probe.v1.${name}Service`)!;
}

describe("buildRouteTable", () => {
  it("builds one route per rule and additional binding", () => {
    const table = buildRouteTable([{ services: [FixtureService] }]);
    expect(table.routes.filter((r) => r.method.name === "Echo").map((r) => `${r.httpMethod} ${r.pattern}`)).toEqual([
      "GET /api/fixture/tenants/{tenant}/things/{thing.id}",
      "POST /api/fixture/tenants/{tenant}/things",
      "PUT /api/fixture/echo",
    ]);
    expect(table.match("SEARCH", "/api/fixture/things").value.method.name).toBe("SearchThings");
  });

  it("refuses a malformed template at start, naming the method", () => {
    const svc = serviceWithRule({ pattern: { case: "get", value: "/api/probe/{id" } });
    expect(() => buildRouteTable([{ services: [svc] }])).toThrow(TemplateParseError);
    expect(() => buildRouteTable([{ services: [svc] }])).toThrow(/tt\.probe\.v1\.ProbeService\.Get/);
  });

  it("refuses a path variable or body that names no field", () => {
    const svc = serviceWithRule({ pattern: { case: "get", value: "/api/probe/{nope}" } });
    expect(() => buildRouteTable([{ services: [svc] }])).toThrow(BindingDefinitionError);
    const body = serviceWithRule({ pattern: { case: "post", value: "/api/probe" }, body: "nope" }, "Body");
    expect(() => buildRouteTable([{ services: [body] }])).toThrow(/body "nope"/);
  });

  it("refuses two services claiming the same route", () => {
    const a = serviceWithRule({ pattern: { case: "get", value: "/api/probe/{id}" } }, "A");
    const b = serviceWithRule({ pattern: { case: "get", value: "/api/probe/{id}" } }, "B");
    expect(() => buildRouteTable([{ services: [a] }, { services: [b] }])).toThrow(RouteConflictError);
  });
});
