import { ProfileSchema } from "./modules/profiles/profile.entity.ts";
import { SessionSchema } from "./modules/sessions/session.entity.ts";
import { SigningKeySchema } from "./modules/signing-keys/signing-key.entity.ts";
import { UserSchema } from "./modules/users/user.entity.ts";

/** Every entity of the user service, listed explicitly (no folder discovery). */
export const entities = [UserSchema, ProfileSchema, SessionSchema, SigningKeySchema];
