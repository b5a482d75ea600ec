import { createClient } from "@connectrpc/connect";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { describe, expect, it } from "vitest";
import { createKit } from "./kit.ts";
import { MemoryStorage } from "./testing/memory-storage.ts";

// A gateway answering the Connect protocol (JSON) for two methods, to check what goes over the wire.
function gatewayFetch(seen: Array<{ path: string; authorization: string | null }>): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers);
    seen.push({ path: url.pathname, authorization: headers.get("authorization") });
    const json = (body: unknown) =>
      new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
    if (url.pathname === "/tt.user.v1.AuthService/GetGuestToken") {
      return json({ accessToken: { token: "guest-1", tokenType: "guest", expiresAt: "2999-01-01T00:00:00Z" } });
    }
    if (url.pathname === "/tt.user.v1.AuthService/GetSession") return json({ tokenType: "guest", role: "guest" });
    return new Response(JSON.stringify({ code: "unimplemented", message: "no" }), { status: 404 });
  };
}

describe("createKit", () => {
  it("loads Connect on the first call, gets a guest token and sends it to the gateway", async () => {
    const seen: Array<{ path: string; authorization: string | null }> = [];
    const kit = createKit({ baseUrl: "http://gateway.test", storage: new MemoryStorage(), fetch: gatewayFetch(seen) });
    expect(seen).toEqual([]);
    await kit.ensureToken();
    expect(kit.session.getSnapshot().accessToken).toMatchObject({ token: "guest-1", tokenType: "guest" });
    const session = await createClient(AuthService, kit.transport).getSession({});
    expect(session.tokenType).toBe("guest");
    expect(seen).toEqual([
      { path: "/tt.user.v1.AuthService/GetGuestToken", authorization: null },
      { path: "/tt.user.v1.AuthService/GetSession", authorization: "Bearer guest-1" },
    ]);
  });

  it("issue 10: sends each service's Connect and REST calls to its base URL from the runtime configuration", async () => {
    const seen: string[] = [];
    const fetchAnywhere: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const authorization = new Headers(init?.headers).get("authorization");
      seen.push(`${url.origin}${url.pathname} ${authorization ?? "-"}`);
      if (url.origin !== "http://user.test") return new Response("{}", { status: 404 });
      return gatewayFetch([])(input, init);
    };
    const kit = createKit({
      baseUrl: "http://gateway.test",
      services: async () => ({ user: "http://user.test" }),
      storage: new MemoryStorage(),
      fetch: fetchAnywhere,
    });
    await kit.ensureToken();
    await createClient(AuthService, kit.transport).getSession({});
    await kit.rest("user", "/auth/session");
    await kit.rest("room", "rooms", { headers: { Authorization: "Bearer other" } });
    expect(seen).toEqual([
      "http://user.test/tt.user.v1.AuthService/GetGuestToken -",
      "http://user.test/tt.user.v1.AuthService/GetSession Bearer guest-1",
      "http://user.test/api/user-service/auth/session Bearer guest-1",
      "http://gateway.test/api/room-service/rooms Bearer other",
    ]);
  });
});
