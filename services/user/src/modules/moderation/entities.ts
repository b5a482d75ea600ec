import type { EntitySchema } from "@mikro-orm/core";

// Entities of the moderation area (kick, bans, temporary bans, roles, capabilities, moderation comments, the deactivation flow), listed explicitly.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- schemas of different entity types
export const moderationEntities: EntitySchema<any, any>[] = [];
