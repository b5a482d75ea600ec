// Tier 3: a ban in one service host reaches another host on the same database through the real NATS bus,
// so the banned user's token is refused there too (and sign-in is refused by either).
import { createNatsBus, startServiceHost, type ServiceHost } from "@tt/kit";
import { createTestDatabase, type TestDatabase } from "@tt/kit/testing";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { userServiceDefinition } from "../index.ts";
import { ACCOUNT_BANNED } from "../modules/moderation/sign-in-guard.ts";
import { Code, connectErrorOf } from "../testing/expect-connect-error.ts";
import { createUserClient, type UserClient } from "../testing/user-client.ts";

const logger = pino({ level: "silent" });
const ENV = { ADMIN_EMAIL: "hosts-admin@example.org", ADMIN_PASSWORD: "hosts admin password" };
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

let db: TestDatabase;
const closers: Array<() => Promise<void>> = [];
let a: UserClient;
let b: UserClient;

async function startHost(name: string): Promise<ServiceHost> {
  const bus = await createNatsBus({ url: inject("natsUrl"), name, deployment: "user-moderation-hosts-test" });
  closers.push(() => bus.close());
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

beforeAll(async () => {
  db = await createTestDatabase(inject("databaseUrl"));
  a = createUserClient((await startHost("moderation-host-a")).transport);
  b = createUserClient((await startHost("moderation-host-b")).transport);
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await db?.drop();
});

describe("a ban across hosts", () => {
  it("refuses the banned user's token in the other host and sign-in in both", async () => {
    const admin = (await a.login({ email: ENV.ADMIN_EMAIL, password: ENV.ADMIN_PASSWORD })).accessToken!.token;
    const target = await a.signUp({ email: "banned-across@example.org", password: "long enough" });
    const token = target.accessToken!.token;
    await expect(b.getSession({}, bearer(token))).resolves.toMatchObject({ tokenType: "user" });

    await a.banUser({ uuid: target.user!.uuid, reason: "spam" }, bearer(admin));

    // Host a marked the session itself; host b learns it from the NATS key-value watch, which is
    // asynchronous: poll, bounded.
    await expect(connectErrorOf(a.getSession({}, bearer(token)))).resolves.toMatchObject({
      code: Code.Unauthenticated,
    });
    await expect
      .poll(async () => (await connectErrorOf(b.getSession({}, bearer(token))).catch(() => null))?.code, {
        timeout: 3000,
        interval: 20,
      })
      .toBe(Code.Unauthenticated);
    for (const client of [a, b]) {
      await expect(
        connectErrorOf(client.login({ email: "banned-across@example.org", password: "long enough" })),
      ).resolves.toEqual({ code: Code.Unauthenticated, message: ACCOUNT_BANNED });
    }
  });
});
