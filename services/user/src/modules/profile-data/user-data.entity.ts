import { defineEntity, p } from "@mikro-orm/core";
import { UserSchema } from "../users/user.entity.ts";

/** A user's private settings (GET and PUT /users/profile/user-data); absent until first written. */
export const UserDataSchema = defineEntity({
  name: "UserData",
  properties: {
    user: () => p.oneToOne(UserSchema).primary().owner().deleteRule("cascade"),
    musicProviders: p.array().default([]),
    allowExplicitAudio: p.boolean().default(false),
    audioQuality: p.string().length(8).default("medium"),
    language: p.string().length(16).default("en"),
  },
});

export class UserData extends UserDataSchema.class {}
UserDataSchema.setClass(UserData);
