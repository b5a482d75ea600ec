// A song found in the catalogue or at a provider, as the search and the "Start here" shelf list it: add it to the
// queue in one click, or to one of the user's crates from a menu.
import type { Song } from "@tt/proto/tt/playlist/v1/song_pb";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useAppTranslation, useErrorText, useSession } from "@tt/web-kit";
import { IconButton, Menu, MenuItem, MenuLabel, MenuLinkItem, MenuSeparator, toast, useFormat } from "@tt/web-kit/ui";
import { CirclePlus, ListEnd, Plus } from "lucide-react";
import { crateKeys, crateOps, songInputOf, useCrateClient, type CrateTarget } from "../api/crates.ts";
import { useMyCrates } from "../api/hooks.ts";
import { CRATES_NAMESPACE, en, es } from "../i18n.ts";
import { useTrackCrateAction } from "../lib/analytics.ts";
import { useCrateName } from "../lib/names.ts";
import { Link } from "../lib/router.tsx";
import { artworkOf } from "./art.tsx";
import { SongRow } from "./SongRow.tsx";

function useCratesText() {
  return useAppTranslation(CRATES_NAMESPACE, { en, es });
}

/** Adds a found song to a crate or the queue, and says so; `from` names the list it was added from (analytics). */
export function useAddSong(from: "search" | "start-here") {
  const { t } = useCratesText();
  const toText = useErrorText();
  const client = useCrateClient();
  const queryClient = useQueryClient();
  const userUuid = useSession().user?.uuid ?? "";
  const track = useTrackCrateAction();
  return useMutation({
    mutationFn: ({ target, song }: { target: CrateTarget; song: Song; crateName: string }) =>
      crateOps(client, target).add([songInputOf(song)]),
    onSuccess: (_result, { target, song, crateName }) => {
      track(target, "add", { from, songId: song.songId });
      toast({ title: t("search.added", { name: song.trackName, crate: crateName }), tone: "success" });
      void queryClient.invalidateQueries({ queryKey: crateKeys.all(userUuid) });
    },
    onError: (error) => toast({ title: toText(error), tone: "error" }),
  });
}

export type CrateChoice = { crateUuid: string; name: string };

/** One found song: its row, then add-to-queue and add-to-crate. */
export function ResultRow({
  song,
  crates,
  onAdd,
  pending,
}: {
  song: Song;
  crates: CrateChoice[];
  onAdd: (target: CrateTarget, crateName: string) => void;
  pending: boolean;
}) {
  const { t } = useCratesText();
  const format = useFormat();
  const crateName = useCrateName();
  return (
    <li data-testid="search-result">
      <SongRow
        title={song.trackName}
        artist={song.artistName}
        art={artworkOf(song.thumbnails)}
        duration={format.duration(song.duration)}
        explicit={song.explicit}
        explicitLabel={t("crate.explicit")}
        actions={
          <>
            <IconButton
              size="sm"
              label={t("search.addToQueueLabel", { name: song.trackName })}
              icon={<ListEnd aria-hidden="true" />}
              disabled={pending}
              onClick={() => onAdd({ special: "queue" }, crateName(undefined, "queue"))}
            />
            <Menu
              trigger={
                <IconButton
                  size="sm"
                  label={t("search.addToLabel", { name: song.trackName })}
                  icon={<CirclePlus aria-hidden="true" />}
                  disabled={pending}
                />
              }
            >
              <MenuLabel>{t("search.addToMenu")}</MenuLabel>
              {crates.map((crate) => (
                <MenuItem key={crate.crateUuid} onSelect={() => onAdd({ crateUuid: crate.crateUuid }, crate.name)}>
                  {crate.name}
                </MenuItem>
              ))}
              {crates.length > 0 ? <MenuSeparator /> : null}
              <MenuLinkItem>
                <Link to="/">
                  <Plus aria-hidden="true" />
                  {t("search.newCrate")}
                </Link>
              </MenuLinkItem>
            </Menu>
          </>
        }
      />
    </li>
  );
}

/** The user's ordinary crates a found song may be added to (the queue has its own button; liking is the room's). */
export function useCrateChoices(): CrateChoice[] {
  const crateList = useMyCrates();
  return (crateList.data?.pages.flatMap((page) => page.crates) ?? [])
    .filter((crate) => !crate.special)
    .map((crate) => ({ crateUuid: crate.crateUuid, name: crate.crateName }));
}
