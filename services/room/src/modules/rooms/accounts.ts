// Users' account roles and capabilities, from the user service's GetServiceAccounts (one statement a batch of up to
// 150): a stage admission of 10,000 signed-up listeners asked the whole account view of each (eleven statements).
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import type { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";

/** Users per GetServiceAccounts call (its limit). */
export const ACCOUNTS_PER_CALL = 150;

/** 404 "User not found": a user the user service does not have. */
export const userNotFound = () => new ConnectError("User not found", Code.NotFound);

export interface Accounts {
  /** A user's account role (admin, globalModerator, staff, superUser, user, bot …); 404 "User not found" if none. */
  roleOf(userId: string, signal?: AbortSignal): Promise<string>;
  /** The account roles of the users the user service has (the others left out), asked in calls of 150 side by side. */
  rolesOf(userIds: readonly string[], signal?: AbortSignal): Promise<Map<string, string>>;
  /** Whether a user has a capability (promoteRoom, uploadMusic); 404 "User not found" without an account. */
  hasCapability(userId: string, capability: string, signal?: AbortSignal): Promise<boolean>;
}

export function accountsFrom(profiles: Pick<Client<typeof ProfileService>, "getServiceAccounts">): Accounts {
  const one = async (userId: string, signal?: AbortSignal) => {
    const { accounts } = await profiles.getServiceAccounts({ users: [userId] }, { signal });
    const account = accounts[0];
    if (!account) throw userNotFound();
    return account;
  };
  return {
    roleOf: async (userId, signal) => (await one(userId, signal)).role,
    hasCapability: async (userId, capability, signal) => (await one(userId, signal)).capabilities.includes(capability),
    async rolesOf(userIds, signal) {
      const unique = [...new Set(userIds)];
      const chunks = Array.from({ length: Math.ceil(unique.length / ACCOUNTS_PER_CALL) }, (_, i) =>
        unique.slice(i * ACCOUNTS_PER_CALL, (i + 1) * ACCOUNTS_PER_CALL),
      );
      const answers = await Promise.all(chunks.map((users) => profiles.getServiceAccounts({ users }, { signal })));
      return new Map(answers.flatMap(({ accounts }) => accounts.map((a) => [a.uuid, a.role] as const)));
    },
  };
}
