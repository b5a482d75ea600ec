// JSON Schemas of protobuf messages, as proto3 JSON shows them (64-bit integers are strings, enums their
// names, well-known types their JSON forms), with the declarative field rules of `tt.options.v1.field`
// that the kit's input-rules interceptor enforces: maxLength, minLength, format uuid, pattern, enum,
// minimum / maximum, required.
import { getOption, hasOption, ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { isWrapperDesc } from "@bufbuild/protobuf/wkt";
import { allowedStringsOf } from "@tt/kit";
import { field as fieldRules } from "@tt/proto/tt/options/v1/field_pb";

export type JsonSchema = Record<string, unknown>;

/** The JSON forms of the well-known types that are not wrappers. */
export const WKT: Readonly<Record<string, JsonSchema>> = {
  "google.protobuf.Timestamp": { type: "string", format: "date-time" },
  "google.protobuf.Duration": { type: "string", pattern: "^-?[0-9]+(\\.[0-9]+)?s$", examples: ["1.5s"] },
  "google.protobuf.FieldMask": { type: "string", description: "comma-separated lowerCamelCase field paths" },
  "google.protobuf.Struct": { type: "object", additionalProperties: true },
  "google.protobuf.Value": {},
  "google.protobuf.ListValue": { type: "array", items: {} },
  "google.protobuf.Empty": { type: "object" },
  "google.protobuf.Any": { type: "object", properties: { "@type": { type: "string" } }, additionalProperties: true },
};

export function scalarSchema(t: ScalarType): JsonSchema {
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

function hasType(schema: JsonSchema, t: string): boolean {
  return schema.type === t || (Array.isArray(schema.type) && schema.type.includes(t));
}

/** Whether the field declares `required` (tt.options.v1.field). */
export function isRequired(f: DescField): boolean {
  return hasOption(f, fieldRules) && getOption(f, fieldRules).required;
}

/**
 * One value's schema with its field's declared rules, as the kit enforces them: on a text string (not bytes)
 * maxLength, minLength, format uuid, pattern and enum; on a JSON integer minimum and maximum; on a 64-bit
 * integer (a JSON string) the range in words. In a list they apply to each item, in a map to each value.
 */
export function withFieldRules(schema: JsonSchema, f: DescField): JsonSchema {
  if (!hasOption(f, fieldRules)) return schema;
  const o = getOption(f, fieldRules);
  const out: JsonSchema = { ...schema };
  const text = hasType(schema, "string") && schema.contentEncoding === undefined && schema.format === undefined;
  if (text) {
    if (o.maxLength > 0) out.maxLength = o.maxLength;
    if (o.minLength > 0) out.minLength = o.minLength;
    if (o.uuid) out.format = "uuid";
    if (o.pattern) out.pattern = o.pattern;
    const allowed = allowedStringsOf(f);
    if (allowed.length > 0) out.enum = [...allowed];
  } else if (hasType(schema, "integer")) {
    if (o.gte !== undefined) out.minimum = Number(o.gte);
    if (o.lte !== undefined) out.maximum = Number(o.lte);
  } else if (o.gte !== undefined || o.lte !== undefined) {
    const range = [
      o.gte !== undefined ? `at least ${o.gte}` : undefined,
      o.lte !== undefined ? `at most ${o.lte}` : undefined,
    ];
    out.description = range.filter(Boolean).join(" and ");
  }
  return out;
}

/** Builds schemas into one `components.schemas` table, each message once (recursion included). */
export interface SchemaBuilder {
  /** The named schemas so far: messages and enums by full name, and any given at creation. */
  readonly schemas: Record<string, JsonSchema>;
  ref(name: string): JsonSchema;
  /** A message's schema: its JSON form for a well-known type, otherwise a $ref to its named schema. */
  messageSchema(desc: DescMessage): JsonSchema;
  /** A field's schema, its declared rules included. */
  fieldSchema(f: DescField): JsonSchema;
}

export function createSchemaBuilder(initial: Record<string, JsonSchema> = {}): SchemaBuilder {
  const schemas: Record<string, JsonSchema> = { ...initial };
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
      const required = desc.fields.filter(isRequired).map((f) => f.jsonName);
      schemas[desc.typeName] = {
        type: "object",
        properties,
        ...(required.length ? { required } : {}),
        additionalProperties: false,
      };
    }
    return ref(desc.typeName);
  };

  const enumSchema = (f: DescField): JsonSchema => {
    const e = f.enum!;
    if (!schemas[e.typeName]) schemas[e.typeName] = { type: "string", enum: e.values.map((v) => v.name) };
    return ref(e.typeName);
  };

  // Strings, integers and their wrappers carry their field's rules (in a list: each item; in a map: each value).
  const singular = (f: DescField, kind: "scalar" | "enum" | "message"): JsonSchema =>
    kind === "scalar"
      ? withFieldRules(scalarSchema(f.scalar!), f)
      : kind === "enum"
        ? enumSchema(f)
        : isWrapperDesc(f.message!)
          ? withFieldRules(messageSchema(f.message!), f)
          : messageSchema(f.message!);

  function fieldSchema(f: DescField): JsonSchema {
    switch (f.fieldKind) {
      case "scalar":
      case "enum":
      case "message":
        return singular(f, f.fieldKind);
      case "list":
        return { type: "array", items: singular(f, f.listKind), ...(isRequired(f) ? { minItems: 1 } : {}) };
      case "map": {
        const max = hasOption(f, fieldRules) ? getOption(f, fieldRules).maxLength : 0;
        return {
          type: "object",
          ...(f.mapKey === ScalarType.STRING && max > 0 ? { propertyNames: { type: "string", maxLength: max } } : {}),
          ...(isRequired(f) ? { minProperties: 1 } : {}),
          additionalProperties: singular(f, f.mapKind),
        };
      }
    }
  }

  return { schemas, ref, messageSchema, fieldSchema };
}
