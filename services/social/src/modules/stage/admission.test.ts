// The stage's admission when the room service cannot answer
// (docs/decisions/0226-when-the-room-service-cannot-be-reached-private.md): a private room fails closed with a clear
// 503; a public room is entered as a guest would (no roles, so no seat), logged.
import { Code, ConnectError } from "@connectrpc/connect";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { LastGood, OutageLog } from "../last-good.ts";
import type { ResolvedRoom } from "./runtime.ts";
import { StageRuntime } from "./runtime.ts";
import { refusalOf } from "@tt/kit/testing";

/** StageRuntime.admit against a room service that answers `answer` (a thrown error or the roles). */
function runtimeAnswering(answer: () => Promise<{ roles: string[] }>) {
  let calls = 0;
  const self = {
    admissions: new Map(),
    lastRoles: new LastGood<string[]>(),
    outage: new OutageLog(undefined),
    hubs: new Map(),
    logger: pino({ level: "silent" }),
    deps: {
      rooms: {
        admitToStage: () => {
          calls += 1;
          return answer();
        },
      },
    },
  };
  const admit = (room: ResolvedRoom, caller: { user?: string; guest?: string }, opts = {}) =>
    StageRuntime.prototype.admit.call(self as unknown as StageRuntime, room, caller, opts);
  return { admit, calls: () => calls };
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
