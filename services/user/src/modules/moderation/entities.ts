import type { EntitySchema } from "@mikro-orm/core";
import { UserBanSchema } from "./ban.entity.ts";
import { DeactivationSchema } from "./deactivation.entity.ts";
import { ModerationCommentSchema } from "./moderation-comment.entity.ts";

// Entities of the moderation area (kick, bans, temporary bans, roles, capabilities, moderation comments, the deactivation flow), listed explicitly.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- schemas of different entity types
export const moderationEntities: EntitySchema<any, any>[] = [
  UserBanSchema,
  DeactivationSchema,
  ModerationCommentSchema,
];
