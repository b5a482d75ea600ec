import { getOption } from "@bufbuild/protobuf";
import { http } from "@tt/proto/google/api/annotations_pb";
import { FixtureService } from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { describe, expect, it } from "vitest";
import { buildOpenApi, ERROR_SCHEMA, operationIds } from "./openapi.ts";
import { buildRouteTable } from "./routes.ts";
import { serviceCatalog } from "./catalog.ts";

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

const services = [FixtureService, ...serviceCatalog.user];
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

  it("gives every operation a unique id, numbering additional bindings", () => {
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining(["FixtureService_Echo", "FixtureService_Echo_2", "FixtureService_Echo_3"]),
    );
  });

  it("holds the shared error body and the bearer scheme", () => {
    expect(doc.components.schemas.Error).toEqual(ERROR_SCHEMA);
    expect(doc.paths["/api/fixture/echo"]!.put!.responses.default?.content?.["application/json"]?.schema).toEqual({
      $ref: "#/components/schemas/Error",
    });
    expect((doc as unknown as { components: { securitySchemes: unknown } }).components.securitySchemes).toEqual({
      bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
    });
  });
});

describe("operationIds", () => {
  it.each([
    [
      ["A", "B"],
      ["A", "B"],
    ],
    [
      ["A", "A", "A"],
      ["A", "A_2", "A_3"],
    ],
    [
      ["A", "B", "A"],
      ["A", "B", "A_2"],
    ],
  ])("%j become %j", (bases, ids) => {
    const next = operationIds();
    expect(bases.map(next)).toEqual(ids);
  });
});
