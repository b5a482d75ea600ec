import type { MessageInitShape } from "@bufbuild/protobuf";
import type { AdminListQuerySchema } from "@tt/proto/tt/common/v1/admin_list_pb";
import type { SelectOption } from "@tt/web-kit/ui";

/** The admin list query as the Connect clients take it (tt.common.v1.AdminListQuery). */
export type AdminListQueryInit = MessageInitShape<typeof AdminListQuerySchema>;

/** The operators of the query language a filter uses (services/kit/src/admin-query/README.md). */
export type FilterOp = "$eq" | "$ne" | "$cont" | "$contL" | "$starts" | "$gte" | "$lte" | "$gt" | "$lt";

export interface FilterSpec {
  /** Unique within the description (two filters may share a field, e.g. createdAt from/to). */
  id: string;
  field: string;
  op: FilterOp;
  label: string;
  /** A fixed choice (an enumeration's wire names, shown as words) instead of free text. */
  options?: readonly SelectOption[];
  /** "datetime" values are local date-times sent as ISO 8601 instants. */
  type?: "text" | "datetime";
}

export type SortDir = "ASC" | "DESC";

export interface ListState {
  page: number;
  sort?: { field: string; dir: SortDir };
  /** Filter id → value; empty values are not sent. */
  filters: Record<string, string>;
}

/** Values the query language cannot carry literally: its separator. */
const SEPARATOR = "||";

/** The state of a list screen as the query language's names: page, limit, sort "field,DIR", filter "field||$op||value". */
export function buildQuery(state: ListState, filters: readonly FilterSpec[], pageSize: number): AdminListQueryInit {
  const filter: string[] = [];
  for (const spec of filters) {
    const raw = state.filters[spec.id]?.trim();
    if (!raw) continue;
    let value = raw.replaceAll(SEPARATOR, "");
    if (spec.type === "datetime") {
      const at = new Date(raw);
      if (Number.isNaN(at.getTime())) continue;
      value = at.toISOString();
    }
    if (!value) continue;
    filter.push(`${spec.field}${SEPARATOR}${spec.op}${SEPARATOR}${value}`);
  }
  return {
    limit: pageSize,
    page: Math.max(1, state.page),
    sort: state.sort ? [`${state.sort.field},${state.sort.dir}`] : [],
    filter,
  };
}
