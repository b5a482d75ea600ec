import type { ListOperator, NullOperator, RangeOperator, ScalarOperator } from "./operators.ts";

/**
 * The admin list query exactly as the proto message tt.common.v1.AdminListQuery carries it (every admin list's
 * request holds one as its flattened `query` field, so REST callers still write `?s=…&limit=…`).
 * Proto3 cannot tell zero from absent, so 0, "" and [] all mean "not given".
 */
export interface AdminListQuery {
  fields?: string;
  s?: string;
  filter?: string[];
  or?: string[];
  sort?: string[];
  join?: string[];
  limit?: number;
  offset?: number;
  page?: number;
  cache?: number;
}

/** A comparison value: text from `filter`/`or`, any JSON scalar from `s`. Converted per entity property later. */
export type ScalarValue = string | number | boolean;

export type FieldCondition =
  | { field: string; operator: ScalarOperator; value: ScalarValue }
  | { field: string; operator: ListOperator; value: ScalarValue[] }
  | { field: string; operator: RangeOperator; value: [ScalarValue, ScalarValue] }
  | { field: string; operator: NullOperator };

/** A search tree: a field comparison, or all (`$and`) / any (`$or`) of at least two sub-conditions. */
export type Condition = FieldCondition | { $and: Condition[] } | { $or: Condition[] };

export interface SortSpec {
  field: string;
  order: "ASC" | "DESC";
}

export interface JoinSpec {
  relation: string;
  /** Fields of the relation to load; undefined loads the whole relation. */
  fields?: string[];
}

export interface ParsedAdminQuery {
  /** API field names to return; undefined returns every field. */
  fields?: string[];
  /** The parsed `s`; when present it is the whole condition and `filter`/`or` are not applied. */
  search?: Condition;
  filter: FieldCondition[];
  or: FieldCondition[];
  /** The condition to apply, combined from search/filter/or by the nestjsx rules (see parse.ts). */
  where?: Condition;
  sort: SortSpec[];
  join: JoinSpec[];
  limit?: number;
  offset?: number;
  page?: number;
  cache?: number;
}

/** The answer of every admin list. */
export interface AdminListPage<T> {
  data: T[];
  /** Rows on this page. */
  count: number;
  /** Rows matching in all. */
  total: number;
  page: number;
  pageCount: number;
}
