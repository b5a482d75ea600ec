import { Code, ConnectError, createClient, createRouterTransport, type Interceptor } from "@connectrpc/connect";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { describe, expect, it } from "vitest";
import { createSessionStore, isSignedIn } from "../session-store.ts";
import { MemoryStorage } from "../testing/memory-storage.ts";
import { createTestUserService } from "../testing/user-service.ts";
import { toSessionUser } from "./token.ts";
import { createServiceRouting, createTransportPair } from "./transport.ts";

function setup() {
  const service = createTestUserService();
  const session = createSessionStore(new MemoryStorage());
  const pair = createTransportPair(createRouterTransport(service.routes), session, (interceptors) =>
    createRouterTransport(service.routes, { transport: { interceptors } }),
  );
  return { service, session, ...pair, users: createClient(AuthService, pair.transport) };
}

describe("gateway transport", () => {
  it("gets a guest token when there is none and sends it as a bearer token", async () => {
    const { session, ensureToken, users } = setup();
    await ensureToken();
    expect(session.getSnapshot().accessToken?.tokenType).toBe("guest");
    const answer = await users.getSession({});
    expect(answer.tokenType).toBe("guest");
  });

  it("signs the user out and retries once as a guest when the user token is refused", async () => {
    const { service, session, users } = setup();
    const user = service.addAccount("ada@example.com", "pw");
    const login = await users.login({ email: "ada@example.com", password: "pw" });
    session.signIn({ token: login.accessToken?.token ?? "", tokenType: "user" }, toSessionUser(user));
    // The session is revoked on the server (logout elsewhere, ban, password change).
    service.tokens.clear();
    const answer = await users.getSession({});
    expect(answer.tokenType).toBe("guest");
    expect(isSignedIn(session.getSnapshot())).toBe(false);
  });

  it("keeps the session when a call is refused with 401 for the role alone (the token still works)", async () => {
    const service = createTestUserService();
    const session = createSessionStore(new MemoryStorage());
    // The server refuses Hello with 401 whoever calls (as an admin-only call answers a member), and takes the token
    // elsewhere.
    const roleOnly: Interceptor = (next) => (req) =>
      req.method.name === "Hello" ? Promise.reject(new ConnectError("Unauthorized", Code.Unauthenticated)) : next(req);
    const pair = createTransportPair(createRouterTransport(service.routes), session, (interceptors) =>
      createRouterTransport(service.routes, { router: { interceptors: [roleOnly] }, transport: { interceptors } }),
    );
    const users = createClient(AuthService, pair.transport);
    const user = service.addAccount("ada@example.com", "pw");
    const login = await users.login({ email: "ada@example.com", password: "pw" });
    session.signIn({ token: login.accessToken?.token ?? "", tokenType: "user" }, toSessionUser(user));

    const failure = await users.hello({}).catch((error: unknown) => error);
    expect((failure as ConnectError).code).toBe(Code.Unauthenticated);
    expect(isSignedIn(session.getSnapshot())).toBe(true);
    expect(session.getSnapshot().accessToken?.token).toBe(login.accessToken?.token);
    expect(service.calls.filter((call) => call === "GetGuestToken")).toHaveLength(0);
  });

  it("passes a wrong-password 401 through without touching the session", async () => {
    const { service, session, ensureToken, users } = setup();
    service.addAccount("ada@example.com", "pw");
    await ensureToken();
    const before = session.getSnapshot().accessToken?.token;
    const failure = await users.login({ email: "ada@example.com", password: "nope" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConnectError);
    expect((failure as ConnectError).code).toBe(Code.Unauthenticated);
    expect((failure as ConnectError).rawMessage).toBe("incorrect email or password");
    expect(session.getSnapshot().accessToken?.token).toBe(before);
    expect(service.calls.filter((call) => call === "GetGuestToken")).toHaveLength(1);
  });
});

describe("issue 10: createServiceRouting", () => {
  function routed(services: Record<string, string>) {
    const service = createTestUserService();
    const created: string[] = [];
    const transport = createServiceRouting("http://gateway.test", services, (url) => {
      created.push(url);
      return createRouterTransport(service.routes);
    });
    return { created, users: createClient(AuthService, transport) };
  }

  it("sends a service's calls to its base URL, one transport per base URL", async () => {
    const { created, users } = routed({ user: "http://user.test", room: "http://room.test" });
    await users.getGuestToken({});
    await users.getGuestToken({});
    expect(created).toEqual(["http://user.test"]);
  });

  it("keeps a service that is not listed on the default base URL", async () => {
    const { created, users } = routed({ room: "http://room.test" });
    await users.getGuestToken({});
    expect(created).toEqual(["http://gateway.test"]);
  });
});
