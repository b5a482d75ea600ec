// ExportService (002 §7): a crate of the caller into a playlist of their Spotify account or Apple Music
// library, with the tokens they linked in the user service (refused tokens are refreshed once, §8). Songs
// without an id there are looked up by isrc; the rest are skipped and counted.
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { callEm, callIdentity } from "@tt/kit";
import { toConnectProviderError } from "@tt/providers";
import type { ExportService } from "@tt/proto/tt/playlist/v1/export_service_pb";
import type { CrateSong } from "@tt/proto/tt/playlist/v1/crate_pb";
import type { PlaylistServiceContext } from "../context.ts";
import { readableCrate, SONG_PAGE, songPage } from "../modules/crates/crate-store.ts";
import type { Crate } from "../modules/crates/crate.entity.ts";

type Impl = ServiceImpl<typeof ExportService>;

/** At most this many songs go into one exported playlist. */
export const MAX_EXPORT_SONGS = 10_000;

async function ownCrateSongs(ctx: HandlerContext, crateUuid: string): Promise<{ crate: Crate; songs: CrateSong[] }> {
  const em = callEm(ctx);
  const me = callIdentity(ctx).subject;
  const crate = await readableCrate(em, crateUuid, me);
  if (crate.userUuid !== me) throw new ConnectError("crate belongs to another user", Code.PermissionDenied);
  const songs: CrateSong[] = [];
  for (let offset = 0; offset < Math.min(crate.songsCount, MAX_EXPORT_SONGS); offset += SONG_PAGE) {
    const page = await songPage(em, crate.id, SONG_PAGE, offset);
    songs.push(...page);
    if (page.length < SONG_PAGE) break;
  }
  return { crate, songs };
}

/** Each song's id at the provider: its own, or the provider's answer for its isrc. */
async function idsAt(
  songs: CrateSong[],
  provider: string,
  byIsrc: ((isrc: string) => Promise<string | undefined>) | undefined,
): Promise<{ ids: string[]; skipped: number }> {
  const ids: string[] = [];
  let skipped = 0;
  for (const song of songs) {
    let id = song.musicProviders[provider];
    if (id === undefined && song.isrc !== "" && byIsrc !== undefined) id = await byIsrc(song.isrc);
    if (id === undefined) skipped++;
    else if (!ids.includes(id)) ids.push(id);
  }
  return { ids, skipped };
}

export function exportRoutes(svc: PlaylistServiceContext): Impl {
  const providers = svc.music.providers;
  return {
    async exportToSpotify(req, ctx) {
      const spotify = providers.spotify;
      if (!spotify) throw new ConnectError("Spotify is not configured", Code.FailedPrecondition);
      const { crate, songs } = await ownCrateSongs(ctx, req.crateUuid);
      const user = svc.music.spotifyUserToken(callIdentity(ctx).subject, ctx.signal);
      try {
        const { ids, skipped } = await idsAt(
          songs,
          "spotify",
          async (isrc) => (await spotify.searchByIsrc(isrc))?.providerId,
        );
        const created = await spotify.createPlaylist(user, req.name.trim() || crate.name, ids);
        return { playlistId: created.id, link: created.link ?? "", exported: ids.length, skipped };
      } catch (error) {
        throw toConnectProviderError(error, "Spotify", {
          refusal: { message: "Spotify refused the export: connect Spotify again", code: Code.FailedPrecondition },
          unavailable: "Spotify is not available",
        });
      }
    },

    async exportToApple(req, ctx) {
      const apple = providers.apple;
      if (!apple) throw new ConnectError("Apple Music is not configured", Code.FailedPrecondition);
      const { crate, songs } = await ownCrateSongs(ctx, req.crateUuid);
      const tokens = await svc.music.appleUserToken(callIdentity(ctx).subject, ctx.signal);
      if (tokens.musicUserToken === "") throw new ConnectError("Apple Music is not connected", Code.FailedPrecondition);
      try {
        const { ids, skipped } = await idsAt(
          songs,
          "apple",
          async (isrc) => (await apple.songByIsrc(isrc))?.providerId,
        );
        const created = await apple.createLibraryPlaylist(tokens.musicUserToken, req.name.trim() || crate.name, ids);
        return { playlistId: created.id, link: "", exported: ids.length, skipped };
      } catch (error) {
        throw toConnectProviderError(error, "Apple Music", {
          refusal: {
            message: "Apple Music refused the export: connect Apple Music again",
            code: Code.FailedPrecondition,
          },
          unavailable: "Apple Music is not available",
        });
      }
    },
  };
}
