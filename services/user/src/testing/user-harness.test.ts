// The user service on the kit's harness through the host's interceptors, not only by direct calls: the
// tokens the service itself issues and the ones the harness mints both pass the same access check.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError } from "@connectrpc/connect";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { createServiceHarness, type ServiceHarness } from "@tt/kit/testing";
import { userServiceDefinition } from "../index.ts";

let h: ServiceHarness;

beforeAll(async () => {
  h = await createServiceHarness(userServiceDefinition, { bus: "memory" });
});

afterAll(async () => {
  await h?.close();
});

describe("the user service on createServiceHarness", () => {
  it("issue 10: accepts the tokens it issues, in process and over the network", async () => {
    for (const issuing of [h.client(AuthService), h.networkClient(AuthService)]) {
      const token = (await issuing.getGuestToken({})).accessToken!.token;
      const inProcess = await h.client(AuthService, { token }).getSession({});
      const overNetwork = await h.networkClient(AuthService, { token }).getSession({});
      expect(inProcess).toMatchObject({ tokenType: "guest", role: "guest" });
      expect(overNetwork.sessionId).toBe(inProcess.sessionId);
    }
  });

  it("accepts guest and service tokens the harness mints and refuses an anonymous caller", async () => {
    for (const [token, type] of [
      [await h.tokens.guest(), "guest"],
      [await h.tokens.service("room"), "service"],
    ] as const) {
      expect((await h.client(AuthService, { token }).getSession({})).tokenType).toBe(type);
    }
    const anonymous = await h
      .client(AuthService)
      .getSession({})
      .catch((err: unknown) => ConnectError.from(err));
    expect(anonymous).toMatchObject({ code: Code.Unauthenticated });
  });
});
