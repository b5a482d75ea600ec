import { Code, ConnectError } from "@connectrpc/connect";
import { useQueries, useQuery, type UseQueryResult } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import type { Profile } from "@tt/proto/tt/user/v1/user_pb";
import { Avatar as KitAvatar, type AvatarSize } from "@tt/web-kit/ui";
import { AVATAR_STALE_MS, liveKeys, useAvatarClient } from "./api.ts";

type AvatarClient = ReturnType<typeof useAvatarClient>;

/** A merch avatar's image URL by slug; "" for one that is gone or private to its wearer. */
async function avatarImageOf(client: AvatarClient, slug: string): Promise<string> {
  try {
    return (await client.getAvatar({ slug })).avatar?.imageUrl ?? "";
  } catch (error) {
    // An avatar that is gone or private to its wearer: the generated one stands in, for an hour too.
    if (error instanceof ConnectError && (error.code === Code.NotFound || error.code === Code.PermissionDenied)) {
      return "";
    }
    throw error;
  }
}

/** The slug a chat message carries for a sender who wears no avatar (the social service's stand-in). */
const NO_AVATAR = "default";

/**
 * The image of one avatar slug (a chat message's sender), shared with the lookups above; none for a sender who
 * wears none (the generated avatar stands in).
 */
export function useAvatarImage(slug: string): string | undefined {
  const client = useAvatarClient();
  const answer = useQuery({
    queryKey: liveKeys.avatar(slug),
    queryFn: () => avatarImageOf(client, slug),
    enabled: slug !== "" && slug !== NO_AVATAR,
    staleTime: AVATAR_STALE_MS,
    retry: false,
  });
  return answer.data || undefined;
}

/**
 * The image of each avatar the given profiles wear (avatar slug → image URL), one merch lookup per distinct slug,
 * cached for everyone wearing it. A slug the merch service does not know (or hides) has no image.
 */
export function useAvatarImages(profiles: readonly Profile[] | undefined): ReadonlyMap<string, string> {
  const client = useAvatarClient();
  const slugs = useMemo(
    () => [...new Set((profiles ?? []).map((profile) => profile.avatarId).filter((slug) => slug !== ""))].sort(),
    [profiles],
  );
  // The same map until the profiles or an answer change (the room's components redraw when it changes).
  const combine = useCallback(
    (answers: UseQueryResult<string>[]) => {
      const images = new Map<string, string>();
      for (const profile of profiles ?? []) {
        const url = answers[slugs.indexOf(profile.avatarId)]?.data;
        if (url) images.set(profile.uuid, url);
      }
      return images;
    },
    [profiles, slugs],
  );
  return useQueries({
    queries: slugs.map((slug) => ({
      queryKey: liveKeys.avatar(slug),
      queryFn: () => avatarImageOf(client, slug),
      staleTime: AVATAR_STALE_MS,
      retry: false,
    })),
    combine,
  });
}

/**
 * A user's avatar (the kit's): the merch image they wear, else the default generated from their id (also when the
 * image fails to load). Named by the user's name where it stands alone (the dancefloor); decoration beside their
 * written name (the booth, chat).
 */
export function Avatar({
  uuid,
  name,
  imageUrl,
  size = "sm",
  decorative = false,
}: {
  uuid: string;
  name: string;
  imageUrl: string | undefined;
  size?: AvatarSize;
  decorative?: boolean;
}) {
  return <KitAvatar id={uuid} name={name} src={imageUrl} size={size} decorative={decorative} />;
}
