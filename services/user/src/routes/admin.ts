// The admin user list, through the kit's admin list query language (fields, s, filter, or, sort, join,
// limit, offset, page, cache) and its answer shape {data, count, total, page, pageCount}.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { UserSchema as UserMessageSchema, type User as UserMessage } from "@tt/proto/tt/user/v1/user_pb";
import type { AdminService } from "@tt/proto/tt/user/v1/admin_service_pb";
import type { EntityMetadata, FilterQuery } from "@mikro-orm/core";
import type { AdminListQuery } from "@tt/proto/tt/common/v1/admin_list_pb";
import { adminList, conditionToFilter, invalidQuery, parseCondition, type AdminListSpec } from "@tt/kit";
import { UserBan } from "../modules/moderation/ban.entity.ts";
import { Deactivation } from "../modules/moderation/deactivation.entity.ts";
import { withModerationState } from "../modules/moderation/moderated-user.message.ts";
import { Profile } from "../modules/profiles/profile.entity.ts";
import { User } from "../modules/users/user.entity.ts";
import { callEm } from "./call.ts";

/** API field name → entity property: the only fields a query may select, search, filter or sort by. */
export const ADMIN_USER_LIST: AdminListSpec<User> = {
  entity: User,
  fields: {
    uuid: "id",
    email: "email",
    role: "role",
    capabilities: "capabilities",
    badges: "badges",
    createdAt: "createdAt",
  },
  defaultSort: [
    ["createdAt", "ASC"],
    ["uuid", "ASC"],
  ],
};

/** The operators a nickname filter takes (the kit's translation answers them, as it does the account's fields). */
const NICKNAME_OPERATORS: readonly string[] = ["$eq", "$eqL", "$cont", "$contL", "$starts", "$startsL"];

/**
 * The nickname is the profile's, not the account's (another table, no relation from the account): a
 * `nickname||$op||value` filter is answered by the profiles that match, as a condition on the accounts' ids ANDed
 * with the rest of the query. Only in `filter` (with `or` the combination rule could not hold) and only the text
 * operators above; anything else is a 400.
 */
async function nicknameScope(
  em: ReturnType<typeof callEm>,
  query: AdminListQuery | undefined,
): Promise<{ query: AdminListQuery | undefined; scope?: FilterQuery<User> }> {
  const filters = query?.filter ?? [];
  const nickname = filters.filter((f) => f.split("||")[0] === "nickname");
  if (!query || nickname.length === 0 || query.s) return { query };
  if (query.or.length > 0) throw invalidQuery("filter", "nickname cannot be combined with or");
  const target = { meta: em.getMetadata().get(Profile) as EntityMetadata, fields: { nickname: "nickname" } };
  const conditions = nickname.map((raw) => {
    const condition = parseCondition("filter", raw);
    if (!NICKNAME_OPERATORS.includes(condition.operator)) {
      throw invalidQuery("filter", `nickname takes ${NICKNAME_OPERATORS.join(", ")}, not ${condition.operator}`);
    }
    return conditionToFilter(target, "filter", condition) as FilterQuery<Profile>;
  });
  const profiles = await em.find(Profile, { $and: conditions }, { fields: ["user"] });
  return {
    query: { ...query, filter: filters.filter((f) => !nickname.includes(f)) },
    scope: { id: { $in: profiles.map((profile) => profile.user.id) } },
  };
}

/** Like toUserMessage, but for rows loaded with `fields`: what was not selected stays at its default. */
function toPartialUserMessage(user: Partial<User>): UserMessage {
  return create(UserMessageSchema, {
    uuid: user.id ?? "",
    email: user.email ?? "",
    role: user.role ?? "",
    capabilities: user.capabilities ?? [],
    badges: user.badges ?? [],
    createdAt: user.createdAt ? timestampFromDate(user.createdAt) : undefined,
  });
}

export function adminRoutes(): Partial<ServiceImpl<typeof AdminService>> {
  return {
    async adminListUsers(req, ctx) {
      const em = callEm(ctx);
      const { query, scope } = await nicknameScope(em, req.query);
      const page = await adminList(em, ADMIN_USER_LIST, query ?? {}, scope);
      // The page's bans and deactivations in two queries, so the console shows them without a call per row.
      const ids = page.data.map((u) => u.id).filter((id): id is string => typeof id === "string");
      const bans = ids.length ? await em.find(UserBan, { user: { $in: ids } }) : [];
      const deactivations = ids.length ? await em.find(Deactivation, { user: { $in: ids } }) : [];
      const banOf = new Map(bans.map((b) => [b.user.id, b]));
      const deactivationOf = new Map(deactivations.map((d) => [d.user.id, d]));
      const now = new Date();
      return {
        ...page,
        data: page.data.map((u) =>
          withModerationState(
            toPartialUserMessage(u),
            u.id ? banOf.get(u.id) : undefined,
            u.id ? deactivationOf.get(u.id) : undefined,
            now,
          ),
        ),
      };
    },
  };
}
