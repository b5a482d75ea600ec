export { adminList, pageInfo, pageWindow, DEFAULT_LIMIT, DEFAULT_MAX_LIMIT } from "./admin-list.ts";
export type { AdminListSpec } from "./admin-list.ts";
export { invalidQuery } from "./errors.ts";
export type { AdminQueryParam } from "./errors.ts";
export { formatCondition } from "./format.ts";
export { COMPARISON_OPERATORS } from "./operators.ts";
export type { ComparisonOperator, ListOperator, NullOperator, RangeOperator, ScalarOperator } from "./operators.ts";
export {
  parseAdminQuery,
  parseCondition,
  MAX_CONDITIONS,
  MAX_LIMIT,
  MAX_SEARCH_DEPTH,
  MAX_SEARCH_LENGTH,
} from "./parse.ts";
export { conditionToFilter, escapeLike, toFilterQuery, toOrderBy } from "./to-mikro-orm.ts";
export type { QueryTarget, ResolvedField } from "./to-mikro-orm.ts";
export type {
  AdminListPage,
  AdminListQuery,
  Condition,
  FieldCondition,
  JoinSpec,
  ParsedAdminQuery,
  ScalarValue,
  SortSpec,
} from "./types.ts";
