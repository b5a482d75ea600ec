// The comparison operators of the nestjsx/crud request-query language, grouped by what value they take.

/** Operators that compare with one value. */
export const SCALAR_OPERATORS = [
  "$eq",
  "$ne",
  "$gt",
  "$lt",
  "$gte",
  "$lte",
  "$starts",
  "$ends",
  "$cont",
  "$excl",
  "$eqL",
  "$neL",
  "$startsL",
  "$endsL",
  "$contL",
  "$exclL",
] as const;

/** Operators that take a list (comma separated in `filter`/`or`, a JSON array in `s`). */
export const LIST_OPERATORS = ["$in", "$notin", "$inL", "$notinL"] as const;

/** Takes exactly two values: the inclusive lower and upper bound. */
export const RANGE_OPERATORS = ["$between"] as const;

/** Operators that take no value. */
export const NULL_OPERATORS = ["$isnull", "$notnull"] as const;

export type ScalarOperator = (typeof SCALAR_OPERATORS)[number];
export type ListOperator = (typeof LIST_OPERATORS)[number];
export type RangeOperator = (typeof RANGE_OPERATORS)[number];
export type NullOperator = (typeof NULL_OPERATORS)[number];
export type ComparisonOperator = ScalarOperator | ListOperator | RangeOperator | NullOperator;

export const COMPARISON_OPERATORS: readonly ComparisonOperator[] = [
  ...SCALAR_OPERATORS,
  ...LIST_OPERATORS,
  ...RANGE_OPERATORS,
  ...NULL_OPERATORS,
];

/** Operators that only make sense on text: pattern matches and the case-insensitive family. */
export const TEXT_OPERATORS: ReadonlySet<ComparisonOperator> = new Set([
  "$starts",
  "$ends",
  "$cont",
  "$excl",
  "$eqL",
  "$neL",
  "$startsL",
  "$endsL",
  "$contL",
  "$exclL",
  "$inL",
  "$notinL",
]);

const all: ReadonlySet<string> = new Set(COMPARISON_OPERATORS);
const lists: ReadonlySet<string> = new Set(LIST_OPERATORS);
const nulls: ReadonlySet<string> = new Set(NULL_OPERATORS);

export function isComparisonOperator(op: string): op is ComparisonOperator {
  return all.has(op);
}

export function isListOperator(op: ComparisonOperator): op is ListOperator {
  return lists.has(op);
}

export function isNullOperator(op: ComparisonOperator): op is NullOperator {
  return nulls.has(op);
}

export function isRangeOperator(op: ComparisonOperator): op is RangeOperator {
  return op === "$between";
}
