// The kit's example service (services/kit/src/test-support/example-service.ts, proto/tt/example/v1/) is the
// "new service" of issue 10: one entity, REST rules, one event and one call to another service — GetNote asks
// the user service's service-only GetServiceUserProfile for the author's nickname. Each of the four is tested
// here with the real user service: both in one host (createServiceHarness with `alongside`, the all-in-one
// shape, REST through the gateway), and in two hosts, the user service behind its own server and reached at
// USER_SERVICE_URL with a token of the deployment's service identity, and that server in a process of its own.
import { generateKeyPairSync, randomUUID } from "node:crypto";
import path from "node:path";
import { fromBinary } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import type { MikroORM } from "@mikro-orm/postgresql";
import { createGateway, type Gateway } from "@tt/gateway";
import {
  consumeEvents,
  createLogger,
  createServer,
  initOrm,
  migrateUp,
  processedEventsMigration,
  type RunningServer,
  type Subscription,
} from "@tt/kit";
import {
  createServiceHarness,
  createTestDatabase,
  removeDeploymentFromNats,
  uniqueDeploymentName,
  type ServiceHarness,
  type TestDatabase,
  outcomeOf,
} from "@tt/kit/testing";
import { NoteAddedSchema } from "@tt/proto/tt/example/v1/events_pb";
import { ExampleService } from "@tt/proto/tt/example/v1/example_service_pb";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { UserCreatedSchema } from "@tt/proto/tt/user/v1/events_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { userServiceDefinition } from "@tt/user-service";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { exampleServiceDefinition, Note } from "@tt/kit/test-support/example-service";
import { spawnNodeProcess, waitUntilReady, type ChildHandle } from "@tt/platform/processes";

const logger = createLogger({ service: "service-calls-test", level: "silent" });
const ADMIN = { ADMIN_EMAIL: "root@example.org", ADMIN_PASSWORD: "service calls admin password" };
const pem = () => generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();

/** The admin's uuid, nickname and a user token, through the user service's Login. */
async function admin(users: ServiceHarness): Promise<{ uuid: string; nickname: string; token: string }> {
  const res = await users.client(AuthService).login({ email: ADMIN.ADMIN_EMAIL, password: ADMIN.ADMIN_PASSWORD });
  return { uuid: res.user!.uuid, nickname: res.user!.profile!.nickname, token: res.accessToken!.token };
}

describe("the example service and the user service in one host", () => {
  let h: ServiceHarness;
  let gateway: Gateway;
  let server: RunningServer;

  beforeAll(async () => {
    // All-in-one needs no key: the host makes one up that only it trusts.
    h = await createServiceHarness(exampleServiceDefinition, { alongside: [userServiceDefinition], env: ADMIN });
    gateway = createGateway({
      backends: [{ services: h.host.services, transport: h.host.transport, connect: { handler: h.host.handler } }],
      logger,
    });
    server = await createServer({ handler: gateway.handler, port: 0, host: "127.0.0.1", ready: h.host.ready, logger });
  });

  afterAll(async () => {
    await server?.close();
    gateway?.close();
    await h?.close();
  });

  it("issue 10: one entity: notes are kept in the example's own schema and counted per author", async () => {
    const author = randomUUID();
    const client = h.client(ExampleService, { token: await h.tokens.user("user", author) });
    await client.addNote({ text: "one" });
    expect((await client.addNote({ text: "two" })).count).toBe(2);
    const notes = await h.orm.em.fork().find(Note, { author }, { orderBy: { text: "asc" } });
    expect(notes.map((n) => n.text)).toEqual(["one", "two"]);
    expect(h.orm.config.get("schema")).toBe("example");
  });

  it("issue 10: one REST rule per RPC: the gateway routes the example's paths, with the platform's 4xx bodies", async () => {
    const { uuid, nickname, token } = await admin(h);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const added = await fetch(`${server.url}/api/example-service/notes`, {
      method: "POST",
      headers,
      body: JSON.stringify({ text: "over REST" }),
    });
    expect(added.status).toBe(200);
    const { note } = (await added.json()) as { note: { id: string; author: string; text: string } };
    expect(note).toMatchObject({ author: uuid, text: "over REST" });

    const got = await fetch(`${server.url}/api/example-service/notes/${note.id}`, { headers });
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual({ note, authorNickname: nickname });

    const anonymous = await fetch(`${server.url}/api/example-service/notes/${note.id}`);
    expect(anonymous.status).toBe(401);
    const notUuid = await fetch(`${server.url}/api/example-service/notes/nope`, { headers });
    expect(notUuid.status).toBe(400);
    expect(((await notUuid.json()) as { message: string }).message).toMatch(/^id/);
    const tooLong = await fetch(`${server.url}/api/example-service/notes`, {
      method: "POST",
      headers,
      body: JSON.stringify({ text: "x".repeat(201) }),
    });
    expect(tooLong.status).toBe(400);
  });

  it("issue 10: one event: NoteAdded reaches a consuming service once, decoded, through the host's relay", async () => {
    // A consuming service: its own schema with the processed-events table, as consumeEvents needs.
    const consumer: MikroORM = await initOrm({
      url: h.orm.config.get("clientUrl")!,
      schema: "consumer",
      entities: [],
      migrations: [processedEventsMigration("consumer")],
    });
    let sub: Subscription | undefined;
    try {
      await migrateUp(consumer);
      const author = randomUUID();
      let handled!: (value: { id: string; eventId: string; aggregateId: string }) => void;
      const seen = new Promise<{ id: string; eventId: string; aggregateId: string }>((resolve) => (handled = resolve));
      sub = await consumeEvents(
        h.bus,
        NoteAddedSchema,
        async (event, ctx) => {
          if (event.author === author) handled({ id: event.id, eventId: ctx.eventId, aggregateId: ctx.aggregateId });
        },
        { durable: `service-calls-${randomUUID()}`, orm: consumer, deliver: "new", logger },
      );
      const { note } = await h.client(ExampleService, { token: await h.tokens.user("user", author) }).addNote({
        text: "announced",
      });
      const event = await seen;
      expect(event).toMatchObject({ id: note!.id, aggregateId: note!.id });
      const marks = await consumer.em
        .fork()
        .execute<{ n: string }[]>(`select count(*) as n from "consumer"."processed_event" where "event_id" = ?`, [
          event.eventId,
        ]);
      expect(Number(marks[0]?.n)).toBe(1);
    } finally {
      await sub?.unsubscribe();
      await consumer.close(true);
    }
  });

  it("issue 10: the host relays the user service's events too, which no longer starts a relay of its own", async () => {
    const email = `signup-${randomUUID()}@example.org`;
    // Other suites may sign users up on the same NATS meanwhile: wait for this account's event.
    const created = new Set<string>();
    let check = () => {};
    const sub = await h.bus.consume(
      "TT_USER",
      `service-calls-${randomUUID()}`,
      async (m) => {
        created.add(fromBinary(UserCreatedSchema, m.data).uuid);
        check();
      },
      { deliver: "new", filterSubject: "tt.user.user.created" },
    );
    try {
      const { user } = await h.client(AuthService).signUp({ email, password: "a long enough password" });
      await new Promise<void>((resolve) => {
        check = () => {
          if (created.has(user!.uuid)) resolve();
        };
        check();
      });
    } finally {
      await sub.unsubscribe();
    }
  });

  it("issue 10: one call: GetNote asks the user service's service-only RPC for the author, in process, as a service", async () => {
    const { uuid, nickname, token } = await admin(h);
    const example = h.client(ExampleService, { token });
    const { note } = await example.addNote({ text: "by the admin" });
    expect(await example.getNote({ id: note!.id })).toMatchObject({ note: { author: uuid }, authorNickname: nickname });
    // The RPC is service-only: a user token, even the admin's, is refused, so the example's call passed as a service.
    const profiles = h.client(ProfileService, { token });
    expect(await outcomeOf(profiles.getServiceUserProfile({ id: uuid }))).toBe(
      "Unauthenticated: user tokens may not call this method",
    );
    expect(await outcomeOf(h.client(ProfileService).getServiceUserProfile({ id: uuid }))).toBe(
      "Unauthenticated: missing access token",
    );
    // The user service's own answers come back unchanged: an author it does not know is NotFound.
    const stranger = h.client(ExampleService, { token: await h.tokens.user() });
    const { note: orphan } = await stranger.addNote({ text: "by nobody the user service knows" });
    expect(await outcomeOf(stranger.getNote({ id: orphan!.id }))).toMatch(/^NotFound: /);
  });
});

describe("the example service calling the user service in another host", () => {
  let key: string;
  let users: ServiceHarness;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    key = pem();
    users = await createServiceHarness(userServiceDefinition, { env: { ...ADMIN, SERVICE_TOKEN_PRIVATE_KEY: key } });
  });

  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await users?.close();
  });

  /** The example service in a host of its own, configured as a distributed deployment configures it. */
  async function example(env: Record<string, string>): Promise<ServiceHarness> {
    const h = await createServiceHarness(exampleServiceDefinition, { env, network: false });
    closers.push(() => h.close());
    return h;
  }

  it("issue 10: reaches the user service at USER_SERVICE_URL with the deployment's key", async () => {
    const h = await example({ USER_SERVICE_URL: users.url, SERVICE_TOKEN_PRIVATE_KEY: key });
    const { uuid, nickname } = await admin(users);
    const client = h.client(ExampleService, { token: await h.tokens.user("user", uuid) });
    const { note } = await client.addNote({ text: "across processes" });
    expect(await client.getNote({ id: note!.id })).toMatchObject({ authorNickname: nickname });
    const stranger = h.client(ExampleService, { token: await h.tokens.user() });
    const { note: orphan } = await stranger.addNote({ text: "unknown author" });
    expect(await outcomeOf(stranger.getNote({ id: orphan!.id }))).toMatch(/^NotFound: /);
  });

  it("issue 10: a service holding another key is refused by the user service", async () => {
    const h = await example({ USER_SERVICE_URL: users.url, SERVICE_TOKEN_PRIVATE_KEY: pem() });
    const { uuid } = await admin(users);
    const client = h.client(ExampleService, { token: await h.tokens.user("user", uuid) });
    const { note } = await client.addNote({ text: "wrong key" });
    // The user never sent that token: the refusal is the deployment's fault, Internal (a 500 over REST), logged.
    expect(await outcomeOf(client.getNote({ id: note!.id }))).toMatch(
      /^Internal: tt\.user\.v1\.ProfileService refused this service's identity: /,
    );
  });

  it("issue 10: without USER_SERVICE_URL a service that calls the user service does not start", async () => {
    await expect(
      createServiceHarness(exampleServiceDefinition, { env: { SERVICE_TOKEN_PRIVATE_KEY: key }, network: false }),
    ).rejects.toThrow(/USER_SERVICE_URL: is required: tt\.user\.v1\.ProfileService is called/);
  });
});

describe("the example service calling the user service in its own process", () => {
  let key: string;
  let db: TestDatabase;
  let child: ChildHandle | undefined;
  let userUrl: string;
  const closers: (() => Promise<void>)[] = [];
  const deployment = uniqueDeploymentName("user-process");

  beforeAll(async () => {
    key = pem();
    db = await createTestDatabase(inject("databaseUrl"));
    // The user service's own entry, as a Deployment of the chart runs it: port 0, reported over IPC.
    child = spawnNodeProcess({
      name: "user",
      entry: "services/user/src/main.ts",
      cwd: path.resolve(import.meta.dirname, "../.."),
      forwardOutput: false,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        DATABASE_URL: db.url,
        NATS_URL: inject("natsUrl"),
        DEPLOYMENT_NAME: deployment,
        HOST: "127.0.0.1",
        PORT: "0",
        METRICS_PORT: "0",
        METRICS_HOST: "127.0.0.1",
        LOG_LEVEL: "warn",
        SERVICE_TOKEN_PRIVATE_KEY: key,
        ...ADMIN,
      },
    });
    userUrl = (await waitUntilReady(child, 60_000, { metrics: true })).url;
  });

  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await child?.stop(5_000);
    await db?.drop();
    await removeDeploymentFromNats(inject("natsUrl"), deployment);
  });

  it("issue 10: reaches the user service's process at USER_SERVICE_URL, as a service, with the deployment's key", async () => {
    const auth = createClient(AuthService, createConnectTransport({ baseUrl: userUrl, httpVersion: "1.1" }));
    const login = await auth.login({ email: ADMIN.ADMIN_EMAIL, password: ADMIN.ADMIN_PASSWORD });
    const h = await createServiceHarness(exampleServiceDefinition, {
      env: { USER_SERVICE_URL: userUrl, SERVICE_TOKEN_PRIVATE_KEY: key },
      network: false,
    });
    closers.push(() => h.close());
    const client = h.client(ExampleService, { token: await h.tokens.user("user", login.user!.uuid) });
    const { note } = await client.addNote({ text: "from another process" });
    expect(await client.getNote({ id: note!.id })).toMatchObject({
      authorNickname: login.user!.profile!.nickname,
    });
  });
});
