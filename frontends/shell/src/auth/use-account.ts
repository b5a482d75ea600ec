import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { queryKeys, useKit, useSession } from "@tt/web-kit";
import { useEffect } from "react";

/** The name to show for the signed-in user: the profile's nickname (spec 002 §9: cached 5 minutes). */
export function useDisplayName(): string | undefined {
  const kit = useKit();
  const { user, signedIn } = useSession();
  const profile = useQuery({
    queryKey: queryKeys.profile(user?.uuid ?? ""),
    queryFn: async () => (await import("./session-actions.ts")).fetchNickname(kit, user?.uuid ?? ""),
    enabled: signedIn && Boolean(user?.uuid),
  });
  const nickname = profile.data;
  useEffect(() => {
    // Remembered with the session, so the next visit shows the name before the profile is fetched.
    if (nickname && nickname !== user?.nickname) kit.session.updateUser({ nickname });
  }, [kit, nickname, user?.nickname]);
  if (!signedIn || !user) return undefined;
  return nickname || user.nickname || user.email;
}

/**
 * The signed-in user's current avatar (the shop sets it), under the profile family so that choosing one there
 * (which invalidates the family) shows here at once.
 */
export function useCurrentAvatar() {
  const kit = useKit();
  const { user, signedIn } = useSession();
  const uuid = user?.uuid ?? "";
  return useQuery({
    queryKey: [...queryKeys.profile(uuid), "avatar"],
    queryFn: async () => (await import("./session-actions.ts")).fetchCurrentAvatar(kit, uuid),
    enabled: signedIn && Boolean(uuid),
  });
}

export function useLogout() {
  const kit = useKit();
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: async () => (await import("./session-actions.ts")).logout(kit, queryClient) });
}
