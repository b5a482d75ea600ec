// The admin user list, through the kit's admin list query language (fields, s, filter, or, sort, join,
// limit, offset, page, cache) and its answer shape {data, count, total, page, pageCount}.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { UserSchema as UserMessageSchema, type User as UserMessage } from "@tt/proto/tt/user/v1/user_pb";
import type { AdminService } from "@tt/proto/tt/user/v1/admin_service_pb";
import { adminList, type AdminListSpec } from "@tt/kit";
import { UserBan } from "../modules/moderation/ban.entity.ts";
import { Deactivation } from "../modules/moderation/deactivation.entity.ts";
import { withModerationState } from "../modules/moderation/moderated-user.message.ts";
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
      const page = await adminList(em, ADMIN_USER_LIST, req.query ?? {});
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
