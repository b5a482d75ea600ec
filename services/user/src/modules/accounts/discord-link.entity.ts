import { defineEntity, p } from "@mikro-orm/core";
import { UserSchema } from "../users/user.entity.ts";

/** Which account a Discord user signs in to: one Discord account per account and the other way round. */
export const DiscordLinkSchema = defineEntity({
  name: "DiscordLink",
  properties: {
    /** Discord's snowflake id. */
    discordId: p.string().length(32).primary(),
    user: () => p.oneToOne(UserSchema).owner().unique().deleteRule("cascade"),
    username: p.string().length(64),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class DiscordLink extends DiscordLinkSchema.class {}
DiscordLinkSchema.setClass(DiscordLink);
