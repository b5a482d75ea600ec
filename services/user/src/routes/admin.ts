// The admin user list, through the kit's admin list query language (fields, s, filter, or, sort, join,
// limit, offset, page, cache) and its answer shape {data, count, total, page, pageCount}.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { UserSchema as UserMessageSchema, type User as UserMessage } from "@tt/proto/tt/user/v1/user_pb";
import type { AdminService } from "@tt/proto/tt/user/v1/admin_service_pb";
import { adminList, type AdminListSpec } from "@tt/kit";
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
      const page = await adminList(callEm(ctx), ADMIN_USER_LIST, req.query ?? {});
      return { ...page, data: page.data.map(toPartialUserMessage) };
    },
  };
}
