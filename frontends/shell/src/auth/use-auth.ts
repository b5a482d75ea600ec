import { useMutation, useQuery } from "@tanstack/react-query";
import { UserService } from "@tt/proto/tt/user/v1/user_service_pb";
import { queryKeys, toSessionUser, toStoredToken, useClient, useKit, useSession } from "@tt/web-kit";
import type { LoginResponse, SignUpResponse } from "@tt/proto/tt/user/v1/user_service_pb";

export interface Credentials {
  email: string;
  password: string;
}

export interface SignUpInput extends Credentials {
  nickname: string;
}

function useSignedInSession() {
  const { session, queryClient } = useKit();
  return (response: LoginResponse | SignUpResponse) => {
    if (!response.accessToken || !response.user) throw new Error("The server answered without a session");
    // Whatever was cached belonged to the previous (guest) identity.
    queryClient.clear();
    session.signIn(toStoredToken(response.accessToken), toSessionUser(response.user));
  };
}

export function useLogin() {
  const users = useClient(UserService);
  const signIn = useSignedInSession();
  return useMutation({ mutationFn: (input: Credentials) => users.login(input), onSuccess: signIn });
}

export function useSignUp() {
  const users = useClient(UserService);
  const signIn = useSignedInSession();
  return useMutation({ mutationFn: (input: SignUpInput) => users.signUp(input), onSuccess: signIn });
}

export function useLogout() {
  const users = useClient(UserService);
  const { session, queryClient, ensureToken } = useKit();
  return useMutation({
    mutationFn: async () => {
      try {
        await users.logout({});
      } finally {
        // Signing out locally must not depend on the server being reachable: the user asked to leave.
        queryClient.clear();
        session.clear();
        await ensureToken().catch(() => undefined);
      }
    },
  });
}

/** The name to show for the signed-in user: the profile's nickname (cached 5 minutes), else the e-mail. */
export function useDisplayName(): string | undefined {
  const { user, signedIn } = useSession();
  const users = useClient(UserService);
  const profile = useQuery({
    queryKey: queryKeys.profile(user?.uuid ?? ""),
    queryFn: () => users.getProfile({ id: user?.uuid ?? "" }),
    enabled: signedIn && Boolean(user?.uuid),
  });
  if (!signedIn || !user) return undefined;
  return profile.data?.profile?.nickname || user.email;
}
