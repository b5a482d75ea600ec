// One implementation of every admin list: parse, check against the list's allow-lists, query, page.
import {
  ReferenceKind,
  type EntityManager,
  type EntityMetadata,
  type EntityName,
  type FilterQuery,
} from "@mikro-orm/core";
import { invalidQuery } from "./errors.ts";
import { parseAdminQuery } from "./parse.ts";
import { resolveField, resolvePath, toFilterQuery, toOrderBy, type QueryTarget } from "./to-mikro-orm.ts";
import type { AdminListPage, AdminListQuery, ParsedAdminQuery, SortSpec } from "./types.ts";

export const DEFAULT_LIMIT = 25;
export const DEFAULT_MAX_LIMIT = 100;

export interface AdminListSpec<T extends object> {
  entity: EntityName<T>;
  /**
   * The allow-list: API field name → entity property path ("email", "profile.nickname", or a to-one relation,
   * compared by its primary key). Only these may appear in fields, s, filter, or and sort.
   */
  fields: Record<string, string>;
  /** API relation name → entity relation path; only these may be joined (populated). */
  relations?: Record<string, string>;
  /** Sort used when the request has none, by API field name. */
  defaultSort?: [string, "ASC" | "DESC"][];
  /** Rows per page when the request gives no limit (25). */
  defaultLimit?: number;
  /** Larger limits are lowered to this, as nestjsx does (100). */
  maxLimit?: number;
}

/** Paging as nestjsx/crud computes it: page wins over offset; page and pageCount are derived from the window. */
export function pageWindow(
  parsed: Pick<ParsedAdminQuery, "limit" | "offset" | "page">,
  defaultLimit = DEFAULT_LIMIT,
  maxLimit = DEFAULT_MAX_LIMIT,
): { limit: number; offset: number } {
  const limit = Math.max(1, Math.min(parsed.limit ?? defaultLimit, maxLimit));
  const offset = parsed.page ? limit * (parsed.page - 1) : (parsed.offset ?? 0);
  return { limit, offset };
}

export function pageInfo(
  window: { limit: number; offset: number },
  count: number,
  total: number,
): Omit<AdminListPage<never>, "data"> {
  return {
    count,
    total,
    page: Math.floor(window.offset / window.limit) + 1,
    pageCount: total > 0 ? Math.ceil(total / window.limit) : 1,
  };
}

/**
 * Answers an admin list request: `{data, count, total, page, pageCount}`.
 * Throws ConnectError InvalidArgument for anything malformed or outside the spec's allow-lists.
 * `cache` is validated and otherwise ignored: no result cache is kept (see
 * docs/decisions/0035-admin-list-query-language-paging.md). `scope` is a condition set by the server (e.g. the room of
 * the path), ANDed with whatever the caller asks; it is not checked against the allow-list, and the caller cannot widen
 * it.
 */
export async function adminList<T extends object>(
  em: EntityManager,
  spec: AdminListSpec<T>,
  query: AdminListQuery,
  scope?: FilterQuery<T>,
): Promise<AdminListPage<T>> {
  const parsed = parseAdminQuery(query);
  const meta = em.getMetadata().get(spec.entity) as EntityMetadata;
  const target: QueryTarget = { meta, fields: spec.fields };

  const requested = toFilterQuery(target, parsed);
  const where = scope ? { $and: [scope, requested] } : requested;
  const orderBy = toOrderBy(target, parsed.sort.length > 0 ? parsed.sort : defaultSort(spec));
  const { populate, joinFields } = joins(target, spec, parsed);
  const fields = selection(target, parsed, joinFields);
  const window = pageWindow(parsed, spec.defaultLimit, spec.maxLimit);

  // Paths are checked against the metadata above; MikroORM's typed paths cannot express run-time strings.
  const options: Record<string, unknown> = { ...window, orderBy };
  if (populate.length > 0) options.populate = populate;
  if (fields) options.fields = fields;
  const [data, total] = await em.findAndCount<T>(spec.entity, where as never, options as never);
  return { data: data as T[], ...pageInfo(window, data.length, total) };
}

function defaultSort<T extends object>(spec: AdminListSpec<T>): SortSpec[] {
  return (spec.defaultSort ?? []).map(([field, order]) => {
    if (!Object.hasOwn(spec.fields, field))
      throw new Error(`admin list spec: defaultSort field "${field}" not in fields`);
    return { field, order };
  });
}

function joins<T extends object>(
  target: QueryTarget,
  spec: AdminListSpec<T>,
  parsed: ParsedAdminQuery,
): { populate: string[]; joinFields: string[] } {
  const relations = spec.relations ?? {};
  const populate: string[] = [];
  const joinFields: string[] = [];
  for (const join of parsed.join) {
    const path = Object.hasOwn(relations, join.relation) ? relations[join.relation] : undefined;
    if (path === undefined) throw invalidQuery("join", `unknown relation ${JSON.stringify(join.relation)}`);
    const relationMeta = resolveRelation(target.meta, path);
    populate.push(path);
    if (!join.fields) continue;
    for (const field of join.fields) {
      const prop = Object.hasOwn(relationMeta.properties, field) ? relationMeta.properties[field] : undefined;
      if (prop?.kind !== ReferenceKind.SCALAR) {
        throw invalidQuery("join", `unknown field ${JSON.stringify(field)} of ${JSON.stringify(join.relation)}`);
      }
    }
    for (const field of new Set([...relationMeta.primaryKeys, ...join.fields])) joinFields.push(`${path}.${field}`);
  }
  return { populate, joinFields };
}

function resolveRelation(meta: EntityMetadata, path: string): EntityMetadata {
  const parent = path.includes(".") ? resolvePath(meta, path.slice(0, path.lastIndexOf("."))).prop.targetMeta : meta;
  const prop = parent?.properties[path.slice(path.lastIndexOf(".") + 1)];
  if (!prop?.targetMeta) throw new Error(`admin list spec: ${meta.className}.${path} is not a relation`);
  return prop.targetMeta;
}

/**
 * The `fields` option, or undefined to load whole entities. The primary key always comes back (nestjsx does the
 * same), and a join that names its fields keeps every root field unless `fields` narrows them too.
 */
function selection(target: QueryTarget, parsed: ParsedAdminQuery, joinFields: string[]): string[] | undefined {
  if (!parsed.fields && joinFields.length === 0) return undefined;
  const root = parsed.fields
    ? [...target.meta.primaryKeys, ...parsed.fields.map((f) => resolveField(target, "fields", f).path.join("."))]
    : ["*"];
  return [...new Set([...root, ...joinFields])];
}
