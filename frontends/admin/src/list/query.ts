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
  /**
   * "datetime" values are local date-times sent as ISO 8601 instants; "user" values are a nickname or an e-mail
   * (or part of one), sent as the uuids of the users they find (see withUsersFound).
   */
  type?: "text" | "datetime" | "user";
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Matches no user: the uuid list of a search that found nobody. */
/** The uuid a user filter is sent as when its words find nobody (so the list is empty). */
export const NOBODY = "00000000-0000-0000-0000-000000000000";

/**
 * The query with each "user" filter's words (a nickname or an e-mail, or part of one) replaced by the uuids of the
 * users they find, `field||$in||uuid,uuid`; a uuid itself is sent as it is. Nobody found matches no row.
 */
export async function withUsersFound(
  query: AdminListQueryInit,
  filters: readonly FilterSpec[],
  findUsers: (words: string) => Promise<string[]>,
): Promise<AdminListQueryInit> {
  const users = filters.filter((spec) => spec.type === "user");
  if (users.length === 0) return query;
  const filter = await Promise.all(
    (query.filter ?? []).map(async (entry) => {
      const [field, op, ...rest] = entry.split(SEPARATOR);
      const words = rest.join(SEPARATOR);
      if (!users.some((spec) => spec.field === field && spec.op === op) || UUID.test(words)) return entry;
      const found = await findUsers(words);
      return [field, "$in", found.length > 0 ? found.join(",") : NOBODY].join(SEPARATOR);
    }),
  );
  return { ...query, filter };
}
