// The account as the accounts area answers it: the shared user message plus what this area knows
// (profile, Discord link, bot owner, whether a password is set).
import type { EntityManager } from "@mikro-orm/postgresql";
import { create } from "@bufbuild/protobuf";
import { UserSocialsSchema, type User as UserMessage } from "@tt/proto/tt/user/v1/user_pb";
import { Profile } from "../profiles/profile.entity.ts";
import { User } from "../users/user.entity.ts";
import { toProfileMessage, toUserMessage } from "../users/user.message.ts";
import { BotOwner } from "./bot-owner.entity.ts";
import { DiscordLink } from "./discord-link.entity.ts";
import { hasPassword } from "./no-password.ts";

export async function toAccountMessage(em: EntityManager, user: User): Promise<UserMessage> {
  const [withHash, profile, discord, bot] = await Promise.all([
    em.findOneOrFail(User, { id: user.id }, { populate: ["passwordHash"] }),
    em.findOne(Profile, { user: user.id }),
    em.findOne(DiscordLink, { user: user.id }),
    em.findOne(BotOwner, { bot: user.id }),
  ]);
  const message = toUserMessage(user);
  const socials = create(UserSocialsSchema, { discord: discord?.username ?? "" });
  if (profile) message.profile = { ...toProfileMessage(profile, user), socials };
  message.socials = socials;
  message.hasPassword = hasPassword(withHash.passwordHash);
  message.ownerUuid = bot?.owner.id ?? "";
  return message;
}
