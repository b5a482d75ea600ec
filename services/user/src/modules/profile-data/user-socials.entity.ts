import { defineEntity, p } from "@mikro-orm/core";
import { UserSchema } from "../users/user.entity.ts";

/**
 * A user's links to their accounts elsewhere; empty strings when not set. `discord` belongs to
 * POST /auth/link-discord (the accounts area writes it), every other field to POST /users/user-socials.
 */
export const UserSocialsSchema = defineEntity({
  name: "UserSocials",
  properties: {
    user: () => p.oneToOne(UserSchema).primary().owner().deleteRule("cascade"),
    discord: p.string().length(200).default(""),
    instagram: p.string().length(200).default(""),
    twitter: p.string().length(200).default(""),
    tiktok: p.string().length(200).default(""),
    facebook: p.string().length(200).default(""),
    soundcloud: p.string().length(200).default(""),
    spotify: p.string().length(200).default(""),
    youtube: p.string().length(200).default(""),
    appleMusic: p.string().length(200).default(""),
    website: p.string().length(200).default(""),
  },
});

export class UserSocials extends UserSocialsSchema.class {}
UserSocialsSchema.setClass(UserSocials);
