import type { DescMethod } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Interceptor, type Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { serviceBaseUrl, type ServiceUrls } from "../remote-config.ts";
import { isTokenLive, type SessionStore } from "../session-store.ts";
import { toStoredToken } from "./token.ts";

// These answer 401 for a wrong password, which says nothing about the token that was sent.
const PASSWORD_METHODS = new Set(["Login", "SignUp", "ChangePassword"]);

export interface GatewayTransportOptions {
  /** The gateway's origin; the page's own origin when the gateway serves the frontends. */
  baseUrl: string;
  /** Services whose API is elsewhere (runtime configuration, /remotes.json "services"); the rest use baseUrl. */
  services?: ServiceUrls;
  session: SessionStore;
  fetch?: typeof globalThis.fetch;
}

/**
 * Gets a guest token once at a time, however many calls need one. The guest call itself goes through a
 * transport without the bearer interceptor, so a stale token can never block getting a fresh one.
 */
export function createGuestTokenSource(bare: Transport, session: SessionStore): () => Promise<void> {
  const users = createClient(AuthService, bare);
  let pending: Promise<void> | undefined;
  return () => {
    pending ??= users
      .getGuestToken({})
      .then((res) => {
        if (res.accessToken) session.setGuestToken(toStoredToken(res.accessToken));
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };
}

/**
 * Whether the server still takes a token: a 401 also answers a call the caller's role may not make (spec: 401
 * "Unauthorized", e.g. a member opening the admin console), which must not end their session.
 */
export function createTokenCheck(bare: Transport): (token: string) => Promise<boolean> {
  const auth = createClient(AuthService, bare);
  return (token) =>
    auth.getSession({}, { headers: { Authorization: `Bearer ${token}` } }).then(
      () => true,
      (error: unknown) => !(error instanceof ConnectError && error.code === Code.Unauthenticated),
    );
}

/**
 * Sends the session's token as a bearer token. On a 401 for a call that carried a token (spec 002 §8: the
 * token is refreshed and the request retried once): a user token that the server no longer takes means the
 * session was revoked or expired, so the user is signed out, a fresh guest token is fetched and the call is retried
 * once with it; a user token it still takes was refused for this call alone (the role), and the 401 stands.
 */
export function createBearerInterceptor(
  session: SessionStore,
  refreshGuest: () => Promise<void>,
  tokenTaken: (token: string) => Promise<boolean> = async () => false,
): Interceptor {
  return (next) => async (req) => {
    // A call that names its own token (logging out a session already cleared here) is sent as it is.
    if (req.header.has("Authorization")) return await next(req);
    const sent = session.getSnapshot().accessToken;
    if (sent) req.header.set("Authorization", `Bearer ${sent.token}`);
    try {
      return await next(req);
    } catch (error) {
      const refused = error instanceof ConnectError && error.code === Code.Unauthenticated;
      if (!refused || !sent || req.stream || PASSWORD_METHODS.has(req.method.name)) throw error;
      if (session.getSnapshot().accessToken?.token === sent.token) {
        if (sent.tokenType === "user" && (await tokenTaken(sent.token))) throw error;
        // Another call may have ended the session while the token was checked.
        if (session.getSnapshot().accessToken?.token === sent.token) {
          session.clear();
          await refreshGuest();
        }
      }
      const fresh = session.getSnapshot().accessToken;
      if (!isTokenLive(fresh)) throw error;
      req.header.set("Authorization", `Bearer ${fresh.token}`);
      return await next(req);
    }
  };
}

export interface GatewayTransport {
  transport: Transport;
  ensureToken: () => Promise<void>;
}

/**
 * One transport per base URL, each call sent to the one of its service: the service's proto package
 * (tt.<name>.v1) or full name looked up in `services`, else `baseUrl`.
 */
export function createServiceRouting(
  baseUrl: string,
  services: ServiceUrls,
  create: (baseUrl: string) => Transport,
): Transport {
  const byUrl = new Map<string, Transport>();
  const pick = (method: DescMethod) => {
    const url = serviceBaseUrl(method.parent.typeName, services, baseUrl);
    let transport = byUrl.get(url);
    if (!transport) byUrl.set(url, (transport = create(url)));
    return transport;
  };
  return {
    unary: (...args) => pick(args[0]).unary(...args),
    stream: (...args) => pick(args[0]).stream(...args),
  };
}

export function createGatewayTransport({
  baseUrl,
  services = {},
  session,
  fetch,
}: GatewayTransportOptions): GatewayTransport {
  const routed = (interceptors: Interceptor[]) =>
    createServiceRouting(baseUrl, services, (url) =>
      createConnectTransport({ baseUrl: url, interceptors, ...(fetch ? { fetch } : {}) }),
    );
  return createTransportPair(routed([]), session, routed);
}

/** Split out so tests can build the same pair over an in-memory router transport. */
export function createTransportPair(
  bare: Transport,
  session: SessionStore,
  withInterceptors: (interceptors: Interceptor[]) => Transport,
): GatewayTransport {
  const refreshGuest = createGuestTokenSource(bare, session);
  const transport = withInterceptors([createBearerInterceptor(session, refreshGuest, createTokenCheck(bare))]);
  return {
    transport,
    // Browsing needs some token (spec 002 §6: all calls carry a bearer token): keep a live one around.
    ensureToken: async () => {
      if (!isTokenLive(session.getSnapshot().accessToken)) {
        session.clear();
        await refreshGuest();
      }
    },
  };
}
