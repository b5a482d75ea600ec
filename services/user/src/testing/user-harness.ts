// Tier-1 test harness of the user service: the kit's service harness (the real host on a fresh PostgreSQL
// database), with the service's RPCs called directly with a handler context as the host's interceptors
// leave it. The bus is the kit's in-process one: these suites subscribe to the service's events, and a
// private bus keeps one suite from receiving another's.
import type { DescMethod } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import type { AdminService } from "@tt/proto/tt/user/v1/admin_service_pb";
import type { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import type { ContactService } from "@tt/proto/tt/user/v1/contact_service_pb";
import type { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import type { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import type { ProviderTokenService } from "@tt/proto/tt/user/v1/provider_token_service_pb";
import type { MikroORM } from "@mikro-orm/postgresql";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import {
  DEFAULT_TOKEN_AUDIENCE,
  DEFAULT_TOKEN_ISSUER,
  type AccessTokenClaims,
  type Bus,
  type Identity,
  type ManagedSessionRevocations,
  type ServiceInstance,
} from "@tt/kit";
import { createServiceHarness, type DirectCalls, type ServiceHarness } from "@tt/kit/testing";
import { userServiceDefinition, USER_SERVICES } from "../index.ts";

type UserServices = (typeof USER_SERVICES)[number];
type MethodName = UserServices extends infer S ? (S extends UserServices ? keyof S["method"] : never) : never;

/** Each RPC of every tt.user.v1 service as a function from a request (init shape) to the complete response
 * message, like a client: one object, so a suite need not know which service an RPC belongs to. */
export type UserRpc = DirectCalls<typeof AuthService> &
  DirectCalls<typeof AccountService> &
  DirectCalls<typeof ContactService> &
  DirectCalls<typeof ProfileService> &
  DirectCalls<typeof ModerationService> &
  DirectCalls<typeof ProviderTokenService> &
  DirectCalls<typeof AdminService>;

export interface UserHarness {
  /** The kit harness underneath: in-process and network clients, tokens of every type. */
  service: ServiceHarness;
  orm: MikroORM;
  bus: Bus;
  revocations: ManagedSessionRevocations;
  instance: ServiceInstance;
  /** Every RPC of the service, as `create` registered them. */
  rpc: UserRpc;
  /** A handler context for `method` as the kit's interceptors would build it: identity and an EM fork. */
  ctx(method: MethodName, identity?: Identity, headers?: Record<string, string>): HandlerContext;
  /** Verifies a token as the host does and turns it into the caller identity. */
  identityOf(token: string): Promise<Identity>;
  /** Starts another instance of the service on the same database (a restart, or a second replica). */
  createInstance(env?: Record<string, string | undefined>): Promise<ServiceInstance>;
  close(): Promise<void>;
}

export async function verifyAccessToken(keys: JSONWebKeySet, token: string): Promise<AccessTokenClaims> {
  const { payload } = await jwtVerify<AccessTokenClaims>(token, createLocalJWKSet(keys), {
    algorithms: ["EdDSA"],
    issuer: DEFAULT_TOKEN_ISSUER,
    audience: DEFAULT_TOKEN_AUDIENCE,
    typ: "JWT",
  });
  return payload as AccessTokenClaims;
}

export async function createUserHarness(
  databaseUrl: string,
  env: Record<string, string | undefined> = {},
): Promise<UserHarness> {
  const h = await createServiceHarness(userServiceDefinition, { databaseUrl, env, bus: "memory", network: false });
  return {
    service: h,
    orm: h.orm,
    bus: h.bus,
    revocations: h.revocations,
    instance: h.instance,
    rpc: Object.assign({}, ...USER_SERVICES.map((s) => h.direct(s))) as UserRpc,
    ctx: (method, identity, headers) => h.context(methodOf(method), { identity, headers }),
    identityOf: h.identityOf,
    createInstance: h.createInstance,
    close: h.close,
  };
}

/** The method descriptor of an RPC of any tt.user.v1 service, by its local name. */
function methodOf(name: MethodName): DescMethod {
  for (const service of USER_SERVICES) {
    const method = (service.method as Record<string, DescMethod>)[name];
    if (method) return method;
  }
  throw new Error(`no tt.user.v1 method ${String(name)}`);
}
