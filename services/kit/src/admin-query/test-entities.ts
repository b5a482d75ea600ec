// Fixture entities for the admin-list tests: one of each property kind the value conversion handles.
import { defineEntity, p } from "@mikro-orm/core";

export const AqArtistSchema = defineEntity({
  name: "AqArtist",
  tableName: "aq_artist",
  properties: {
    id: p.integer().primary(),
    name: p.string(),
    country: p.string().nullable(),
    tracks: () => p.oneToMany(AqTrack).mappedBy("artist"),
  },
});
export class AqArtist extends AqArtistSchema.class {}
AqArtistSchema.setClass(AqArtist);

export const TRACK_STATUSES = ["draft", "verified", "rejected"] as const;

export const AqTrackSchema = defineEntity({
  name: "AqTrack",
  tableName: "aq_track",
  properties: {
    id: p.uuid().primary(),
    title: p.string(),
    plays: p.integer(),
    rating: p.double().nullable(),
    explicit: p.boolean(),
    releasedAt: p.datetime().nullable(),
    status: p.enum(TRACK_STATUSES),
    secret: p.string().nullable(),
    downloads: p.bigint(),
    price: p.decimal().precision(10).scale(2),
    day: p.date(),
    tags: p.array(),
    artist: () => p.manyToOne(AqArtist).nullable(),
  },
});
export class AqTrack extends AqTrackSchema.class {}
AqTrackSchema.setClass(AqTrack);
