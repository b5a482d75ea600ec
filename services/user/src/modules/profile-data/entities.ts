import { ProfileDetailsSchema } from "./profile-details.entity.ts";
import { UserDataSchema } from "./user-data.entity.ts";
import { UserImageSchema } from "./user-image.entity.ts";
import { UserSocialsSchema } from "./user-socials.entity.ts";

// Entities of the profile-data area (profiles beyond GetProfile, user data, socials, capabilities list, badges, service profile lists, images), listed explicitly.
export const profileDataEntities = [UserImageSchema, ProfileDetailsSchema, UserSocialsSchema, UserDataSchema];
