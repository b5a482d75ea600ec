// The parameters of one REST binding, as the gateway binds them: the path's variables, the query names
// (every leaf field the path and the body leave unbound, dotted, a few levels deep) and the multipart form
// of a body that holds uploaded files.
import type { DescField, DescMessage } from "@bufbuild/protobuf";
import { isWrapperDesc } from "@bufbuild/protobuf/wkt";
import { isQueryFlattened, UPLOADED_FILE_TYPE } from "./bind.ts";
import { isRequired, WKT, type JsonSchema, type SchemaBuilder } from "./openapi-schema.ts";
import type { Route } from "./routes.ts";
import type { PathTemplate, TemplateSegment } from "./template/parse.ts";

/** Raised when the document cannot be built (never expected for a table that compiled). */
export class OpenApiError extends Error {
  override name = "OpenApiError";
}

/** How deep query parameters are listed for nested messages. */
export const QUERY_DEPTH = 3;

/** A name a query string (or a form) can set. */
export interface LeafName {
  name: string;
  field: DescField;
  schema: JsonSchema;
  /** Whether the request is refused without it: the field and every message field above it are `required`. */
  required: boolean;
}

const BINARY: JsonSchema = { type: "string", format: "binary" };

/**
 * The names a query string (or a form) can set: leaf fields whose proto path is not in `bound`, dotted, a
 * few levels deep, each message type once per branch. A field flattened into the query
 * (`tt.options.v1.query`) adds no name segment: its fields are named as if they were its parent's, as the
 * gateway binds them. With `files`, UploadedFile fields are named too (as binary) instead of being walked into.
 */
export function leafNames(
  builder: SchemaBuilder,
  root: DescMessage,
  bound: ReadonlySet<string>,
  files: boolean,
): LeafName[] {
  const out: LeafName[] = [];
  const walk = (
    desc: DescMessage,
    prefix: string,
    protoPrefix: string,
    depth: number,
    seen: Set<string>,
    required: boolean,
  ) => {
    for (const f of desc.fields) {
      const protoPath = protoPrefix + f.name;
      if (bound.has(protoPath)) continue;
      const name = prefix + f.jsonName;
      const leafRequired = required && isRequired(f);
      if (files && f.message?.typeName === UPLOADED_FILE_TYPE && f.fieldKind !== "map") {
        const schema = f.fieldKind === "list" ? { type: "array", items: BINARY } : BINARY;
        out.push({ name, field: f, schema, required: leafRequired });
        continue;
      }
      if (f.fieldKind === "message" && isQueryFlattened(f) && !seen.has(f.message.typeName)) {
        const inner = new Set([...seen, f.message.typeName]);
        walk(f.message, prefix, `${protoPath}.`, depth, inner, leafRequired);
        continue;
      }
      if (f.fieldKind === "message" && !WKT[f.message.typeName] && !isWrapperDesc(f.message)) {
        if (depth < QUERY_DEPTH && !seen.has(f.message.typeName)) {
          const inner = new Set([...seen, f.message.typeName]);
          walk(f.message, `${name}.`, `${protoPath}.`, depth + 1, inner, leafRequired);
        }
        continue;
      }
      if (f.fieldKind === "map") {
        const values = builder.fieldSchema(f).additionalProperties as JsonSchema;
        out.push({ name: `${name}[key]`, field: f, schema: values, required: false });
        continue;
      }
      if (f.fieldKind === "list" && f.listKind === "message" && !WKT[f.message.typeName]) continue;
      const typeName = f.message?.typeName;
      if (typeName === "google.protobuf.Struct" || typeName === "google.protobuf.Value") continue;
      out.push({ name, field: f, schema: builder.fieldSchema(f), required: leafRequired });
    }
  };
  walk(root, "", "", 0, new Set([root.typeName]), true);
  return out;
}

/** The query parameters of a route: the leaf fields bound neither by the path nor by the body. */
export function queryParameters(builder: SchemaBuilder, route: Route): JsonSchema[] {
  if (route.body === "*") return [];
  const bound = new Set(route.template.variables.map((v) => v.fieldPath.join(".")));
  if (route.body) bound.add(route.body);
  return leafNames(builder, route.method.input, bound, false).map(({ name, field, schema, required }) => ({
    name,
    in: "query",
    ...(name.endsWith("[key]") ? {} : { required }),
    schema,
    ...(field.fieldKind === "list" ? { explode: true } : {}),
  }));
}

/** The multipart form of a body: its file fields as binary, its other leaf fields as text, dotted names. */
export function formSchema(builder: SchemaBuilder, root: DescMessage): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const leaf of leafNames(builder, root, new Set(), true)) {
    properties[leaf.name] = leaf.schema;
    if (leaf.required) required.push(leaf.name);
  }
  return { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

function segmentText(s: TemplateSegment): string {
  return s.kind === "literal" ? s.value : s.kind === "wildcard" ? "*" : "**";
}

/** The OpenAPI path of a template (`/a/{b.c}:verb`) and its path parameters, in order. */
export function pathParameters(
  builder: SchemaBuilder,
  template: PathTemplate,
  input: DescMessage,
  methodName: string,
): { path: string; parameters: JsonSchema[] } {
  const parts: string[] = [];
  const parameters: JsonSchema[] = [];
  for (let i = 0; i < template.segments.length;) {
    const v = template.variables.find((x) => x.start === i);
    if (!v) {
      parts.push(segmentText(template.segments[i]!));
      i++;
      continue;
    }
    const name = v.fieldPath.join(".");
    let desc = input;
    let field: DescField | undefined;
    for (const p of v.fieldPath) {
      field = desc.fields.find((f) => f.name === p);
      if (field?.message) desc = field.message;
    }
    if (!field) throw new OpenApiError(`${methodName}: no field ${name}`);
    const inner = template.segments.slice(v.start, v.end).map(segmentText).join("/");
    parameters.push({
      name,
      in: "path",
      required: true,
      schema: builder.fieldSchema(field),
      ...(v.explicit ? { description: `matches ${inner}` } : {}),
    });
    parts.push(`{${name}}`);
    i = v.end;
  }
  return { path: `/${parts.join("/")}${template.verb ? `:${template.verb}` : ""}`, parameters };
}
