// The rooms' live data on the directory's cards and the home page (StageService.ListLiveRooms): who listens, who is
// on the decks and the song playing, from the live stage, refreshed while the page is open.
import { useQuery } from "@tanstack/react-query";
import { create } from "@bufbuild/protobuf";
import type { Room } from "@tt/proto/tt/room/v1/room_pb";
import { LiveRoomSchema, type LiveRoom } from "@tt/proto/tt/social/v1/stage_service_pb";
import { Avatar } from "@tt/web-kit/ui";
import { Music } from "lucide-react";
import { useMemo } from "react";
import { roomKeys } from "./api.ts";
import { useProfiles } from "./lib/people.ts";
import { useRoomT } from "./lib/ui.tsx";
import { useStageClient } from "./live/api.ts";
import { useAvatarImages } from "./live/Avatar.tsx";
import { artworkOf } from "./live/format.ts";

export type { LiveRoom };

/**
 * A page that stays open shows live data at most this old (spec 002 §9 gives no figure for rooms;
 * docs/decisions/0317-the-live-rooms-on-the-home-page-and-the.md).
 */
export const LIVE_REFRESH_MS = 15_000;
/** The DJs a card draws; the rest are counted in the names' line. */
const DJS_DRAWN = 5;

/**
 * The live stage of the named rooms (those of them that are live), or of the busiest rooms when `roomUuids` is
 * null (at most `limit`). Refreshed every LIVE_REFRESH_MS while shown.
 */
export function useLiveRooms(roomUuids: readonly string[] | null, limit = 12) {
  const stage = useStageClient();
  return useQuery({
    queryKey: roomKeys.live(roomUuids ?? [`top:${limit}`]),
    enabled: roomUuids === null || roomUuids.length > 0,
    queryFn: async () => (await stage.listLiveRooms(roomUuids ? { roomUuids: [...roomUuids] } : { limit })).rooms,
    refetchInterval: LIVE_REFRESH_MS,
    placeholderData: (previous) => previous,
  });
}

/**
 * A list card's live data from the list's own summary (Room.live: the room lists carry it, issue 29), in the live
 * stage's shape the cards draw; undefined for a quiet room.
 */
export function liveOfListed(room: Room): LiveRoom | undefined {
  const live = room.live;
  if (!live) return undefined;
  const song = live.nowPlaying;
  return create(LiveRoomSchema, {
    room: { uuid: room.uuid, slug: room.slug, name: room.name, type: room.type, design: room.design },
    listeners: { users: live.listeners, guests: 0 },
    djUuids: live.djUuids,
    play: song
      ? {
          djUuid: song.djUuid,
          startedAt: song.startedAt,
          duration: song.duration,
          song: {
            trackName: song.title,
            artistName: song.artist,
            thumbnails: song.artworkUrl ? { artwork: song.artworkUrl } : {},
          },
        }
      : undefined,
  });
}

export const listenersOf = (live: LiveRoom) => (live.listeners?.users ?? 0) + (live.listeners?.guests ?? 0);

/** The DJs of these rooms by uuid: their nickname and the avatar they wear. */
export interface DjPeople {
  nameOf(uuid: string): string | undefined;
  imageOf(uuid: string): string | undefined;
}

export function useDjPeople(rooms: readonly LiveRoom[] | undefined): DjPeople {
  const uuids = useMemo(() => (rooms ?? []).flatMap((live) => live.djUuids), [rooms]);
  const { profiles, profileOf } = useProfiles(uuids);
  const images = useAvatarImages(profiles);
  return { nameOf: (uuid) => profileOf(uuid)?.nickname || undefined, imageOf: (uuid) => images.get(uuid) };
}

/** A card's live lines: the song playing (artwork, title, artist) and the DJs on the decks. */
export function LiveLines({ live, people }: { live: LiveRoom; people: DjPeople }) {
  const { t } = useRoomT();
  const song = live.play?.song;
  const artwork = artworkOf(song?.thumbnails);
  const names = live.djUuids.map((uuid) => people.nameOf(uuid) ?? t("directory.someone"));
  return (
    <div className="tt-room-card__live">
      {song ? (
        <p className="tt-room-card__song">
          {artwork ? (
            <img className="tt-room-card__art" src={artwork} alt="" loading="lazy" />
          ) : (
            <span className="tt-room-card__art" aria-hidden="true">
              <Music />
            </span>
          )}
          <span className="tt-room-card__song-text">
            {song.artistName
              ? t("directory.playing", { title: song.trackName, artist: song.artistName })
              : t("directory.playingNoArtist", { title: song.trackName })}
          </span>
        </p>
      ) : (
        <p className="tt-room-card__song tt-muted">{t("directory.quiet")}</p>
      )}
      {live.djUuids.length > 0 && (
        <p className="tt-room-card__djs">
          <span className="tt-room-card__dj-faces" aria-hidden="true">
            {live.djUuids.slice(0, DJS_DRAWN).map((uuid, i) => (
              <Avatar key={uuid} id={uuid} name={names[i]!} src={people.imageOf(uuid)} size="xs" decorative />
            ))}
          </span>
          <span className="tt-room-card__dj-names">{t("directory.djs", { names: names.join(", ") })}</span>
        </p>
      )}
    </div>
  );
}
