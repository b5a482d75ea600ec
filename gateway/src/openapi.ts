// The OpenAPI 3.1 document of the REST surface, generated from the same rules as the routing table, so it
// cannot drift from what the gateway serves. Schemas follow proto3 JSON (64-bit integers are strings,
// enums their names, well-known types their JSON forms); access comes from `tt.options.v1.access`.
import { getOption, hasOption, ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { isWrapperDesc } from "@bufbuild/protobuf/wkt";
import { access, TokenType } from "@tt/proto/tt/options/v1/access_pb";
import { field as fieldRules } from "@tt/proto/tt/options/v1/field_pb";
import { UPLOADED_FILE_TYPE } from "./bind.ts";
import { reasonPhrase } from "./errors.ts";
import type { Route } from "./routes.ts";
import type { TemplateSegment } from "./template/parse.ts";

/** Raised when the document cannot be built (never expected for a table that compiled). */
export class OpenApiError extends Error {
  override name = "OpenApiError";
}

export type JsonSchema = Record<string, unknown>;

export const DEFAULT_OPENAPI_INFO = { title: "turntable REST API", version: "1.0.0" };

/** How deep query parameters are listed for nested messages. */
export const QUERY_DEPTH = 3;

const WKT: Record<string, JsonSchema> = {
  "google.protobuf.Timestamp": { type: "string", format: "date-time" },
  "google.protobuf.Duration": { type: "string", pattern: "^-?[0-9]+(\\.[0-9]+)?s$", examples: ["1.5s"] },
  "google.protobuf.FieldMask": { type: "string", description: "comma-separated lowerCamelCase field paths" },
  "google.protobuf.Struct": { type: "object", additionalProperties: true },
  "google.protobuf.Value": {},
  "google.protobuf.ListValue": { type: "array", items: {} },
  "google.protobuf.Empty": { type: "object" },
  "google.protobuf.Any": { type: "object", properties: { "@type": { type: "string" } }, additionalProperties: true },
};

function scalarSchema(t: ScalarType): JsonSchema {
  switch (t) {
    case ScalarType.STRING:
      return { type: "string" };
    case ScalarType.BYTES:
      return { type: "string", contentEncoding: "base64" };
    case ScalarType.BOOL:
      return { type: "boolean" };
    case ScalarType.DOUBLE:
      return { type: "number", format: "double" };
    case ScalarType.FLOAT:
      return { type: "number", format: "float" };
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return { type: "integer", format: "int32" };
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return { type: "integer", format: "uint32", minimum: 0 };
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return { type: "string", format: "uint64", pattern: "^[0-9]+$" };
    default:
      return { type: "string", format: "int64", pattern: "^-?[0-9]+$" };
  }
}

/** A string schema with the field's declared `max_length` (tt.options.v1.field), as the kit enforces it. */
function limited(schema: JsonSchema, f: DescField): JsonSchema {
  const max = hasOption(f, fieldRules) ? getOption(f, fieldRules).maxLength : 0;
  const type = schema.type;
  const isString = type === "string" || (Array.isArray(type) && type.includes("string"));
  return max > 0 && isString && schema.contentEncoding === undefined ? { ...schema, maxLength: max } : schema;
}

const TOKEN_TYPE_NAMES: Record<number, string> = {
  [TokenType.USER]: "user",
  [TokenType.GUEST]: "guest",
  [TokenType.BOT]: "bot",
  [TokenType.SERVICE]: "service",
};

export function buildOpenApi(routes: readonly Route[], info = DEFAULT_OPENAPI_INFO): JsonSchema {
  const schemas: Record<string, JsonSchema> = {
    Error: {
      type: "object",
      required: ["statusCode", "message", "error"],
      properties: {
        statusCode: { type: "integer" },
        message: { type: "string" },
        error: { type: "string", description: "the reason phrase of statusCode" },
      },
    },
  };

  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

  const messageSchema = (desc: DescMessage): JsonSchema => {
    const wkt = WKT[desc.typeName];
    if (wkt) return wkt;
    if (isWrapperDesc(desc)) {
      const inner = scalarSchema(desc.fields[0]!.scalar!);
      return { ...inner, type: [inner.type as string, "null"] };
    }
    if (!schemas[desc.typeName]) {
      schemas[desc.typeName] = {}; // placeholder first: messages may be recursive
      const properties: Record<string, JsonSchema> = {};
      for (const f of desc.fields) properties[f.jsonName] = fieldSchema(f);
      schemas[desc.typeName] = { type: "object", properties, additionalProperties: false };
    }
    return ref(desc.typeName);
  };

  const enumSchema = (f: DescField): JsonSchema => {
    const e = f.enum!;
    if (!schemas[e.typeName]) schemas[e.typeName] = { type: "string", enum: e.values.map((v) => v.name) };
    return ref(e.typeName);
  };

  // Strings and string wrappers carry their field's maxLength (in a list: each item; in a map: each value).
  const singular = (f: DescField, kind: "scalar" | "enum" | "message"): JsonSchema =>
    kind === "scalar"
      ? limited(scalarSchema(f.scalar!), f)
      : kind === "enum"
        ? enumSchema(f)
        : isWrapperDesc(f.message!)
          ? limited(messageSchema(f.message!), f)
          : messageSchema(f.message!);

  function fieldSchema(f: DescField): JsonSchema {
    switch (f.fieldKind) {
      case "scalar":
      case "enum":
      case "message":
        return singular(f, f.fieldKind);
      case "list":
        return { type: "array", items: singular(f, f.listKind) };
      case "map": {
        const keys = f.mapKey === ScalarType.STRING ? limited({ type: "string" }, f) : undefined;
        return {
          type: "object",
          ...(keys?.maxLength ? { propertyNames: keys } : {}),
          additionalProperties: singular(f, f.mapKind),
        };
      }
    }
  }

  const binary: JsonSchema = { type: "string", format: "binary" };

  // The names a query string (or a form) can set: leaf fields not in `bound`, dotted, a few levels deep.
  // With `files`, UploadedFile fields are named too (as binary), instead of being walked into.
  const leafNames = (
    root: DescMessage,
    bound: ReadonlySet<string>,
    files: boolean,
  ): Array<{ name: string; field: DescField; schema: JsonSchema }> => {
    const out: Array<{ name: string; field: DescField; schema: JsonSchema }> = [];
    const walk = (desc: DescMessage, prefix: string, protoPrefix: string, depth: number, seen: Set<string>) => {
      for (const f of desc.fields) {
        const protoPath = protoPrefix + f.name;
        if (bound.has(protoPath)) continue;
        const name = prefix + f.jsonName;
        if (files && f.message?.typeName === UPLOADED_FILE_TYPE && f.fieldKind !== "map") {
          out.push({ name, field: f, schema: f.fieldKind === "list" ? { type: "array", items: binary } : binary });
          continue;
        }
        if (f.fieldKind === "message" && !WKT[f.message.typeName] && !isWrapperDesc(f.message)) {
          if (depth < QUERY_DEPTH && !seen.has(f.message.typeName)) {
            walk(f.message, `${name}.`, `${protoPath}.`, depth + 1, new Set([...seen, f.message.typeName]));
          }
          continue;
        }
        if (f.fieldKind === "map") {
          out.push({ name: `${name}[key]`, field: f, schema: fieldSchema(f).additionalProperties as JsonSchema });
          continue;
        }
        if (f.fieldKind === "list" && f.listKind === "message" && !WKT[f.message.typeName]) continue;
        if (
          f.message &&
          (f.message.typeName === "google.protobuf.Struct" || f.message.typeName === "google.protobuf.Value")
        )
          continue;
        out.push({ name, field: f, schema: fieldSchema(f) });
      }
    };
    walk(root, "", "", 0, new Set([root.typeName]));
    return out;
  };

  // Query parameters: the leaf fields not bound by the path or the body.
  const queryParams = (route: Route): JsonSchema[] => {
    if (route.body === "*") return [];
    const bound = new Set(route.template.variables.map((v) => v.fieldPath.join(".")));
    if (route.body) bound.add(route.body);
    return leafNames(route.method.input, bound, false).map(({ name, field, schema }) => ({
      name,
      in: "query",
      ...(name.endsWith("[key]") ? {} : { required: false }),
      schema,
      ...(field.fieldKind === "list" ? { explode: true } : {}),
    }));
  };

  // The multipart form of a body: its file fields as binary, its other leaf fields as text, dotted names.
  const formSchema = (root: DescMessage): JsonSchema => {
    const properties: Record<string, JsonSchema> = {};
    for (const { name, schema } of leafNames(root, new Set(), true)) properties[name] = schema;
    return { type: "object", properties, additionalProperties: false };
  };

  const paths: Record<string, Record<string, unknown>> = {};
  // Additional bindings share their method's name; later ones get a number.
  const usedIds = new Map<string, number>();
  const operationId = (base: string): string => {
    const n = usedIds.get(base) ?? 0;
    usedIds.set(base, n + 1);
    return n === 0 ? base : `${base}_${n + 1}`;
  };
  for (const route of routes) {
    const { template, method } = route;
    const parts: string[] = [];
    const pathParams: JsonSchema[] = [];
    const segText = (s: TemplateSegment) => (s.kind === "literal" ? s.value : s.kind === "wildcard" ? "*" : "**");
    for (let i = 0; i < template.segments.length;) {
      const v = template.variables.find((x) => x.start === i);
      if (!v) {
        parts.push(segText(template.segments[i]!));
        i++;
        continue;
      }
      const name = v.fieldPath.join(".");
      let desc = method.input;
      let field: DescField | undefined;
      for (const p of v.fieldPath) {
        field = desc.fields.find((f) => f.name === p);
        if (field?.message) desc = field.message;
      }
      if (!field) throw new OpenApiError(`${method.name}: no field ${name}`);
      const inner = template.segments.slice(v.start, v.end).map(segText).join("/");
      pathParams.push({
        name,
        in: "path",
        required: true,
        schema: fieldSchema(field),
        ...(v.explicit ? { description: `matches ${inner}` } : {}),
      });
      parts.push(`{${name}}`);
      i = v.end;
    }
    const path = `/${parts.join("/")}${template.verb ? `:${template.verb}` : ""}`;

    const policy = getOption(method, access);
    const tokenTypes = policy.tokenTypes.map((t) => TOKEN_TYPE_NAMES[t] ?? String(t));
    const who = [
      policy.anonymous ? "anyone (no token needed)" : undefined,
      tokenTypes.length ? `tokens: ${tokenTypes.join(", ")}` : undefined,
      policy.roles.length ? `roles: ${policy.roles.join(", ")}` : undefined,
    ].filter(Boolean);
    const security: Array<Record<string, string[]>> = [];
    if (tokenTypes.length) security.push({ bearer: [] });
    if (policy.anonymous) security.push({});

    let responseSchema: JsonSchema = messageSchema(method.output);
    if (route.responseBody) {
      const f = method.output.fields.find((x) => x.name === route.responseBody)!;
      responseSchema = fieldSchema(f);
    }
    const streaming = method.methodKind === "server_streaming";
    const errorResponse = (status: number) => ({
      description: reasonPhrase(status),
      content: { "application/json": { schema: ref("Error") } },
    });

    let requestBody: JsonSchema | undefined;
    if (route.body) {
      const schema =
        route.body === "*"
          ? messageSchema(method.input)
          : fieldSchema(method.input.fields.find((f) => f.name === route.body)!);
      const content: Record<string, JsonSchema> = { "application/json": { schema } };
      if (route.binding.acceptsForm) {
        const root =
          route.body === "*" ? method.input : method.input.fields.find((f) => f.name === route.body)!.message!;
        content["multipart/form-data"] = { schema: formSchema(root) };
      }
      requestBody = { required: true, content };
    }

    paths[path] ??= {};
    paths[path][route.httpMethod.toLowerCase()] = {
      operationId: operationId(`${method.parent.name}_${method.name}`),
      tags: [method.parent.typeName],
      summary: method.name,
      description: `Access: ${who.length ? who.join("; ") : "nobody"}. RPC ${method.parent.typeName}/${method.name}.`,
      "x-tt-access": { anonymous: policy.anonymous, tokenTypes, roles: policy.roles },
      security,
      parameters: [...pathParams, ...queryParams(route)],
      ...(requestBody ? { requestBody } : {}),
      responses: {
        "200": {
          description: streaming ? "a stream of messages, one JSON document per line" : "OK",
          content: streaming
            ? {
                "application/x-ndjson": { schema: responseSchema },
                "text/event-stream": { schema: { type: "string" } },
              }
            : { "application/json": { schema: responseSchema } },
        },
        "400": errorResponse(400),
        default: { description: "error", content: { "application/json": { schema: ref("Error") } } },
      },
    };
  }

  return {
    openapi: "3.1.0",
    info,
    paths,
    components: {
      schemas,
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
    },
  };
}
