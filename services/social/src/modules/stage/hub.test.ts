// A room hub on the in-process bus: patches from several instances may arrive out of order; the hub forwards them
// in version order, and a gap that does not close makes it re-read the stage and send it whole.
import { create, toBinary } from "@bufbuild/protobuf";
import { createMemoryBus } from "@tt/kit";
import { StagePatchSchema, type Stage } from "@tt/proto/tt/social/v1/stage_pb";
import { describe, expect, it } from "vitest";
import { stagePatchSubject } from "../../subjects.ts";
import { applyAction, initialStage, stagePatch } from "./domain.ts";
import { Listener, RoomHub } from "./hub.ts";

const ROOM = "22222222-2222-4222-8222-222222222222";
const settings = {
  uuid: ROOM,
  slug: "hub",
  name: "Hub",
  ownerUuid: "",
  type: "PUBLIC",
  djType: "EVERYONE",
  numberOfDjs: 3,
  isLive: true,
  liveAudio: false,
  design: "CLUB",
  posterUrl: "",
};
const users = ["a", "b", "c", "d"].map((x) => `00000000-0000-4000-8000-00000000000${x}`);

/** Versions 0..4 of a stage: each one more DJ seated (and then the vote-skip switched off). */
function history(): Stage[] {
  const out = [initialStage(settings)];
  const t = new Date("2026-11-24T20:00:00Z");
  for (const user of users.slice(0, 3)) {
    out.push(applyAction(out.at(-1)!, { kind: "takeSeat", user, canDj: true }, t).stage);
  }
  out.push(applyAction(out.at(-1)!, { kind: "setVoteSkip", enabled: false }, t).stage);
  return out;
}

const bus = createMemoryBus();

async function next(iter: AsyncGenerator<unknown>, n: number) {
  const got = [];
  for (let i = 0; i < n; i++) got.push((await iter.next()).value);
  return got as { kind: { case: string; value: { version: bigint } } }[];
}

describe("room hub", () => {
  it("forwards patches in version order whatever order they arrive in, and resyncs after a lasting gap", async () => {
    const stages = history();
    let stored = stages[0]!;
    const hub = new RoomHub(
      ROOM,
      bus,
      async () => stored,
      (err) => {
        throw err;
      },
    );
    await hub.ready;
    const listener = new Listener(1, users[3], undefined, Date.now());
    hub.add(listener);
    const abort = new AbortController();
    const messages = listener.messages(abort.signal);
    const publish = (v: number) =>
      bus.publish(
        stagePatchSubject(ROOM),
        toBinary(
          StagePatchSchema,
          create(StagePatchSchema, {
            version: BigInt(v),
            operations: JSON.stringify(stagePatch(stages[v - 1]!, stages[v]!)),
          }),
        ),
      );

    await publish(2);
    await publish(1);
    const first = await next(messages, 3);
    expect(first.map((m) => [m.kind.case, Number(m.kind.value.version)])).toEqual([
      ["state", 0],
      ["patch", 1],
      ["patch", 2],
    ]);

    // Version 3 is lost; 4 waits, then the hub re-reads the stored stage and sends it whole.
    stored = stages[4]!;
    await publish(4);
    const [resync] = await next(messages, 1);
    expect([resync!.kind.case, Number(resync!.kind.value.version)]).toEqual(["state", 4]);
    expect(hub.stage().voteSkip?.enabled).toBe(false);

    abort.abort();
    await hub.close();
  });
});
