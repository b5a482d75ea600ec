import type { EntityManager } from "@mikro-orm/postgresql";
import { Profile } from "../profiles/profile.entity.ts";
import { User } from "./user.entity.ts";

export interface NewAccount {
  /** Already normalized (see account-rules.ts). */
  email: string;
  passwordHash: string;
  role: string;
  nickname: string;
}

/** Creates an account and its profile; persisted with the caller's next flush. */
export function createAccount(em: EntityManager, account: NewAccount): { user: User; profile: Profile } {
  const user = em.create(User, {
    email: account.email,
    passwordHash: account.passwordHash,
    role: account.role,
    capabilities: [],
    badges: [],
  });
  const profile = em.create(Profile, { user, nickname: account.nickname, avatarId: null, color: null, bio: null });
  return { user, profile };
}
