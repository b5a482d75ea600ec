import type { EntitySchema } from "@mikro-orm/core";

// Entities of the profile-data area (profiles beyond GetProfile, user data, socials, capabilities list, badges, service profile lists, images), listed explicitly.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- schemas of different entity types
export const profileDataEntities: EntitySchema<any, any>[] = [];
