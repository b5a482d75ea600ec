// Translates a parsed admin query into MikroORM find options. Every field goes through the list's allow-list and
// every value is converted by the entity property's type here, so PostgreSQL never sees a value it would reject
// with an error (that would surface as a 500 instead of a 400).
import { ReferenceKind, type EntityMetadata, type EntityProperty } from "@mikro-orm/core";
import { invalidQuery, type AdminQueryParam } from "./errors.ts";
import { TEXT_OPERATORS, isListOperator, isNullOperator, isRangeOperator } from "./operators.ts";
import type { Condition, FieldCondition, ParsedAdminQuery, ScalarValue, SortSpec } from "./types.ts";

type Dict = Record<string, unknown>;

/** A field of the allow-list resolved against the entity metadata. */
export interface ResolvedField {
  /** Property path from the root entity, e.g. ["artist", "name"]. */
  path: string[];
  /** The property whose type values are converted to (for a to-one relation: the target's primary key). */
  prop: EntityProperty;
}

/** Everything the translation needs to know about one list. */
export interface QueryTarget {
  meta: EntityMetadata;
  /** API field name → entity property path ("name", "artist.name"). */
  fields: Record<string, string>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/;
const INT_RANGES: Record<string, [bigint, bigint]> = {
  smallint: [-(2n ** 15n), 2n ** 15n - 1n],
  int2: [-(2n ** 15n), 2n ** 15n - 1n],
  int: [-(2n ** 31n), 2n ** 31n - 1n],
  integer: [-(2n ** 31n), 2n ** 31n - 1n],
  int4: [-(2n ** 31n), 2n ** 31n - 1n],
  bigint: [-(2n ** 63n), 2n ** 63n - 1n],
  int8: [-(2n ** 63n), 2n ** 63n - 1n],
};

/**
 * Resolves an entity property path. A wrong path is a bug in the list's spec, not in the request, so it is a plain
 * Error (Internal), thrown on every request until the spec is fixed.
 */
export function resolvePath(meta: EntityMetadata, propertyPath: string): ResolvedField {
  const path = propertyPath.split(".");
  let current: EntityMetadata | undefined = meta;
  let prop: EntityProperty | undefined;
  for (const [i, name] of path.entries()) {
    prop = current && Object.hasOwn(current.properties, name) ? current.properties[name] : undefined;
    if (!current || !prop) throw new Error(`admin list spec: ${meta.className} has no property path "${propertyPath}"`);
    current = i < path.length - 1 ? prop.targetMeta : undefined;
  }
  if (!prop) throw new Error(`admin list spec: empty property path for ${meta.className}`);
  return { path, prop: valueProperty(prop, meta, propertyPath) };
}

/** The property values are compared with: the column itself, or the target primary key of a to-one relation. */
function valueProperty(prop: EntityProperty, meta: EntityMetadata, propertyPath: string): EntityProperty {
  if (prop.kind === ReferenceKind.SCALAR) return prop;
  const target = prop.targetMeta;
  const toOne = prop.kind === ReferenceKind.MANY_TO_ONE || prop.kind === ReferenceKind.ONE_TO_ONE;
  const pk = target?.primaryKeys.length === 1 ? target.properties[target.primaryKeys[0]!] : undefined;
  if (!toOne || !pk) {
    throw new Error(`admin list spec: ${meta.className}.${propertyPath} is not a column or a to-one relation`);
  }
  return pk;
}

/** Looks an API field name up in the allow-list; anything else is the caller's mistake. */
export function resolveField(target: QueryTarget, param: AdminQueryParam, field: string): ResolvedField {
  const propertyPath = Object.hasOwn(target.fields, field) ? target.fields[field] : undefined;
  if (propertyPath === undefined) throw invalidQuery(param, `unknown field ${JSON.stringify(field)}`);
  return resolvePath(target.meta, propertyPath);
}

/** Nests a leaf under a property path: ["artist", "name"], x → { artist: { name: x } }. */
function nest(path: string[], leaf: unknown): Dict {
  let out = leaf;
  for (const name of [...path].reverse()) out = { [name]: out };
  return out as Dict;
}

/** Escapes LIKE wildcards (PostgreSQL's default escape character is the backslash) so values match literally. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

type Kind = "text" | "enum" | "uuid" | "integer" | "decimal" | "float" | "boolean" | "date";

// By column type, not by TypeScript type: the column decides what PostgreSQL accepts (a decimal is a string in JS
// but "abc" is still an error in SQL). Columns not listed (json, arrays, time, bytea, …) cannot be compared.
const COLUMN_KINDS: Record<string, Kind> = {
  varchar: "text",
  "character varying": "text",
  text: "text",
  char: "text",
  character: "text",
  bpchar: "text",
  citext: "text",
  uuid: "uuid",
  smallint: "integer",
  int2: "integer",
  int: "integer",
  integer: "integer",
  int4: "integer",
  serial: "integer",
  bigint: "integer",
  int8: "integer",
  bigserial: "integer",
  numeric: "decimal",
  decimal: "decimal",
  real: "float",
  float4: "float",
  float: "float",
  "double precision": "float",
  double: "float",
  float8: "float",
  boolean: "boolean",
  bool: "boolean",
  date: "date",
  datetime: "date",
  timestamp: "date",
  timestamptz: "date",
  "timestamp with time zone": "date",
  "timestamp without time zone": "date",
};

function columnType(prop: EntityProperty): string {
  return (prop.columnTypes[0] ?? "")
    .toLowerCase()
    .replace(/\(.*\)/, "")
    .trim();
}

function kindOf(prop: EntityProperty): Kind | undefined {
  // Native PostgreSQL enums accept their labels only and have no LIKE; check-constraint enums are plain text.
  if (prop.enum) return prop.nativeEnumName ? "enum" : "text";
  return COLUMN_KINDS[columnType(prop)];
}

/** Converts one comparison value to what the property holds; `field` is the API name for messages. */
function convertValue(param: AdminQueryParam, field: string, prop: EntityProperty, value: ScalarValue): unknown {
  const kind = kindOf(prop);
  const text = String(value);
  const fail = (expected: string) =>
    invalidQuery(param, `${JSON.stringify(field)} needs ${expected}, got ${JSON.stringify(value)}`);
  switch (kind) {
    case "text":
    case "enum":
    case "uuid": {
      if (typeof value === "boolean") throw fail("text");
      // PostgreSQL refuses NUL in text parameters with an error, not a non-match.
      if (text.includes("\u0000")) throw fail("text without NUL characters");
      if (kind === "uuid" && !UUID.test(text)) throw fail("a UUID");
      if (prop.enum && prop.items?.length && !prop.items.map(String).includes(text)) {
        throw fail(`one of ${prop.items.map(String).join(", ")}`);
      }
      return text;
    }
    case "integer": {
      if (typeof value === "boolean" || !INTEGER.test(text)) throw fail("an integer");
      const [min, max] = INT_RANGES[columnType(prop)] ?? INT_RANGES.bigint!;
      const big = BigInt(text);
      if (big < min || big > max) throw fail(`an integer between ${min} and ${max}`);
      if (prop.runtimeType === "bigint") return big;
      return prop.runtimeType === "number" ? Number(big) : big.toString();
    }
    case "decimal":
    case "float": {
      const n = typeof value === "number" ? value : DECIMAL.test(text) ? Number(text) : NaN;
      if (typeof value === "boolean" || !Number.isFinite(n)) throw fail("a number");
      // Decimals held as strings keep the caller's digits, so no precision is lost on the way to SQL.
      return kind === "decimal" && prop.runtimeType !== "number" && typeof value === "string" ? text : n;
    }
    case "boolean":
      if (value === true || value === "true" || value === 1 || value === "1") return true;
      if (value === false || value === "false" || value === 0 || value === "0") return false;
      throw fail("true or false");
    case "date": {
      const date = typeof value === "string" && ISO_DATE.test(value) ? new Date(value) : undefined;
      if (!date || Number.isNaN(date.getTime())) throw fail("an ISO 8601 date");
      if (prop.runtimeType === "Date") return date;
      // A date column takes the text as written, so it must be a real calendar day (no 2024-02-30).
      if (columnType(prop) === "date" && date.toISOString().slice(0, 10) !== value) throw fail("a date (YYYY-MM-DD)");
      return value;
    }
    default:
      throw invalidQuery(param, `${JSON.stringify(field)} cannot be compared`);
  }
}

/** One field comparison as a MikroORM FilterQuery object. */
export function conditionToFilter(target: QueryTarget, param: AdminQueryParam, condition: FieldCondition): Dict {
  const { path, prop } = resolveField(target, param, condition.field);
  const { field, operator } = condition;
  const kind = kindOf(prop);
  if (TEXT_OPERATORS.has(operator) && kind !== "text") {
    throw invalidQuery(param, `${JSON.stringify(operator)} needs a text field, ${JSON.stringify(field)} is not one`);
  }
  if (isNullOperator(operator) || !("value" in condition)) {
    return nest(path, operator === "$isnull" ? null : { $ne: null });
  }
  const operand = condition.value;
  // Pattern operators are matched without the enum check: a part of an enum value is not an enum value.
  const like = (value: ScalarValue) => {
    if (typeof value === "boolean") throw invalidQuery(param, `${JSON.stringify(field)} needs text, got ${value}`);
    const text = String(value);
    if (text.includes("\u0000"))
      throw invalidQuery(param, `${JSON.stringify(field)} needs text without NUL characters`);
    return escapeLike(text);
  };
  const convert = (value: ScalarValue) => convertValue(param, field, prop, value);
  if (isRangeOperator(operator)) {
    const [low, high] = operand as [ScalarValue, ScalarValue];
    return nest(path, { $gte: convert(low), $lte: convert(high) });
  }
  if (isListOperator(operator)) {
    const values = operand as ScalarValue[];
    switch (operator) {
      case "$in":
        return nest(path, { $in: values.map(convert) });
      case "$notin":
        return nest(path, { $nin: values.map(convert) });
      case "$inL":
        return { $or: values.map((v) => nest(path, { $ilike: like(v) })) };
      case "$notinL":
        return { $and: values.map((v) => ({ $not: nest(path, { $ilike: like(v) }) })) };
    }
  }
  const value = operand as ScalarValue;
  switch (operator) {
    case "$eq":
      return nest(path, { $eq: convert(value) });
    case "$ne":
      return nest(path, { $ne: convert(value) });
    case "$gt":
      return nest(path, { $gt: convert(value) });
    case "$lt":
      return nest(path, { $lt: convert(value) });
    case "$gte":
      return nest(path, { $gte: convert(value) });
    case "$lte":
      return nest(path, { $lte: convert(value) });
    case "$starts":
      return nest(path, { $like: `${like(value)}%` });
    case "$ends":
      return nest(path, { $like: `%${like(value)}` });
    case "$cont":
      return nest(path, { $like: `%${like(value)}%` });
    case "$excl":
      return { $not: nest(path, { $like: `%${like(value)}%` }) };
    case "$eqL":
      return nest(path, { $ilike: like(value) });
    case "$neL":
      return { $not: nest(path, { $ilike: like(value) }) };
    case "$startsL":
      return nest(path, { $ilike: `${like(value)}%` });
    case "$endsL":
      return nest(path, { $ilike: `%${like(value)}` });
    case "$contL":
      return nest(path, { $ilike: `%${like(value)}%` });
    case "$exclL":
      return { $not: nest(path, { $ilike: `%${like(value)}%` }) };
  }
  throw invalidQuery(param, `unknown operator ${JSON.stringify(operator)}`);
}

/**
 * The WHERE of a parsed query. Every condition of s, filter and or is checked (so errors name the parameter the
 * caller wrote), then `parsed.where` is translated.
 */
export function toFilterQuery(target: QueryTarget, parsed: ParsedAdminQuery): Dict {
  const done = new Map<FieldCondition, Dict>();
  const visit = (param: AdminQueryParam, condition: Condition): void => {
    if ("$and" in condition) condition.$and.forEach((c) => visit(param, c));
    else if ("$or" in condition) condition.$or.forEach((c) => visit(param, c));
    else done.set(condition, conditionToFilter(target, param, condition));
  };
  if (parsed.search) visit("s", parsed.search);
  parsed.filter.forEach((c) => visit("filter", c));
  parsed.or.forEach((c) => visit("or", c));
  const build = (condition: Condition): Dict => {
    if ("$and" in condition) return { $and: condition.$and.map(build) };
    if ("$or" in condition) return { $or: condition.$or.map(build) };
    return done.get(condition) ?? conditionToFilter(target, "filter", condition);
  };
  return parsed.where ? build(parsed.where) : {};
}

/** ORDER BY entries, in request order, with the primary key last so paging is stable between requests. */
export function toOrderBy(target: QueryTarget, sort: SortSpec[], param: AdminQueryParam = "sort"): Dict[] {
  const order = sort.map(({ field, order }) => nest(resolveField(target, param, field).path, order));
  for (const pk of target.meta.primaryKeys) {
    if (!order.some((o) => Object.keys(o).length === 1 && o[pk] !== undefined)) order.push({ [pk]: "ASC" });
  }
  return order;
}
