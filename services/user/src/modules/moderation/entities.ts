import { UserBanSchema } from "./ban.entity.ts";
import { DeactivationSchema } from "./deactivation.entity.ts";
import { ModerationCommentSchema } from "./moderation-comment.entity.ts";

// Entities of the moderation area (kick, bans, temporary bans, roles, capabilities, moderation comments, the deactivation flow), listed explicitly.
export const moderationEntities = [UserBanSchema, DeactivationSchema, ModerationCommentSchema];
