// Tiers 2 and 3: the service as the kit hosts it, with the real interceptors (access policy, session
// revocation, EntityManager fork). Tier 2 calls through the in-process transport; tier 3 through a real
// HTTP server on port 0 with the NATS bus, as the service runs in distributed mode.
import type { Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { createServer, startServiceHost, type Bus, type ServiceHost } from "@tt/kit";
import { createTestDatabase, type TestDatabase } from "@tt/kit/testing";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createMemoryBus, createNatsBus } from "@tt/kit";
import { userServiceDefinition } from "./index.ts";
import { Code, connectErrorOf } from "./testing/expect-connect-error.ts";
import { createUserClient, type UserClient } from "./testing/user-client.ts";
import { verifyAccessToken } from "./testing/user-harness.ts";

const logger = pino({ level: "silent" });
const ENV = { ADMIN_EMAIL: "host-admin@example.org", ADMIN_PASSWORD: "host admin password" };

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

function suite(name: string, setup: () => Promise<{ client: UserClient; host: ServiceHost }>) {
  const slug = name.toLowerCase().replace(/\W+/g, "-");
  describe(name, () => {
    let client: UserClient;
    let host: ServiceHost;

    beforeAll(async () => {
      ({ client, host } = await setup());
    });

    it("answers Hello and the keys without a token", async () => {
      await expect(client.hello({})).resolves.toMatchObject({ service: "user-service", version: "1.8.0" });
      const jwks = await client.getJwks({});
      expect(jwks.keys.length).toBeGreaterThan(0);
    });

    it("signs up, reads its session and profile, and is refused everywhere after logout", async () => {
      const email = `${slug}-journey@example.org`;
      const signUp = await client.signUp({ email, password: "long enough", nickname: "Journey" });
      const token = signUp.accessToken!.token;
      const keys = await host.instances.get("user")!.verificationKeys!();
      const claims = await verifyAccessToken(keys, token);

      const session = await client.getSession({}, bearer(token));
      expect(session).toMatchObject({ tokenType: "user", sessionId: claims.sid });
      expect(session.user?.email).toBe(email);
      const profile = await client.getProfile({ id: signUp.user!.uuid }, bearer(token));
      expect(profile.profile?.nickname).toBe("Journey");

      await client.logout({}, bearer(token));
      await expect(connectErrorOf(client.getSession({}, bearer(token)))).resolves.toMatchObject({
        code: Code.Unauthenticated,
      });
    });

    it("refuses calls the access policy does not allow", async () => {
      await expect(connectErrorOf(client.getSession({}))).resolves.toMatchObject({ code: Code.Unauthenticated });
      const guest = (await client.getGuestToken({})).accessToken!.token;
      await expect(connectErrorOf(client.changePassword({}, bearer(guest)))).resolves.toMatchObject({
        code: Code.Unauthenticated,
      });
      const user = await client.signUp({
        email: `${slug}-plain@example.org`,
        password: "plain user passphrase",
      });
      await expect(connectErrorOf(client.adminListUsers({}, bearer(user.accessToken!.token)))).resolves.toMatchObject({
        code: Code.Unauthenticated,
      });
    });

    it("lets the bootstrapped admin list users", async () => {
      const login = await client.login({ email: ENV.ADMIN_EMAIL, password: ENV.ADMIN_PASSWORD });
      const list = await client.adminListUsers(
        { query: { filter: [`email||$eq||${ENV.ADMIN_EMAIL}`] } },
        bearer(login.accessToken!.token),
      );
      expect(list.data.map((u) => u.role)).toEqual(["admin"]);
    });

    it("refuses the other sessions of an account once its password changed", async () => {
      const email = `${slug}-change@example.org`;
      const first = (await client.signUp({ email, password: "old password" })).accessToken!.token;
      const second = (await client.login({ email, password: "old password" })).accessToken!.token;
      const renewed = await client.changePassword(
        { password: "old password", newPassword: "new password" },
        bearer(first),
      );
      await expect(connectErrorOf(client.getSession({}, bearer(second)))).resolves.toMatchObject({
        code: Code.Unauthenticated,
      });
      await expect(client.getSession({}, bearer(renewed.accessToken!.token))).resolves.toMatchObject({
        tokenType: "user",
      });
      await expect(client.getSession({}, bearer(first))).resolves.toMatchObject({ tokenType: "user" });
    });

    it("maps the documented errors to their codes", async () => {
      await expect(connectErrorOf(client.signUp({ email: "", password: "" }))).resolves.toEqual({
        code: Code.InvalidArgument,
        message: "email or password missing in request",
      });
      await expect(connectErrorOf(client.login({ email: "nobody@example.org", password: "x" }))).resolves.toEqual({
        code: Code.Unauthenticated,
        message: "incorrect email or password",
      });
    });
  });
}

let db: TestDatabase;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  db = await createTestDatabase(inject("databaseUrl"));
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await db?.drop();
});

async function startHost(bus: Bus): Promise<ServiceHost> {
  const host = await startServiceHost({
    definitions: [userServiceDefinition],
    databaseUrl: db.url,
    bus,
    logger,
    env: ENV,
  });
  closers.push(() => host.close());
  return host;
}

suite("tier 2: in-process transport", async () => {
  const bus = createMemoryBus();
  closers.push(() => bus.close());
  const host = await startHost(bus);
  const transport: Transport = host.transport;
  return { client: createUserClient(transport), host };
});

suite("tier 3: HTTP server on port 0 with NATS", async () => {
  const bus = await createNatsBus({
    url: inject("natsUrl"),
    name: "user-service-test",
    deployment: "user-service-test",
  });
  closers.push(() => bus.close());
  const host = await startHost(bus);
  const server = await createServer({ handler: host.handler, port: 0, host: "127.0.0.1", ready: host.ready, logger });
  closers.push(() => server.close());
  const transport = createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" });
  return { client: createUserClient(transport), host };
});
