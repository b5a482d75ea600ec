// The admin user list. Paging and sorting only, with the answer shape of every admin list; the full query
// language (fields, s, filter, or, join) arrives with the kit's admin-query `adminList`.
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { UserService } from "@tt/proto/tt/user/v1/user_service_pb";
import { User } from "../modules/users/user.entity.ts";
import { toUserMessage } from "../modules/users/user.message.ts";
import { callEm } from "./call.ts";

export const ADMIN_LIST_DEFAULT_LIMIT = 25;
export const ADMIN_LIST_MAX_LIMIT = 100;

/** API field name → entity property, the only fields sorting may name. */
const SORTABLE = { uuid: "id", email: "email", role: "role", createdAt: "createdAt" } as const;

function badRequest(message: string): never {
  throw new ConnectError(message, Code.InvalidArgument);
}

function parseSort(sort: readonly string[]): Record<string, "asc" | "desc"> {
  const orderBy: Record<string, "asc" | "desc"> = {};
  for (const entry of sort) {
    const [field = "", order = "ASC", ...rest] = entry.split(",");
    const property = SORTABLE[field as keyof typeof SORTABLE];
    if (!property || rest.length > 0) badRequest(`sort: cannot sort by "${field}"`);
    const direction = order.toUpperCase();
    if (direction !== "ASC" && direction !== "DESC") badRequest(`sort: order must be ASC or DESC, got "${order}"`);
    orderBy[property] = direction === "ASC" ? "asc" : "desc";
  }
  return orderBy;
}

export function adminRoutes(): Partial<ServiceImpl<typeof UserService>> {
  return {
    async adminListUsers(req, ctx) {
      for (const [name, given] of [
        ["fields", req.fields !== ""],
        ["s", req.s !== ""],
        ["filter", req.filter.length > 0],
        ["or", req.or.length > 0],
        ["join", req.join.length > 0],
      ] as const) {
        if (given) badRequest(`${name}: not supported by this list yet`);
      }
      if (req.limit < 0 || req.offset < 0 || req.page < 0) badRequest("limit, offset and page must not be negative");
      const limit = Math.min(req.limit || ADMIN_LIST_DEFAULT_LIMIT, ADMIN_LIST_MAX_LIMIT);
      // nestjsx/crud semantics: `page` (1-based) wins over `offset`.
      const offset = req.page > 0 ? (req.page - 1) * limit : req.offset;
      // A stable tie-breaker so pages never overlap or skip rows.
      const orderBy = { ...parseSort(req.sort), createdAt: "asc", id: "asc" } as const;
      const [users, total] = await callEm(ctx).findAndCount(User, {}, { limit, offset, orderBy });
      return {
        data: users.map(toUserMessage),
        count: users.length,
        total,
        page: Math.floor(offset / limit) + 1,
        pageCount: Math.ceil(total / limit),
      };
    },
  };
}
