// The OpenAPI 3.1 document of the REST surface, generated from the same rules as the routing table, so it
// cannot drift from what the gateway serves. The pieces live next to it: schemas from message descriptors
// and their field rules (openapi-schema.ts), parameters from bindings (openapi-parameters.ts), one
// operation per route (openapi-operation.ts); this module assembles the document.
import { operationOf } from "./openapi-operation.ts";
import { createSchemaBuilder, type JsonSchema } from "./openapi-schema.ts";
import type { Route } from "./routes.ts";

export { OpenApiError, QUERY_DEPTH } from "./openapi-parameters.ts";
export type { JsonSchema } from "./openapi-schema.ts";

export const DEFAULT_OPENAPI_INFO = { title: "turntable REST API", version: "1.0.0" };

/** The gateway's error body, as every non-2xx answer carries it. */
export const ERROR_SCHEMA: JsonSchema = {
  type: "object",
  required: ["statusCode", "message", "error"],
  properties: {
    statusCode: { type: "integer" },
    message: { type: "string" },
    error: { type: "string", description: "the reason phrase of statusCode" },
  },
};

/** Numbers operation ids: additional bindings share their method's name, later ones get `_2`, `_3` … */
export function operationIds(): (base: string) => string {
  const used = new Map<string, number>();
  return (base) => {
    const n = used.get(base) ?? 0;
    used.set(base, n + 1);
    return n === 0 ? base : `${base}_${n + 1}`;
  };
}

export function buildOpenApi(routes: readonly Route[], info = DEFAULT_OPENAPI_INFO): JsonSchema {
  const builder = createSchemaBuilder({ Error: ERROR_SCHEMA });
  const nextId = operationIds();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const id = nextId(`${route.method.parent.name}_${route.method.name}`);
    const { path, verb, operation } = operationOf(builder, route, id);
    paths[path] ??= {};
    paths[path][verb] = operation;
  }
  return {
    openapi: "3.1.0",
    info,
    paths,
    components: {
      schemas: builder.schemas,
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
    },
  };
}
