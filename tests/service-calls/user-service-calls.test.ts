// Another service calls a `service`-only RPC of the user service (GetServiceUserProfile) through the kit's
// service clients: in process, with both services in one host, and across processes, with the user service
// behind its own server and reached at USER_SERVICE_URL with a token of the deployment's service identity.
// The caller is a fixture (the kit's echo service) whose Echo handler looks up the user named by the text.
// (createServiceHarness had not landed when this was written: the hosts are started with startServiceHost.)
import { generateKeyPairSync } from "node:crypto";
import { Code, ConnectError, createClient, type ServiceImpl, type Transport } from "@connectrpc/connect";
import { EchoService } from "@tt/proto/tt/testing/v1/echo_service_pb";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import {
  createLogger,
  createMemoryBus,
  createServer,
  startServiceHost,
  type Bus,
  type RunningServer,
  type ServiceDefinition,
  type ServiceHost,
} from "@tt/kit";
import { createTestDatabase, type TestDatabase } from "@tt/kit/testing";
import { userServiceDefinition } from "@tt/user-service";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { echoDefinition, echoImplementation } from "../../services/kit/src/test-support/echo-service.ts";

const logger = createLogger({ service: "service-calls-test", level: "silent" });
const ADMIN = { ADMIN_EMAIL: "root@example.org", ADMIN_PASSWORD: "service calls admin password" };
const pem = () => generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();

/** The echo fixture, renamed "relay": Echo answers with the e-mail of the user whose uuid is the text. */
function relayDefinition(): ServiceDefinition {
  const echo = echoDefinition();
  return {
    ...echo,
    name: "relay",
    async create(deps) {
      const users = deps.clients.get(ProfileService);
      const impl: ServiceImpl<typeof EchoService> = {
        ...echoImplementation(),
        async echo(req, ctx) {
          const { user } = await users.getServiceUserProfile({ id: req.text }, { signal: ctx.signal });
          return { text: user?.email ?? "", subject: user?.uuid ?? "" };
        },
      };
      return { routes: (router) => router.service(EchoService, impl) };
    },
  };
}

interface Running {
  host: ServiceHost;
  close(): Promise<void>;
}

async function start(
  db: TestDatabase,
  bus: Bus,
  definitions: ServiceDefinition[],
  env: Record<string, string | undefined>,
): Promise<Running> {
  const host = await startServiceHost({
    definitions,
    databaseUrl: db.url,
    bus,
    logger,
    env: { ...ADMIN, ...env },
    // EchoService keeps one method without an access option, refused at call time.
    allowMissingAccess: true,
  });
  return { host, close: () => host.close() };
}

/** The admin's uuid and a user token, through Login. */
async function admin(transport: Transport): Promise<{ uuid: string; token: string }> {
  const res = await createClient(AuthService, transport).login({
    email: ADMIN.ADMIN_EMAIL,
    password: ADMIN.ADMIN_PASSWORD,
  });
  return { uuid: res.user!.uuid, token: res.accessToken!.token };
}

async function codeOf(call: Promise<unknown>): Promise<Code> {
  try {
    await call;
  } catch (err) {
    return ConnectError.from(err).code;
  }
  throw new Error("expected the call to fail");
}

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe("a service calls a service-only RPC of the user service", () => {
  let db: TestDatabase;
  const buses: Bus[] = [];
  const closers: (() => Promise<void>)[] = [];
  const bus = () => {
    const b = createMemoryBus();
    buses.push(b);
    return b;
  };

  beforeAll(async () => {
    db = await createTestDatabase(inject("databaseUrl"));
  });

  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    for (const b of buses) await b.close();
    await db?.drop();
  });

  it("issue 10: in process: both services in one host, the call goes through the access interceptor", async () => {
    // All-in-one needs no key: the host makes one up that only it trusts.
    const running = await start(db, bus(), [userServiceDefinition, relayDefinition()], {});
    closers.push(running.close);
    const { uuid, token } = await admin(running.host.transport);
    const relay = createClient(EchoService, running.host.transport);
    expect(await relay.echo({ text: uuid })).toMatchObject({ text: ADMIN.ADMIN_EMAIL, subject: uuid });
    // The RPC is service-only: a user token, even the admin's, is refused, so the relay's call passed as a service.
    const users = createClient(ProfileService, running.host.transport);
    expect(await codeOf(users.getServiceUserProfile({ id: uuid }, bearer(token)))).toBe(Code.Unauthenticated);
    expect(await codeOf(users.getServiceUserProfile({ id: uuid }))).toBe(Code.Unauthenticated);
    // The user service's own answers come back unchanged: an unknown user is NotFound.
    expect(await codeOf(relay.echo({ text: "7c9e6679-7425-40de-944b-e07fc1f90ae7" }))).toBe(Code.NotFound);
  });

  describe("across processes", () => {
    let key: string;
    let userServer: RunningServer;
    let userHost: ServiceHost;

    beforeAll(async () => {
      key = pem();
      const running = await start(db, bus(), [userServiceDefinition], { SERVICE_TOKEN_PRIVATE_KEY: key });
      closers.push(running.close);
      userHost = running.host;
      userServer = await createServer({
        handler: userHost.handler,
        port: 0,
        host: "127.0.0.1",
        ready: userHost.ready,
        logger,
      });
      closers.push(() => userServer.close());
    });

    it("issue 10: the user service behind its own server, reached at USER_SERVICE_URL with the deployment's key", async () => {
      const relayHost = await start(db, bus(), [relayDefinition()], {
        USER_SERVICE_URL: userServer.url,
        SERVICE_TOKEN_PRIVATE_KEY: key,
      });
      closers.push(relayHost.close);
      const { uuid } = await admin(userHost.transport);
      const relay = createClient(EchoService, relayHost.host.transport);
      expect(await relay.echo({ text: uuid })).toMatchObject({ text: ADMIN.ADMIN_EMAIL, subject: uuid });
      expect(await codeOf(relay.echo({ text: "7c9e6679-7425-40de-944b-e07fc1f90ae7" }))).toBe(Code.NotFound);
    });

    it("issue 10: a service holding another key is refused by the user service", async () => {
      const relayHost = await start(db, bus(), [relayDefinition()], {
        USER_SERVICE_URL: userServer.url,
        SERVICE_TOKEN_PRIVATE_KEY: pem(),
      });
      closers.push(relayHost.close);
      const { uuid } = await admin(userHost.transport);
      expect(await codeOf(createClient(EchoService, relayHost.host.transport).echo({ text: uuid }))).toBe(
        Code.Unauthenticated,
      );
    });

    it("issue 10: without USER_SERVICE_URL a service that calls the user service does not start", async () => {
      await expect(start(db, bus(), [relayDefinition()], { SERVICE_TOKEN_PRIVATE_KEY: key })).rejects.toThrow(
        /USER_SERVICE_URL: is required: tt\.user\.v1\.ProfileService is called/,
      );
    });
  });
});
