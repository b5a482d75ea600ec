// The inverse of parseCondition, for callers building admin list URLs (the role of nestjsx's RequestQueryBuilder).
import { DELIM, DELIM_STR } from "./parse.ts";
import type { FieldCondition } from "./types.ts";

/** Formats a condition as `field||$op||value`; list values must not contain commas (the format has no escape). */
export function formatCondition(condition: FieldCondition): string {
  const head = `${condition.field}${DELIM}${condition.operator}`;
  if (!("value" in condition)) return head;
  const value = Array.isArray(condition.value) ? condition.value.map(String).join(DELIM_STR) : String(condition.value);
  return `${head}${DELIM}${value}`;
}
