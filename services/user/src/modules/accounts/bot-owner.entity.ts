import { defineEntity, p } from "@mikro-orm/core";
import { UserSchema } from "../users/user.entity.ts";

/** Who created a bot account: only the owner (or the bot itself) may mint its tokens. */
export const BotOwnerSchema = defineEntity({
  name: "BotOwner",
  properties: {
    bot: () => p.oneToOne(UserSchema).primary().owner().deleteRule("cascade"),
    owner: () => p.manyToOne(UserSchema).index().deleteRule("cascade"),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class BotOwner extends BotOwnerSchema.class {}
BotOwnerSchema.setClass(BotOwner);
