// Chat benchmark (issue 27): what the chat store costs a room's messages, through ChatService as the gateway calls
// it (the in-process transport, a user's token, the interceptors), on a fresh PostgreSQL database. The user, room
// and playlist services run in the same host (the chat asks them who people are and what the room is), on the
// in-process bus.
//
// 1. send: SendRoomMessage by `concurrency` callers at once, each a signed-in member of one of `rooms` rooms (a
//    room's sends take its chat sequence one after another, as they do live);
// 2. list: ListRoomMessages of one of those rooms (the latest 50, as the room page opens), by the same callers, with
//    the room's history at least `history` messages deep;
// 3. react: ToggleReaction on one of the latest messages (a change that reads and rewrites the message's row);
// 4. the store alone (chat-store.ts on the social service's ORM, no call around it), where a change of its queries
//    shows above the service's own cost: store-send (insertMessage: the insert, the room's sequence, the row read
//    back) and store-list (roomHistory: the latest 50 for a signed-in viewer), ten times as many calls.
// Each: calls per second, p50 and p99 (ms), after a warm-up; the load average beside each.
//
//   npm run bench:chat [-- --requests 3000 --concurrency 8 --rooms 4 --history 300 --store-only (part 4 alone)]
//   (BENCH_DATABASE_URL to change where the data is kept)
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { createClient } from "@connectrpc/connect";
import { createLogger, createMemoryBus, initServiceOrm, startServiceHost } from "@tt/kit";
import { closedLoop, loadAverage, percentile } from "@tt/kit/bench";
import { createTestDatabase } from "@tt/kit/testing";
import { playlistServiceDefinition } from "@tt/playlist-service";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { ChatService } from "@tt/proto/tt/social/v1/chat_service_pb";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { roomServiceDefinition } from "@tt/room-service";
import { userServiceDefinition } from "@tt/user-service";
import { socialServiceDefinition } from "../src/index.ts";
import { insertMessage, roomHistory } from "../src/modules/chat/chat-store.ts";

const { values: args } = parseArgs({
  options: {
    requests: { type: "string", default: "3000" },
    concurrency: { type: "string", default: "8" },
    rooms: { type: "string", default: "4" },
    history: { type: "string", default: "300" },
    "store-only": { type: "boolean", default: false },
  },
});
const REQUESTS = Number(args.requests);
const CONCURRENCY = Number(args.concurrency);
const ROOMS = Number(args.rooms);
const HISTORY = Number(args.history);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const logger = createLogger({ service: "bench", level: "warn" });
const db = await createTestDatabase(DATABASE_URL);
const host = await startServiceHost({
  definitions: [socialServiceDefinition, userServiceDefinition, roomServiceDefinition, playlistServiceDefinition],
  databaseUrl: db.url,
  bus: createMemoryBus(),
  logger,
  // The per-user limits would refuse a bench's callers: lifted (they are rate-limits.e2e.test.ts's).
  env: {
    LOG_LEVEL: "warn",
    SOCIAL_ROOM_MESSAGES_PER_WINDOW: "100000000",
    SOCIAL_REACTIONS_PER_WINDOW: "100000000",
  },
});

function report(name: string, r: { rps: number; samples: number[] }, load: string): void {
  const [p50, p99] = [percentile(r.samples, 0.5), percentile(r.samples, 0.99)];
  console.log(
    `${name.padEnd(10)} ${r.rps.toFixed(0).padStart(6)} ops/s  p50 ${p50.toFixed(2).padStart(6)} ms  p99 ${p99
      .toFixed(2)
      .padStart(6)} ms  (load ${load})`,
  );
}

try {
  const auth = createClient(AuthService, host.transport);
  const chat = createClient(ChatService, host.transport);
  const roomService = createClient(RoomService, host.transport);
  // Each caller's token, as the gateway passes it on.
  const callers: { headers: { authorization: string } }[] = [];
  for (let i = 0; i < CONCURRENCY; i++) {
    const res = await auth.signUp({ email: `${randomUUID()}@bench.test`, password: "bench-password-1" });
    callers.push({ headers: { authorization: `Bearer ${res.accessToken!.token}` } });
  }
  const rooms: string[] = [];
  for (let r = 0; r < ROOMS; r++) {
    const res = await roomService.createRoom({ name: `Chat bench ${randomUUID()}` }, callers[0]);
    rooms.push(res.room!.uuid);
  }
  const roomOf = (caller: number) => rooms[caller % ROOMS]!;
  // Every room's history at least HISTORY deep before anything is measured.
  for (let i = 0; i < HISTORY * ROOMS; i++) {
    await chat.sendRoomMessage(
      { room: rooms[i % ROOMS]!, message: { uuid: randomUUID(), message: `history ${i}` } },
      callers[i % CONCURRENCY],
    );
  }
  console.log(
    `chat: ${REQUESTS} calls a phase by ${CONCURRENCY} callers at once in ${ROOMS} rooms of ≥ ${HISTORY} messages`,
  );

  const opts = { requests: REQUESTS, concurrency: CONCURRENCY, warmup: 100 };
  if (!args["store-only"]) {
    const send = await closedLoop(opts, (caller, i) =>
      chat.sendRoomMessage(
        { room: roomOf(caller), message: { uuid: randomUUID(), message: `message ${i} from ${caller}` } },
        callers[caller],
      ),
    );
    report("send", send, loadAverage());

    const list = await closedLoop(opts, (caller) =>
      chat.listRoomMessages({ room: roomOf(caller), limit: 50 }, callers[caller]),
    );
    report("list", list, loadAverage());

    const latest = await Promise.all(
      rooms.map(async (room) =>
        (await chat.listRoomMessages({ room, limit: 20 }, callers[0])).messages.map((m) => m.uuid),
      ),
    );
    const react = await closedLoop(opts, (caller, i) => {
      const room = caller % ROOMS;
      const uuids = latest[room]!;
      return chat.toggleReaction({ uuid: uuids[i % uuids.length]!, emoji: "🔥" }, callers[caller]);
    });
    report("react", react, loadAverage());
  }

  const orm = await initServiceOrm(db.url, socialServiceDefinition);
  try {
    const viewer = randomUUID();
    // Ten times the calls: a store call takes a tenth of a service call.
    const storeOpts = { ...opts, requests: REQUESTS * 10 };
    const storeSend = await closedLoop(storeOpts, (caller, i) =>
      insertMessage(orm.em.fork(), {
        uuid: randomUUID(),
        roomUuid: roomOf(caller),
        senderUuid: randomUUID(),
        type: "user",
        text: `store message ${i}`,
        plain: true,
        content: { userName: "bench" },
      }),
    );
    report("store-send", storeSend, loadAverage());
    const storeList = await closedLoop(storeOpts, (caller) =>
      roomHistory(orm.em.fork(), roomOf(caller), viewer, 50, 0n),
    );
    report("store-list", storeList, loadAverage());
  } finally {
    await orm.close();
  }
} finally {
  await host.close();
  await db.drop();
}
