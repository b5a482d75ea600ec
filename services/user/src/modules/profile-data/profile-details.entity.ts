import { defineEntity, p } from "@mikro-orm/core";
import { UserSchema } from "../users/user.entity.ts";
import { UserImageSchema } from "./user-image.entity.ts";

/**
 * The parts of a profile beyond the account area's `profile` row: the current pictures and when the
 * profile last changed. Created on the first change, so a profile without one has no pictures and last
 * changed with its account.
 */
export const ProfileDetailsSchema = defineEntity({
  name: "ProfileDetails",
  properties: {
    user: () => p.oneToOne(UserSchema).primary().owner().deleteRule("cascade"),
    // Deleting an image leaves the profile without that picture rather than failing.
    profilePicture: () => p.manyToOne(UserImageSchema).nullable().deleteRule("set null"),
    coverPicture: () => p.manyToOne(UserImageSchema).nullable().deleteRule("set null"),
    updatedAt: p.datetime(),
  },
});

export class ProfileDetails extends ProfileDetailsSchema.class {}
ProfileDetailsSchema.setClass(ProfileDetails);
