import type { EntitySchema } from "@mikro-orm/core";
import { ProviderTokenKeySchema } from "./provider-token-key.entity.ts";
import { ProviderTokenSchema } from "./provider-token.entity.ts";

// Entities of the provider-tokens area (Agora, Apple Music, SoundCloud, Spotify and YouTube tokens, CometChat tokens, the service status), listed explicitly.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- schemas of different entity types
export const providerTokenEntities: EntitySchema<any, any>[] = [ProviderTokenSchema, ProviderTokenKeySchema];
