// The nestjsx/crud request-query language (RequestQueryBuilder/RequestQueryParser), parsed strictly:
// where nestjsx silently drops what it does not understand, this parser answers InvalidArgument, so a typo in an
// admin screen is a 400 rather than an unfiltered list.
import { invalidQuery, type AdminQueryParam } from "./errors.ts";
import {
  isComparisonOperator,
  isListOperator,
  isNullOperator,
  isRangeOperator,
  type ComparisonOperator,
} from "./operators.ts";
import type {
  AdminListQuery,
  Condition,
  FieldCondition,
  JoinSpec,
  ParsedAdminQuery,
  ScalarValue,
  SortSpec,
} from "./types.ts";

/** Hard ceiling of `limit`, whatever a list allows; lists clamp further with their own maxLimit. */
export const MAX_LIMIT = 1000;
/** `s` longer than this is refused before JSON parsing, so a huge body cannot cost much. */
export const MAX_SEARCH_LENGTH = 16_384;
/** Deepest `$and`/`$or` nesting accepted in `s`. */
export const MAX_SEARCH_DEPTH = 8;
/** Most field comparisons accepted in one request (s, filter and or together). */
export const MAX_CONDITIONS = 100;
/** offset, page and cache are int32 in the proto; the same bound keeps OFFSET arithmetic exact. */
export const MAX_INT32 = 2_147_483_647;

/** Separates field, operator and value in `filter`/`or`, and relation and fields in `join`. */
export const DELIM = "||";
/** Separates list items: fields, `$in` values, sort field and direction. */
export const DELIM_STR = ",";

/**
 * Parses an admin list request. Pure: field names are checked against an entity later (see admin-list.ts).
 *
 * Conditions combine as nestjsx/crud documents them:
 * - `s` present: it is the whole condition; `filter` and `or` are still validated but not applied.
 * - only `filter`: all filters must hold.
 * - only `or`: one `or` is a plain condition; several: any may hold.
 * - `filter` and `or`: (all filters) OR (all ors). With one of each this is simply filter OR or.
 */
export function parseAdminQuery(raw: AdminListQuery): ParsedAdminQuery {
  const budget = { left: MAX_CONDITIONS };
  const search = raw.s ? parseSearch(raw.s, budget) : undefined;
  const filter = (raw.filter ?? []).map((item) => parseCondition("filter", item, budget));
  const or = (raw.or ?? []).map((item) => parseCondition("or", item, budget));
  const parsed: ParsedAdminQuery = {
    filter,
    or,
    sort: parseSort(raw.sort ?? []),
    join: parseJoin(raw.join ?? []),
  };
  if (raw.fields) parsed.fields = parseFields(raw.fields);
  if (search) parsed.search = search;
  const where = search ?? combineFilterAndOr(filter, or);
  if (where) parsed.where = where;
  const limit = parseInteger("limit", raw.limit, 1, MAX_LIMIT);
  if (limit !== undefined) parsed.limit = limit;
  const offset = parseInteger("offset", raw.offset, 0, MAX_INT32);
  if (offset !== undefined) parsed.offset = offset;
  const page = parseInteger("page", raw.page, 1, MAX_INT32);
  if (page !== undefined) parsed.page = page;
  const cache = parseInteger("cache", raw.cache, 0, MAX_INT32);
  if (cache !== undefined) parsed.cache = cache;
  return parsed;
}

function combineFilterAndOr(filter: FieldCondition[], or: FieldCondition[]): Condition | undefined {
  const all = group("$and", filter);
  const any = filter.length > 0 ? group("$and", or) : group("$or", or);
  if (all && any) return { $or: [all, any] };
  return all ?? any;
}

/** Builds a group, collapsing the trivial cases so the tree has no empty or single-child groups. */
function group(kind: "$and" | "$or", conditions: Condition[]): Condition | undefined {
  if (conditions.length === 0) return undefined;
  if (conditions.length === 1) return conditions[0];
  return kind === "$and" ? { $and: conditions } : { $or: conditions };
}

function parseFields(raw: string): string[] {
  const names = raw.split(DELIM_STR).map((name) => name.trim());
  if (names.some((name) => name === "")) throw invalidQuery("fields", "empty field name");
  return [...new Set(names)];
}

function parseOperator(param: AdminQueryParam, raw: string): ComparisonOperator {
  if (!isComparisonOperator(raw)) throw invalidQuery(param, `unknown operator ${JSON.stringify(raw)}`);
  return raw;
}

function spend(param: AdminQueryParam, budget: { left: number }): void {
  budget.left -= 1;
  if (budget.left < 0) throw invalidQuery(param, `more than ${MAX_CONDITIONS} conditions`);
}

/** `field||$op||value`. Everything after the second `||` is the value, so values may contain `||`. */
export function parseCondition(
  param: "filter" | "or",
  raw: string,
  budget: { left: number } = { left: MAX_CONDITIONS },
): FieldCondition {
  spend(param, budget);
  const first = raw.indexOf(DELIM);
  if (first < 0) throw invalidQuery(param, `expected field${DELIM}$operator${DELIM}value, got ${JSON.stringify(raw)}`);
  const field = raw.slice(0, first);
  if (field.trim() === "") throw invalidQuery(param, "empty field name");
  const rest = raw.slice(first + DELIM.length);
  const second = rest.indexOf(DELIM);
  const operator = parseOperator(param, second < 0 ? rest : rest.slice(0, second));
  const value = second < 0 ? undefined : rest.slice(second + DELIM.length);
  if (isNullOperator(operator)) {
    if (value) throw invalidQuery(param, `${JSON.stringify(operator)} on ${JSON.stringify(field)} takes no value`);
    return { field, operator };
  }
  if (!value) throw invalidQuery(param, `${JSON.stringify(operator)} on ${JSON.stringify(field)} needs a value`);
  if (isListOperator(operator) || isRangeOperator(operator)) {
    const items = value.split(DELIM_STR);
    if (items.some((item) => item === "")) {
      throw invalidQuery(param, `${JSON.stringify(operator)} on ${JSON.stringify(field)} has an empty list item`);
    }
    if (isListOperator(operator)) return { field, operator, value: items };
    if (items.length !== 2) {
      throw invalidQuery(param, `"$between" on ${JSON.stringify(field)} needs exactly two values: low,high`);
    }
    return { field, operator, value: [items[0]!, items[1]!] };
  }
  return { field, operator, value };
}

function parseSearch(raw: string, budget: { left: number }): Condition | undefined {
  if (raw.length > MAX_SEARCH_LENGTH) throw invalidQuery("s", `longer than ${MAX_SEARCH_LENGTH} characters`);
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw invalidQuery("s", "not valid JSON");
  }
  if (!isPlainObject(json)) throw invalidQuery("s", "must be a JSON object");
  return searchObject(json, 1, budget);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): value is ScalarValue {
  return typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && isFinite(value));
}

/**
 * One object of `s`: every key must hold (nestjsx would ignore the other keys next to `$and`; we do not drop
 * conditions silently). `$and`/`$or` take arrays of objects; any other key is a field.
 */
function searchObject(obj: Record<string, unknown>, depth: number, budget: { left: number }): Condition | undefined {
  if (depth > MAX_SEARCH_DEPTH) throw invalidQuery("s", `nested deeper than ${MAX_SEARCH_DEPTH} levels`);
  const parts: Condition[] = [];
  for (const [key, value] of Object.entries(obj)) {
    if (key === "$and" || key === "$or") {
      if (!Array.isArray(value) || !value.every(isPlainObject)) {
        throw invalidQuery("s", `${JSON.stringify(key)} must be an array of objects`);
      }
      const children = value
        .map((child) => searchObject(child, depth + 1, budget))
        .filter((c): c is Condition => c !== undefined);
      const built = group(key, children);
      if (built) parts.push(built);
    } else if (key.startsWith("$")) {
      throw invalidQuery("s", `unknown operator ${JSON.stringify(key)}`);
    } else if (key.trim() === "") {
      throw invalidQuery("s", "empty field name");
    } else {
      parts.push(searchField(key, value, budget));
    }
  }
  return group("$and", parts);
}

/** `"field": value` (equality, null meaning $isnull) or `"field": {"$op": value, ..., "$or": {"$op": value}}`. */
function searchField(field: string, value: unknown, budget: { left: number }): Condition {
  if (value === null) {
    spend("s", budget);
    return { field, operator: "$isnull" };
  }
  if (isScalar(value)) {
    spend("s", budget);
    return { field, operator: "$eq", value };
  }
  if (!isPlainObject(value)) {
    throw invalidQuery("s", `${JSON.stringify(field)} must be a value or an object of operators`);
  }
  const parts: Condition[] = [];
  for (const [key, operand] of Object.entries(value)) {
    if (key === "$or") {
      if (!isPlainObject(operand)) throw invalidQuery("s", `"$or" of ${JSON.stringify(field)} must be an object`);
      const any = Object.entries(operand).map(([op, v]) => searchOperator(field, op, v, budget));
      const built = group("$or", any);
      if (built) parts.push(built);
    } else {
      parts.push(searchOperator(field, key, operand, budget));
    }
  }
  const built = group("$and", parts);
  if (!built) throw invalidQuery("s", `${JSON.stringify(field)} has no operator`);
  return built;
}

function searchOperator(field: string, key: string, operand: unknown, budget: { left: number }): FieldCondition {
  spend("s", budget);
  const operator = parseOperator("s", key);
  const where = `${JSON.stringify(operator)} on ${JSON.stringify(field)}`;
  if (isNullOperator(operator)) {
    if (operand !== true) throw invalidQuery("s", `${where} takes true`);
    return { field, operator };
  }
  if (isListOperator(operator) || isRangeOperator(operator)) {
    if (!Array.isArray(operand) || operand.length === 0 || !operand.every(isScalar)) {
      throw invalidQuery("s", `${where} needs a non-empty array of values`);
    }
    if (isListOperator(operator)) return { field, operator, value: operand };
    if (operand.length !== 2) throw invalidQuery("s", `${where} needs exactly two values: [low, high]`);
    return { field, operator, value: [operand[0]!, operand[1]!] };
  }
  if (!isScalar(operand)) throw invalidQuery("s", `${where} needs a string, number or boolean`);
  return { field, operator, value: operand };
}

/** `field,ASC|DESC`; the direction is case-insensitive, as HTTP callers are inconsistent about it. */
function parseSort(items: string[]): SortSpec[] {
  const seen = new Set<string>();
  return items.map((item) => {
    const parts = item.split(DELIM_STR);
    const field = parts[0] ?? "";
    if (parts.length !== 2 || field.trim() === "") {
      throw invalidQuery("sort", `expected field,ASC or field,DESC, got ${JSON.stringify(item)}`);
    }
    const order = parts[1]!.toUpperCase();
    if (order !== "ASC" && order !== "DESC") throw invalidQuery("sort", "direction must be ASC or DESC");
    if (seen.has(field)) throw invalidQuery("sort", `field ${JSON.stringify(field)} given twice`);
    seen.add(field);
    return { field, order };
  });
}

/** `relation` or `relation||field1,field2`. */
function parseJoin(items: string[]): JoinSpec[] {
  const seen = new Set<string>();
  return items.map((item) => {
    const at = item.indexOf(DELIM);
    const relation = at < 0 ? item : item.slice(0, at);
    if (relation.trim() === "") throw invalidQuery("join", "empty relation name");
    if (seen.has(relation)) throw invalidQuery("join", `relation ${JSON.stringify(relation)} given twice`);
    seen.add(relation);
    if (at < 0) return { relation };
    const fields = item
      .slice(at + DELIM.length)
      .split(DELIM_STR)
      .map((f) => f.trim());
    if (fields.some((f) => f === "")) throw invalidQuery("join", `empty field name for ${JSON.stringify(relation)}`);
    return { relation, fields: [...new Set(fields)] };
  });
}

function parseInteger(
  param: "limit" | "offset" | "page" | "cache",
  raw: number | undefined,
  min: number,
  max: number,
): number | undefined {
  if (raw === undefined || raw === 0) return undefined;
  if (!Number.isSafeInteger(raw) || raw < min || raw > max) {
    throw invalidQuery(param, `must be an integer between ${min} and ${max}`);
  }
  return raw;
}
