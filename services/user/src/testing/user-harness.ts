// Tier-1 test harness: the real user service (its definition's `create`) on a fresh PostgreSQL database
// and the kit's in-process bus, called directly with hand-made handler contexts.
import { Code, ConnectError } from "@connectrpc/connect";
import {
  create,
  type DescMethod,
  type DescMethodUnary,
  type DescMessage,
  type MessageInitShape,
  type MessageShape,
} from "@bufbuild/protobuf";
import {
  createContextValues,
  createHandlerContext,
  type ConnectRouter,
  type HandlerContext,
  type ServiceImpl,
} from "@connectrpc/connect";
import type { MikroORM } from "@mikro-orm/postgresql";
import { UserService } from "@tt/proto/tt/user/v1/user_service_pb";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import { pino } from "pino";
import {
  createMemoryBus,
  createSessionRevocations,
  DEFAULT_TOKEN_AUDIENCE,
  DEFAULT_TOKEN_ISSUER,
  initServiceOrm,
  kEm,
  kIdentity,
  migrateUp,
  type AccessTokenClaims,
  type Bus,
  type Identity,
  type ManagedSessionRevocations,
  type ServiceInstance,
} from "@tt/kit";
import { createTestDatabase, type TestDatabase } from "@tt/kit/testing";
import { userServiceDefinition } from "../index.ts";

type MethodName = keyof typeof UserService.method;

type UnaryCaller<M> =
  M extends DescMethodUnary<infer I extends DescMessage, infer O extends DescMessage>
    ? (request: MessageInitShape<I>, ctx: HandlerContext) => Promise<MessageShape<O>>
    : never;

/** Each RPC as a function from a request (init shape) to the complete response message, like a client. */
export type UserRpc = { [K in MethodName]: UnaryCaller<(typeof UserService.method)[K]> };

export interface UserHarness {
  orm: MikroORM;
  bus: Bus;
  revocations: ManagedSessionRevocations;
  instance: ServiceInstance;
  /** Every RPC of the service, as `create` registered them. */
  rpc: UserRpc;
  /** A handler context for `method` as the kit's interceptors would build it: identity and an EM fork. */
  ctx(method: MethodName, identity?: Identity, headers?: Record<string, string>): HandlerContext;
  /** Verifies a token against the service's verification keys and turns it into the caller identity. */
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

function captureImpl(instance: ServiceInstance): UserRpc {
  let impl: Partial<ServiceImpl<typeof UserService>> | undefined;
  const router = {
    handlers: [],
    service(service: unknown, implementation: Partial<ServiceImpl<typeof UserService>>) {
      if (service === UserService) impl = implementation;
      return router;
    },
    rpc() {
      return router;
    },
  } as unknown as ConnectRouter;
  instance.routes(router);
  if (!impl) throw new Error("the user service registered no UserService implementation");
  // Methods an area has not implemented yet answer Unimplemented, as the real router does;
  // completeness.test.ts is what insists that every method is implemented.
  const complete = impl as Record<string, ((req: unknown, ctx: HandlerContext) => unknown) | undefined>;
  const rpc: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(UserService.method) as [string, DescMethodUnary][]) {
    // Requests and answers go through `create` as they would through serialization: defaults filled in.
    rpc[name] = async (request: MessageInitShape<DescMessage>, ctx: HandlerContext) => {
      const handler = complete[name];
      if (!handler) throw new ConnectError(`${method.name} is not implemented`, Code.Unimplemented);
      return create(
        method.output,
        (await handler(create(method.input, request), ctx)) as MessageInitShape<DescMessage>,
      );
    };
  }
  return rpc as UserRpc;
}

export async function createUserHarness(
  databaseUrl: string,
  env: Record<string, string | undefined> = {},
): Promise<UserHarness> {
  const db: TestDatabase = await createTestDatabase(databaseUrl);
  const cleanups: Array<() => Promise<void>> = [() => db.drop()];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const orm = await initServiceOrm(db.url, userServiceDefinition);
    cleanups.push(() => orm.close(true));
    await migrateUp(orm);
    const bus = createMemoryBus();
    cleanups.push(() => bus.close());
    const revocations = createSessionRevocations(bus, { ttlMs: 7 * 24 * 60 * 60 * 1000 });
    await revocations.start();
    cleanups.push(() => revocations.close());
    const logger = pino({ level: "silent" });
    const abort = new AbortController();
    cleanups.push(async () => abort.abort());

    const createInstance = async (instanceEnv = env) => {
      const instance = await userServiceDefinition.create({
        orm,
        bus,
        revocations,
        logger,
        env: instanceEnv,
        signal: abort.signal,
      });
      if (instance.close) cleanups.push(instance.close);
      return instance;
    };
    const instance = await createInstance();
    const rpc = captureImpl(instance);

    const ctx = (method: MethodName, identity?: Identity, headers?: Record<string, string>) =>
      createHandlerContext({
        service: UserService,
        method: UserService.method[method] as DescMethod,
        protocolName: "connect",
        requestMethod: "POST",
        url: `http://localhost/${UserService.typeName}/${UserService.method[method].name}`,
        requestHeader: headers,
        contextValues: createContextValues().set(kIdentity, identity).set(kEm, orm.em.fork()),
      });

    const identityOf = async (token: string): Promise<Identity> => {
      const claims = await verifyAccessToken(await instance.verificationKeys!(), token);
      return {
        tokenType: claims.typ,
        subject: claims.sub,
        role: claims.role,
        sessionId: claims.sid,
        expiresAt: new Date(claims.exp * 1000),
        token,
      };
    };

    return { orm, bus, revocations, instance, rpc, ctx, identityOf, createInstance, close };
  } catch (err) {
    await close();
    throw err;
  }
}
