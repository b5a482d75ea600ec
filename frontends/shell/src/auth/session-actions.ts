// The header's account actions, loaded on first use so that Connect stays off the first paint.
import { createClient } from "@connectrpc/connect";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import type { Kit } from "@tt/web-kit";

export async function logout({ transport, session, queryClient, ensureToken }: Kit): Promise<void> {
  try {
    await createClient(AuthService, transport).logout({});
  } finally {
    // Signing out locally must not depend on the server being reachable: the user asked to leave.
    queryClient.clear();
    session.clear();
    await ensureToken().catch(() => undefined);
  }
}

export async function fetchNickname({ transport }: Kit, uuid: string): Promise<string> {
  const { profile } = await createClient(ProfileService, transport).getProfile({ id: uuid });
  return profile?.nickname ?? "";
}
