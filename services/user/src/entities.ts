import { OutboxMessageSchema, ProcessedEventSchema } from "@tt/kit";
import { accountEntities } from "./modules/accounts/entities.ts";
import { contactEntities } from "./modules/contact/entities.ts";
import { moderationEntities } from "./modules/moderation/entities.ts";
import { profileDataEntities } from "./modules/profile-data/entities.ts";
import { ProfileSchema } from "./modules/profiles/profile.entity.ts";
import { providerTokenEntities } from "./modules/provider-tokens/entities.ts";
import { SessionSchema } from "./modules/sessions/session.entity.ts";
import { SigningKeySchema } from "./modules/signing-keys/signing-key.entity.ts";
import { UserSchema } from "./modules/users/user.entity.ts";

/** Every entity of the user service, listed explicitly (no folder discovery); each area keeps its own list. */
export const entities = [
  UserSchema,
  ProfileSchema,
  SessionSchema,
  SigningKeySchema,
  // Events other services need leave through the transactional outbox (kit), never lost when NATS is away.
  OutboxMessageSchema,
  // Marks of consumed events (the payment service's SubscriptionChanged).
  ProcessedEventSchema,
  ...accountEntities,
  ...contactEntities,
  ...profileDataEntities,
  ...moderationEntities,
  ...providerTokenEntities,
];
