// Loaded with the pages that need it (log in, sign up), never on the first paint.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { AuthService, type LoginResponse, type SignUpResponse } from "@tt/proto/tt/user/v1/auth_service_pb";
import { useAnalytics, useKit } from "@tt/web-kit";
import { toSessionUser, toStoredToken, useClient } from "@tt/web-kit/connect";

export interface Credentials {
  email: string;
  password: string;
}

export interface SignUpInput extends Credentials {
  nickname: string;
}

function useSignedInSession() {
  const { session } = useKit();
  const queryClient = useQueryClient();
  return (response: LoginResponse | SignUpResponse, nickname?: string) => {
    if (!response.accessToken || !response.user) throw new Error("The server answered without a session");
    // Whatever was cached belonged to the previous (guest) identity.
    queryClient.clear();
    session.signIn(toStoredToken(response.accessToken), toSessionUser(response.user, nickname));
  };
}

// login-action (spec 002 §7): what was tried and how it ended; a guest may send it, so a refusal is counted too.
export function useLogin() {
  const users = useClient(AuthService);
  const signIn = useSignedInSession();
  const analytics = useAnalytics();
  return useMutation({
    mutationFn: (input: Credentials) => users.login(input),
    onSuccess: (res) => {
      signIn(res);
      analytics.track("login-action", { action: "login", method: "password", outcome: "signed-in" });
    },
    onError: () => void analytics.track("login-action", { action: "login", method: "password", outcome: "refused" }),
  });
}

export function useSignUp() {
  const users = useClient(AuthService);
  const signIn = useSignedInSession();
  const analytics = useAnalytics();
  return useMutation({
    mutationFn: (input: SignUpInput) => users.signUp(input),
    onSuccess: (res, input) => {
      signIn(res, input.nickname || undefined);
      analytics.track("login-action", { action: "sign-up", method: "password", outcome: "signed-in" });
    },
    onError: () => void analytics.track("login-action", { action: "sign-up", method: "password", outcome: "refused" }),
  });
}
