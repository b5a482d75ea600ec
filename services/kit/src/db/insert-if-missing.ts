// "Find, then insert" of a row keyed by a natural key (a user's settings row, a pair's link) makes two rows when
// the same first call comes from two callers at once, and all but one of them fail on the key (issue 23: 119 of
// 150 concurrent first profile changes answered 500). Insert with `on conflict do nothing` instead: whoever
// comes first makes the row, the others make nothing, and every caller goes on to read the one row.
import type { EntityName, FilterQuery, FindOneOptions, RequiredEntityData } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";

/**
 * Inserts the row unless one with the same key (any primary or unique key) exists; true when this call made it.
 * Runs at once (in the entity manager's transaction when there is one), not at the next flush.
 */
export async function insertIfMissing<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  data: RequiredEntityData<T>,
): Promise<boolean> {
  const result = await em.createQueryBuilder(entity).insert(data).onConflict().ignore().execute("run");
  return result.affectedRows > 0;
}

/**
 * The row `where` finds, made from `data` first when there is none: the race-free form of
 * `(await em.findOne(…)) ?? em.create(…)`. `where` must name the key `data` conflicts on.
 */
export async function findOrInsert<T extends object, P extends string = never>(
  em: EntityManager,
  entity: EntityName<T>,
  where: FilterQuery<T>,
  data: RequiredEntityData<T>,
  options?: FindOneOptions<T, P>,
) {
  // MikroORM's filter type is conditional on the entity's indexes, which a generic T cannot settle.
  const filter = where as never;
  const found = await em.findOne(entity, filter, options);
  if (found) return found;
  await insertIfMissing(em, entity, data);
  return em.findOneOrFail(entity, filter, options);
}
