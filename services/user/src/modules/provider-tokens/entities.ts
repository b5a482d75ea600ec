import { ProviderTokenKeySchema } from "./provider-token-key.entity.ts";
import { ProviderTokenSchema } from "./provider-token.entity.ts";

// Entities of the provider-tokens area (Agora, Apple Music, SoundCloud, Spotify and YouTube tokens, CometChat tokens, the service status), listed explicitly.
export const providerTokenEntities = [ProviderTokenSchema, ProviderTokenKeySchema];
