import { defineEntity, p } from "@mikro-orm/core";
import { SongSchema } from "./song.entity.ts";

/** Which catalogue song a provider's id is (a provider id names one song): the "shared provider id" lookup of 002 §5. */
export const SongProviderIdSchema = defineEntity({
  name: "SongProviderId",
  tableName: "song_provider_id",
  properties: {
    // A tt.common.v1.MusicProvider wire value.
    provider: p.string().length(32).primary(),
    providerId: p.string().length(255).primary(),
    song: () => p.manyToOne(SongSchema).deleteRule("cascade").index(),
  },
});

export class SongProviderId extends SongProviderIdSchema.class {}
SongProviderIdSchema.setClass(SongProviderId);
