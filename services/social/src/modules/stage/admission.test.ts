// The stage's admission when the room service cannot answer
// (docs/decisions/0226-when-the-room-service-cannot-be-reached-private.md): a private room fails closed with a clear
// 503; a public room is entered as a guest would (no roles, so no seat), logged. And the admissions of one room asked
// together, against the real room service (issue 29): one AdmitManyToStage call, each caller its own answer.
import { randomUUID } from "node:crypto";
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { createServiceHarness, refusalOf, type ServiceHarness } from "@tt/kit/testing";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { RoomUserRoleService } from "@tt/proto/tt/room/v1/room_user_role_service_pb";
import { roomServiceDefinition } from "@tt/room-service";
import { userServiceDefinition } from "@tt/user-service";
import { signUpAccount } from "@tt/user-service/testing/sign-up";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LastGood, OutageLog } from "../last-good.ts";
import { ADMISSION_BATCH_MAX, AdmissionBatches } from "./admission-batch.ts";
import type { ResolvedRoom } from "./runtime.ts";
import { StageRuntime } from "./runtime.ts";

/** StageRuntime.admit against a room service that answers `answer` (a thrown error or the roles). */
function runtimeAnswering(answer: () => Promise<{ roles: string[] }>) {
  let calls = 0;
  const rooms = {
    admitToStage: () => {
      calls += 1;
      return answer();
    },
    // Every caller of the batch gets the one answer (a thrown error fails the call, as it fails each caller).
    admitManyToStage: async (req: { callers: unknown[] }) => {
      calls += 1;
      const { roles } = await answer();
      return { admissions: req.callers.map(() => ({ roles, code: "", message: "" })) };
    },
  } as unknown as RoomsClient;
  return runtimeWith(rooms, () => calls);
}

type RoomsClient = Pick<Client<typeof RoomService>, "admitToStage" | "admitManyToStage">;

/** StageRuntime.admit with `rooms` as its room service client (and nothing else of a runtime). */
function runtimeWith(rooms: RoomsClient, calls = () => 0) {
  const self = {
    admissions: new Map(),
    lastRoles: new LastGood<string[]>(),
    outage: new OutageLog(undefined),
    hubs: new Map(),
    logger: pino({ level: "silent" }),
    deps: { rooms },
    admissionBatches: new AdmissionBatches(rooms),
  };
  const admit = (room: ResolvedRoom, caller: { user?: string; guest?: string }, opts = {}) =>
    StageRuntime.prototype.admit.call(self as unknown as StageRuntime, room, caller, opts);
  return { admit, calls };
}

const room = (type: string): ResolvedRoom =>
  ({ uuid: "6f1c2b8e-1d2a-4c1e-9a52-0f6b0e3c1a77", settings: { type } }) as unknown as ResolvedRoom;

describe("stage admission", () => {
  const down = () => Promise.reject(new ConnectError("connect ECONNREFUSED", Code.Unavailable));

  it("fails closed for a private room when the room service is unreachable", async () => {
    const r = runtimeAnswering(down);
    const e = await refusalOf(r.admit(room("PRIVATE"), { user: "u1" }, { fresh: true }));
    expect(e.code).toBe(Code.Unavailable);
    expect(e.rawMessage).toBe(
      "The room service cannot be reached to admit you to this private room, try again shortly",
    );
  });

  it("lets a public room be entered without roles when the room service is unreachable", async () => {
    const r = runtimeAnswering(down);
    await expect(r.admit(room("PUBLIC"), { user: "u1" }, { fresh: true })).resolves.toBeNull();
  });

  it("passes the room service's refusal on as it is, and keeps an admission for the next actions", async () => {
    const refused = runtimeAnswering(() =>
      Promise.reject(new ConnectError("You are banned from this room", Code.PermissionDenied)),
    );
    const e = await refusalOf(refused.admit(room("PUBLIC"), { user: "u1" }));
    expect([e.code, e.rawMessage]).toEqual([Code.PermissionDenied, "You are banned from this room"]);

    const ok = runtimeAnswering(() => Promise.resolve({ roles: ["user", "dj"] }));
    expect(await ok.admit(room("PRIVATE"), { user: "u1" })).toEqual(["user", "dj"]);
    expect(await ok.admit(room("PRIVATE"), { user: "u1" })).toEqual(["user", "dj"]);
    expect(ok.calls()).toBe(1);
    await ok.admit(room("PRIVATE"), { user: "u1" }, { fresh: true });
    expect(ok.calls()).toBe(2);
  });
});

describe("admissions asked together (issue 29)", () => {
  let h: ServiceHarness;
  beforeAll(async () => {
    h = await createServiceHarness(roomServiceDefinition, { alongside: [userServiceDefinition] });
  }, 120_000);
  afterAll(() => h?.close());

  const account = () => signUpAccount(h);

  /** The room service's client as the social service holds it, counting the callers of each call. */
  async function countedRooms() {
    const client = h.client(RoomService, { token: await h.tokens.service("social") });
    const single: string[] = [];
    const many: number[] = [];
    const rooms: RoomsClient = {
      admitToStage: (req, opts) => (single.push(req.userUuid ?? ""), client.admitToStage(req, opts)),
      admitManyToStage: (req, opts) => (many.push(req.callers?.length ?? 0), client.admitManyToStage(req, opts)),
    };
    return { rooms, single, many };
  }

  const resolved = (uuid: string, type = "PUBLIC") => ({ uuid, settings: { type } }) as unknown as ResolvedRoom;

  it("sends the joins of one room asked at once in one call and answers each its own", async () => {
    const owner = await account();
    const [a, b, banned, kicked] = [await account(), await account(), await account(), await account()];
    const rooms = h.client(RoomService, { token: owner.token });
    const pub = (await rooms.createRoom({ name: `Batch ${randomUUID()}` })).room!;
    const priv = (await rooms.createRoom({ name: `Batch ${randomUUID()}`, type: "PRIVATE" })).room!;
    const grants = h.client(RoomUserRoleService, { token: owner.token });
    await grants.grantRoomRole({ roomId: pub.uuid, userId: banned.uuid, role: "banned" });
    await grants.kickUserFromRoom({ roomId: pub.uuid, userId: kicked.uuid });
    const counted = await countedRooms();
    const r = runtimeWith(counted.rooms);
    const fresh = { fresh: true };

    const answers = await Promise.allSettled([
      r.admit(resolved(pub.uuid), { user: a.uuid }, fresh),
      r.admit(resolved(pub.uuid), { user: banned.uuid }, fresh),
      r.admit(resolved(pub.uuid), { guest: "guest-1" }, fresh),
      r.admit(resolved(pub.uuid), { user: b.uuid }, fresh),
      r.admit(resolved(pub.uuid), { user: kicked.uuid }, fresh),
      r.admit(resolved(pub.uuid), { user: owner.uuid }, fresh),
      r.admit(resolved(priv.uuid, "PRIVATE"), { user: a.uuid }, fresh),
      r.admit(resolved(priv.uuid, "PRIVATE"), { user: owner.uuid }, fresh),
    ]);
    // One call per room.
    expect(counted.many.sort()).toEqual([2, 6]);
    expect(counted.single).toEqual([]);
    const outcome = (s: PromiseSettledResult<string[] | null>) =>
      s.status === "fulfilled" ? s.value : [ConnectError.from(s.reason).code, ConnectError.from(s.reason).rawMessage];
    expect(answers.map(outcome)).toEqual([
      expect.arrayContaining(["user"]),
      [Code.PermissionDenied, "You are banned from this room"],
      ["guest"],
      expect.arrayContaining(["user"]),
      [Code.PermissionDenied, expect.stringMatching(/^You are kicked from this room until \d{4}-/)],
      expect.arrayContaining(["owner"]),
      [Code.PermissionDenied, "This room is private"],
      expect.arrayContaining(["owner"]),
    ]);

    // A caller with a guest password asks alone (its guesses are counted there); so does one after the batch.
    expect(
      await refusalOf(r.admit(resolved(priv.uuid, "PRIVATE"), { user: b.uuid }, { fresh: true, guestPassword: "x" })),
    ).toMatchObject({ code: Code.PermissionDenied, rawMessage: "Wrong guest password" });
    expect(counted.single).toEqual([b.uuid]);
    expect(await r.admit(resolved(pub.uuid), { guest: "guest-2" }, fresh)).toEqual(["guest"]);
    expect(counted.many.length).toBe(3);

    // An unknown room refuses every caller of the call.
    const unknown = resolved(randomUUID());
    const refused = await Promise.all([
      refusalOf(r.admit(unknown, { user: a.uuid }, fresh)),
      refusalOf(r.admit(unknown, { guest: "guest-3" }, fresh)),
    ]);
    expect(refused.map((e) => [e.code, e.rawMessage])).toEqual([
      [Code.NotFound, "Room not found"],
      [Code.NotFound, "Room not found"],
    ]);
    expect(counted.many.length).toBe(4);
  });

  it("callers of later turns wait while a call for the room is out, then go in one call", async () => {
    const owner = await account();
    const [a, b, c] = [await account(), await account(), await account()];
    const pub = (await h.client(RoomService, { token: owner.token }).createRoom({ name: `Batch ${randomUUID()}` }))
      .room!;
    const counted = await countedRooms();
    // The first call is held until released: the next callers arrive while it is out.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const r = runtimeWith({
      ...counted.rooms,
      admitManyToStage: async (req, opts) => {
        const first = counted.many.length === 0;
        const answer = counted.rooms.admitManyToStage(req, opts);
        if (first) await held;
        return answer;
      },
    });
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    const fresh = { fresh: true };
    const answers = [r.admit(resolved(pub.uuid), { user: a.uuid }, fresh)];
    await turn();
    for (const caller of [{ user: b.uuid }, { guest: "guest-1" }, { user: c.uuid }]) {
      answers.push(r.admit(resolved(pub.uuid), caller, fresh));
      await turn();
    }
    expect(counted.many).toEqual([1]);
    release();
    const roles = await Promise.all(answers);
    expect(counted.many).toEqual([1, 3]);
    expect(roles.map((x) => x?.includes("guest") ?? false)).toEqual([false, false, true, false]);
  });

  it("sends at most ADMISSION_BATCH_MAX callers a call; a cancelled caller alone is refused", async () => {
    const owner = await account();
    const pub = (await h.client(RoomService, { token: owner.token }).createRoom({ name: `Batch ${randomUUID()}` }))
      .room!;
    const counted = await countedRooms();
    const r = runtimeWith(counted.rooms);
    const n = ADMISSION_BATCH_MAX + ADMISSION_BATCH_MAX / 2;
    const cancelled = new AbortController();
    const answers = Array.from({ length: n }, (_, i) =>
      r.admit(
        resolved(pub.uuid),
        { guest: `guest-${i}` },
        { fresh: true, signal: i === 7 ? cancelled.signal : undefined },
      ),
    );
    cancelled.abort();
    expect((await refusalOf(answers[7]!)).code).toBe(Code.Canceled);
    const admitted = await Promise.all(answers.filter((_, i) => i !== 7));
    expect(admitted.every((roles) => roles?.join() === "guest")).toBe(true);
    expect(counted.many).toEqual([ADMISSION_BATCH_MAX, ADMISSION_BATCH_MAX / 2]);
  });
});
