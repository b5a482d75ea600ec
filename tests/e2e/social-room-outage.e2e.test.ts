// Issue 28, finding 1: the room service being down must not take every room's chat and stage down. A social process
// (the service's own entry, as a Deployment runs it) reaches the room service through a TCP relay this test stops,
// so the room service cannot be reached (connection refused) while the user and playlist services still answer.
// A public room goes on from what the process last knew (GetStage, SendRoomMessage, a new Join); a private room
// fails closed with 503 (unavailable). SOCIAL_ROOM_CACHE_MS is short here so the calls are past the fresh cache and
// answered from the last good room. It starts its own process whatever the mode: all-in-one e2e project only.
// A backend-harness test was not enough: the social service must be a process of its own whose room service URL
// points somewhere that goes away, as in a cluster.
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { connect, createServer, type Server, type Socket } from "node:net";
import path from "node:path";
import { Code, createClient, type Client } from "@connectrpc/connect";
import {
  createServiceHarness,
  createTestDatabase,
  type ServiceHarness,
  type TestDatabase,
  refusalOf,
} from "@tt/kit/testing";
import { playlistServiceDefinition } from "@tt/playlist-service";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { ChatService } from "@tt/proto/tt/social/v1/chat_service_pb";
import { StageService } from "@tt/proto/tt/social/v1/stage_service_pb";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { roomServiceDefinition } from "@tt/room-service";
import { userServiceDefinition } from "@tt/user-service";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { spawnNodeProcess, waitUntilReady, type ChildHandle } from "@tt/platform/processes";
import { bearerTransport } from "./support/platform.ts";

const distributed = process.env.TT_E2E_MODE === "distributed";
const repo = path.resolve(import.meta.dirname, "../..");
const key = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();

let h: ServiceHarness;
let db: TestDatabase;
let social: { handle: ChildHandle; url: string } | undefined;
let relay: { port: number; stop(): Promise<void> } | undefined;
let logs = "";

/** A TCP relay to `target` on a port of its own; stop() closes it and every connection through it. */
async function startRelay(target: URL): Promise<{ port: number; stop(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const outbound = connect(Number(target.port), target.hostname);
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    async stop() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

/** The social service as a process of its own, its room service behind the relay. */
async function startSocial(): Promise<{ handle: ChildHandle; url: string }> {
  const handle = spawnNodeProcess({
    name: "social-room-outage",
    entry: "services/social/src/main.ts",
    cwd: repo,
    forwardOutput: process.env.SOCIAL_OUTAGE_LOGS === "1",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      DATABASE_URL: db.url,
      NATS_URL: inject("natsUrl"),
      DEPLOYMENT_NAME: h.deploymentName,
      HOST: "127.0.0.1",
      PORT: "0",
      METRICS_PORT: "0",
      METRICS_HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      SERVICE_TOKEN_PRIVATE_KEY: key,
      USER_SERVICE_URL: h.url,
      ROOM_SERVICE_URL: `http://127.0.0.1:${relay!.port}`,
      PLAYLIST_SERVICE_URL: h.url,
      SOCIAL_ROOM_CACHE_MS: "100",
    },
  });
  handle.child.stdout?.on("data", (d: Buffer) => (logs += d.toString()));
  handle.child.stderr?.on("data", (d: Buffer) => (logs += d.toString()));
  const ready = await waitUntilReady(handle, 120_000, { metrics: true });
  return { handle, url: ready.url };
}

beforeAll(async () => {
  if (distributed) return;
  h = await createServiceHarness(roomServiceDefinition, {
    alongside: [userServiceDefinition, playlistServiceDefinition],
    env: { SERVICE_TOKEN_PRIVATE_KEY: key },
  });
  db = await createTestDatabase(inject("databaseUrl"));
  relay = await startRelay(new URL(h.url));
  social = await startSocial();
}, 300_000);

afterAll(async () => {
  await social?.handle.stop(5_000);
  await relay?.stop().catch(() => {});
  await h?.close();
  await db?.drop();
}, 120_000);

async function account(): Promise<{ uuid: string; token: string }> {
  const res = await h
    .client(AuthService)
    .signUp({ email: `${randomUUID()}@example.test`, password: "a-long-password-1" });
  return { uuid: res.user!.uuid, token: res.accessToken!.token };
}

function clientOf<S extends typeof StageService | typeof ChatService>(service: S, token: string): Client<S> {
  return createClient(service, bearerTransport(social!.url, token));
}

/** A new join stream's first message (the stage's state), then the stream is closed. */
async function joinOnce(stage: Client<typeof StageService>, room: string): Promise<string> {
  const abort = new AbortController();
  try {
    for await (const m of stage.join({ room }, { signal: abort.signal })) {
      if (m.kind.case === "state") return m.kind.value.room?.uuid ?? "";
    }
    throw new Error("the join stream ended without a state");
  } finally {
    abort.abort();
  }
}

const text = (message: string) => ({ uuid: randomUUID(), message });

describe.skipIf(distributed)("the room service cannot be reached", () => {
  it("a public room's stage, chat and joins go on from what the social service knew; a private room is refused with 503", async () => {
    const owner = await account();
    const listener = await account();
    const rooms = h.client(RoomService, { token: owner.token });
    const open = (await rooms.createRoom({ name: `Outage ${randomUUID()}` })).room!;
    const hidden = (await rooms.createRoom({ name: `Hidden ${randomUUID()}`, type: "PRIVATE" })).room!;
    const stage = clientOf(StageService, listener.token);
    const chat = clientOf(ChatService, listener.token);
    const ownerStage = clientOf(StageService, owner.token);

    // Before: the public room is known (joined, read, chatted in), the private room too (its owner joined).
    expect(await joinOnce(stage, open.slug)).toBe(open.uuid);
    await stage.getStage({ room: open.uuid });
    await chat.sendRoomMessage({ room: open.uuid, message: text("before the outage") });
    expect(await joinOnce(ownerStage, hidden.uuid)).toBe(hidden.uuid);

    await relay!.stop();
    // The fresh cache (100 ms) runs out: the social service says, once, that it serves the last known rooms.
    await expect
      .poll(
        async () => {
          await stage.getStage({ room: open.uuid });
          return logs;
        },
        { timeout: 10_000, interval: 50 },
      )
      .toContain("room service unreachable");

    const { stage: read } = await stage.getStage({ room: open.uuid });
    expect(read?.room?.uuid).toBe(open.uuid);
    const { message } = await chat.sendRoomMessage({ room: open.uuid, message: text("during the outage") });
    expect(message).toMatchObject({ message: "during the outage", roomUuid: open.uuid });
    expect(await joinOnce(stage, open.uuid)).toBe(open.uuid);
    // By slug as well (the room was first resolved by it).
    expect(await joinOnce(stage, open.slug)).toBe(open.uuid);

    // A private room fails closed: 503 for a new join (even its owner's), its stage and chat for one not admitted.
    for (const call of [
      () => joinOnce(ownerStage, hidden.uuid),
      () => joinOnce(stage, hidden.uuid),
      () => stage.getStage({ room: hidden.uuid }),
      () => chat.sendRoomMessage({ room: hidden.uuid, message: text("let me in") }),
    ]) {
      const e = await refusalOf(call());
      expect([e.code, e.rawMessage]).toEqual([
        Code.Unavailable,
        expect.stringContaining("room service cannot be reached"),
      ]);
    }
    // A room the social service never knew cannot be served either: 503, not 404 or 500.
    const e = await refusalOf(stage.getStage({ room: randomUUID() }));
    expect(e.code).toBe(Code.Unavailable);
    // One log line for the outage so far, not one per call.
    expect(logs.match(/room service unreachable: public rooms go on from their last known settings/g)).toHaveLength(1);

    // A social process started during the outage (a replica replaced, a new one) never had the room: it goes on from
    // what the stage holds of it, shared by every instance; the private room stays refused.
    await social!.handle.stop(5_000);
    social = await startSocial();
    const fresh = clientOf(StageService, listener.token);
    expect((await fresh.getStage({ room: open.uuid })).stage?.room?.uuid).toBe(open.uuid);
    const late = await clientOf(ChatService, listener.token).sendRoomMessage({
      room: open.uuid,
      message: text("from a new instance"),
    });
    expect(late.message?.message).toBe("from a new instance");
    expect(await joinOnce(fresh, open.uuid)).toBe(open.uuid);
    expect((await refusalOf(fresh.getStage({ room: hidden.uuid }))).code).toBe(Code.Unavailable);
  });
});
