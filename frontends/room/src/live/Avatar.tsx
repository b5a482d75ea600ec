import { Code, ConnectError } from "@connectrpc/connect";
import { useQueries } from "@tanstack/react-query";
import type { Profile } from "@tt/proto/tt/user/v1/user_pb";
import { useState } from "react";
import { AVATAR_STALE_MS, liveKeys, useAvatarClient } from "./api.ts";
import { initialsOf } from "./format.ts";

/**
 * The image of each avatar the given profiles wear (avatar slug → image URL), one merch lookup per distinct slug,
 * cached for everyone wearing it. A slug the merch service does not know (or hides) has no image.
 */
export function useAvatarImages(profiles: readonly Profile[] | undefined): ReadonlyMap<string, string> {
  const client = useAvatarClient();
  const slugs = [...new Set((profiles ?? []).map((profile) => profile.avatarId).filter((slug) => slug !== ""))].sort();
  const answers = useQueries({
    queries: slugs.map((slug) => ({
      queryKey: liveKeys.avatar(slug),
      queryFn: async () => {
        try {
          return (await client.getAvatar({ slug })).avatar?.imageUrl ?? "";
        } catch (error) {
          // An avatar that is gone or private to its wearer: the initials stand in, for an hour too.
          if (error instanceof ConnectError && (error.code === Code.NotFound || error.code === Code.PermissionDenied)) {
            return "";
          }
          throw error;
        }
      },
      staleTime: AVATAR_STALE_MS,
      retry: false,
    })),
  });
  const images = new Map<string, string>();
  for (const profile of profiles ?? []) {
    const url = answers[slugs.indexOf(profile.avatarId)]?.data;
    if (url) images.set(profile.uuid, url);
  }
  return images;
}

/**
 * A user's avatar image, or their initials when they have none or it fails to load. With a label it names the
 * user (the dancefloor); without one it is decoration beside their name (the booth).
 */
export function Avatar({ uuid, imageUrl, label }: { uuid: string; imageUrl: string | undefined; label?: string }) {
  const [failed, setFailed] = useState<string | undefined>(undefined);
  const named = label === undefined ? { "aria-hidden": true } : { role: "img", "aria-label": label };
  if (imageUrl && failed !== imageUrl) {
    return (
      <img
        className="tt-live-avatar tt-live-avatar--image"
        src={imageUrl}
        alt={label ?? ""}
        width={32}
        height={32}
        loading="lazy"
        data-testid="live-avatar-image"
        onError={() => setFailed(imageUrl)}
      />
    );
  }
  return (
    <span className="tt-live-avatar" {...named}>
      {initialsOf(uuid)}
    </span>
  );
}
