import { defineEntity, p } from "@mikro-orm/core";
import { UserSchema } from "../users/user.entity.ts";

/** What others may see of a user; one per account, keyed by the account's uuid. */
export const ProfileSchema = defineEntity({
  name: "Profile",
  properties: {
    user: () => p.oneToOne(UserSchema).primary().owner().deleteRule("cascade"),
    nickname: p.string().length(64),
    avatarId: p.string().length(128).nullable(),
    color: p.string().length(16).nullable(),
    bio: p.text().nullable(),
  },
});

export class Profile extends ProfileSchema.class {}
ProfileSchema.setClass(Profile);
