// The header's account actions, loaded on first use so that Connect stays off the first paint.
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { AvatarService } from "@tt/proto/tt/merch/v1/avatar_service_pb";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import type { QueryClient } from "@tanstack/react-query";
import type { Kit } from "@tt/web-kit";

export async function logout({ transport, session, ensureToken }: Kit, queryClient: QueryClient): Promise<void> {
  // This browser's push subscription goes first, while the session may still remove it (issue 26): the next
  // person signing in here must not get the last one's notifications. Leaving never waits on it failing.
  await import("../notifications/push-client.ts").then((push) => push.turnPushOff(transport)).catch(() => undefined);
  // Locally first, and a guest token in place before the cached data goes: the pages' queries refetch at once, and
  // none of them may carry the token the server is about to revoke (a refused call logs an error in the console).
  const sent = session.getSnapshot().accessToken;
  session.clear();
  await ensureToken().catch(() => undefined);
  queryClient.clear();
  // Then the server forgets the user's token; signing out must not depend on it being reachable.
  if (sent?.tokenType === "user") {
    await createClient(AuthService, transport)
      .logout({}, { headers: { Authorization: `Bearer ${sent.token}` } })
      .catch(() => undefined);
  }
}

export async function fetchNickname({ transport }: Kit, uuid: string): Promise<string> {
  const { profile } = await createClient(ProfileService, transport).getProfile({ id: uuid });
  return profile?.nickname ?? "";
}

export interface CurrentAvatar {
  slug: string;
  name: string;
  imageUrl: string;
}

/**
 * The user's current avatar: the profile's avatarId (the user service keeps it; the shop sets it) and that
 * avatar's name and image from the merch service; null for the default avatar. An avatar the merch service no
 * longer knows is shown by its slug.
 */
export async function fetchCurrentAvatar({ transport }: Kit, uuid: string): Promise<CurrentAvatar | null> {
  const { profile } = await createClient(ProfileService, transport).getProfile({ id: uuid });
  const slug = profile?.avatarId ?? "";
  if (!slug) return null;
  try {
    const { avatar } = await createClient(AvatarService, transport).getAvatar({ slug });
    return { slug, name: avatar?.name || slug, imageUrl: avatar?.imageUrl ?? "" };
  } catch (err) {
    if (err instanceof ConnectError && err.code === Code.NotFound) return { slug, name: slug, imageUrl: "" };
    throw err;
  }
}
