// A real account for another service's tests: signed up through the user service running in the test's harness
// (alongside the service under test), with a token of the given role for it.
import type { UserRole } from "@tt/kit";
import type { ServiceHarness } from "@tt/kit/testing";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { randomUUID } from "node:crypto";

export interface TestAccount {
  uuid: string;
  token: string;
}

/** Signs up a new account in `h`'s user service and answers its uuid and a token with `role`. */
export async function signUpAccount(h: ServiceHarness, role: UserRole = "user"): Promise<TestAccount> {
  const res = await h
    .client(AuthService)
    .signUp({ email: `${randomUUID()}@example.test`, password: "a-long-password-1" });
  const uuid = res.user!.uuid;
  return { uuid, token: await h.tokens.user(role, uuid) };
}
