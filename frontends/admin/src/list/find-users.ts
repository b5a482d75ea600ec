import { AdminService as UserAdminService } from "@tt/proto/tt/user/v1/admin_service_pb";
import type { User } from "@tt/proto/tt/user/v1/user_pb";
import { useClient } from "@tt/web-kit/connect";
import { useCallback } from "react";

/**
 * The users whose nickname or e-mail contains the words (two admin list queries, at most `limit` each), each once:
 * their uuid, e-mail and role. The user filters of the lists and the person picker of the forms both look this way.
 */
export function useFindUsers(limit: number): (words: string) => Promise<User[]> {
  const users = useClient(UserAdminService);
  return useCallback(
    async (words: string) => {
      const find = async (field: string) =>
        (
          await users.adminListUsers({
            query: { limit, fields: "uuid,email,role", filter: [`${field}||$contL||${words}`] },
          })
        ).data;
      const [byNickname, byEmail] = await Promise.all([find("nickname"), find("email")]);
      return [...new Map([...byNickname, ...byEmail].map((user) => [user.uuid, user])).values()];
    },
    [users, limit],
  );
}
