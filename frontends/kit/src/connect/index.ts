// @tt/web-kit/connect: what talking to the services takes (Connect, protobuf, the generated clients).
// A separate entry point so that a page can paint before any of it is loaded.
export { sendPhoneCode, verifyPhoneCode } from "./phone-auth.ts";
export { toSessionUser, toStoredToken } from "./token.ts";
export {
  createBearerInterceptor,
  createGatewayTransport,
  createGuestTokenSource,
  createServiceRouting,
  createTransportPair,
} from "./transport.ts";
export type { GatewayTransport, GatewayTransportOptions } from "./transport.ts";
export { useClient } from "./use-client.ts";
