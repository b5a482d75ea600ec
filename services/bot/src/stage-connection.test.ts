import { create, toJson, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { ChatEventSchema } from "@tt/proto/tt/social/v1/chat_pb";
import { KickedSchema, StageSchema, type Stage } from "@tt/proto/tt/social/v1/stage_pb";
import { JoinResponseSchema, type JoinResponse } from "@tt/proto/tt/social/v1/stage_service_pb";
import { createPatch } from "rfc6902";
import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it, vi } from "vitest";
import { createStageConnection, RESET_REJOIN_MAX_DELAY_MS, type StageConnectionOptions } from "./stage-connection.ts";

/** A join stream the test feeds message by message. */
class FakeStream implements AsyncIterable<JoinResponse> {
  private readonly queue: (JoinResponse | Error | null)[] = [];
  private wake: (() => void) | undefined;
  aborted = false;
  constructor(signal: AbortSignal) {
    signal.addEventListener("abort", () => {
      this.aborted = true;
      this.push(null);
    });
  }
  push(item: JoinResponse | Error | null) {
    this.queue.push(item);
    this.wake?.();
  }
  async *[Symbol.asyncIterator]() {
    for (;;) {
      while (this.queue.length === 0) await new Promise<void>((resolve) => (this.wake = resolve));
      const item = this.queue.shift()!;
      if (item === null) return;
      if (item instanceof Error) throw item;
      yield item;
    }
  }
}

const stage = (init: MessageInitShape<typeof StageSchema>) => create(StageSchema, init);
const full = (s: Stage, serverMs = 5000) =>
  create(JoinResponseSchema, { serverTime: timestampFromMs(serverMs), kind: { case: "state", value: s } });
const patch = (from: Stage, to: Stage, version = to.version) =>
  create(JoinResponseSchema, {
    kind: {
      case: "patch",
      value: {
        version,
        operations: JSON.stringify(createPatch(toJson(StageSchema, from), toJson(StageSchema, to))),
      },
    },
  });

function setup(extra: Partial<StageConnectionOptions> = {}) {
  const streams: FakeStream[] = [];
  const stages: Stage[] = [];
  const rejoins: string[] = [];
  const timers: { run: () => void; ms: number }[] = [];
  const logged: string[] = [];
  const connection = createStageConnection({
    room: "lounge",
    join: (_room, signal) => {
      const stream = new FakeStream(signal);
      streams.push(stream);
      return stream;
    },
    onStage: (s) => stages.push(s),
    onRejoin: (reason) => rejoins.push(reason),
    schedule: (run, ms) => {
      timers.push({ run, ms });
      return () => undefined;
    },
    log: (message) => logged.push(message),
    ...extra,
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  const fireTimers = async () => {
    for (const timer of timers.splice(0)) timer.run();
    await settle();
  };
  return { connection, streams, stages, rejoins, timers, logged, settle, fireTimers };
}

const base = { room: { uuid: "r1", slug: "lounge", numberOfDjs: 2 } };
const v1 = stage({ ...base, version: 1n });
const v2 = stage({ ...base, version: 2n, seats: [{ userUuid: "dj-1" }] });
const v3 = stage({
  ...base,
  version: 3n,
  seats: [{ userUuid: "dj-1" }],
  play: { playId: "p1", djUuid: "dj-1", duration: 60, song: { trackName: "Song" } },
  votes: { likes: 1, byUser: { u2: "like" } },
});

describe("the join stream on the client (spec 002 §4, §8, §9)", () => {
  it("takes the full state, then applies each patch in version order", async () => {
    const { connection, streams, stages, settle } = setup();
    connection.start();
    streams[0]!.push(full(v1));
    streams[0]!.push(patch(v1, v2));
    streams[0]!.push(patch(v2, v3));
    await settle();
    expect(stages.map((s) => s.version)).toEqual([1n, 2n, 3n]);
    expect(stages[2]).toEqual(v3);
    expect(connection.json()).toEqual(toJson(StageSchema, v3));
  });

  it("keeps by reference the parts of the stage a patch did not touch", async () => {
    const { connection, streams, stages, settle } = setup();
    const v4 = stage({
      ...base,
      version: 4n,
      seats: [{ userUuid: "dj-1" }],
      play: { playId: "p1", djUuid: "dj-1", duration: 60, song: { trackName: "Song" } },
      votes: { likes: 2, byUser: { u2: "like", u3: "like" } },
    });
    connection.start();
    streams[0]!.push(full(v3));
    streams[0]!.push(patch(v3, v4));
    await settle();
    const [before, after] = stages;
    expect(after).toEqual(v4);
    expect(after!.votes).not.toBe(before!.votes);
    expect(after!.seats).toBe(before!.seats);
    expect(after!.play).toBe(before!.play);
    expect(after!.room).toBe(before!.room);
  });

  it("takes a full state that comes again on the same stream as the new base for the patches", async () => {
    const { connection, streams, stages, rejoins, settle } = setup();
    connection.start();
    streams[0]!.push(full(v1));
    streams[0]!.push(full(v2));
    streams[0]!.push(patch(v2, v3));
    await settle();
    expect(stages.map((s) => s.version)).toEqual([1n, 2n, 3n]);
    expect(rejoins).toEqual([]);
  });

  it("ignores a repeated patch and rejoins on a version gap", async () => {
    const { connection, streams, stages, rejoins, settle, fireTimers } = setup();
    connection.start();
    streams[0]!.push(full(v2));
    streams[0]!.push(patch(v1, v2));
    await settle();
    expect(stages).toHaveLength(1);
    streams[0]!.push(patch(v2, v3, 4n));
    await settle();
    expect(rejoins).toEqual(["gap"]);
    expect(streams[0]!.aborted).toBe(true);
    await fireTimers();
    expect(streams).toHaveLength(2);
    streams[1]!.push(full(v3));
    await settle();
    expect(stages.at(-1)!.version).toBe(3n);
  });

  it("logs a patch that does not apply and rejoins", async () => {
    const { connection, streams, rejoins, logged, settle } = setup();
    connection.start();
    streams[0]!.push(full(v1));
    streams[0]!.push(
      create(JoinResponseSchema, {
        kind: { case: "patch", value: { version: 2n, operations: '[{"op":"remove","path":"/nothing/here"}]' } },
      }),
    );
    await settle();
    expect(logged).toEqual(["Failed to apply the room state patch"]);
    expect(rejoins).toEqual(["patch"]);
    streams.length = 0;
  });

  it("rejoins after a random delay of up to 2 s on a room reset", async () => {
    const { connection, streams, rejoins, timers, settle } = setup({ random: () => 0.75 });
    connection.start();
    streams[0]!.push(full(v1));
    streams[0]!.push(
      create(JoinResponseSchema, { kind: { case: "reset", value: { room: "r1", reason: "restarted" } } }),
    );
    await settle();
    expect(rejoins).toEqual(["reset"]);
    expect(timers.map((timer) => timer.ms)).toEqual([0.75 * RESET_REJOIN_MAX_DELAY_MS]);
  });

  it("reconnects when the stream breaks or ends, with a growing delay", async () => {
    const { connection, streams, rejoins, timers, settle, fireTimers } = setup({ random: () => 1 });
    connection.start();
    streams[0]!.push(new Error("network"));
    await settle();
    await fireTimers();
    streams[1]!.push(null);
    await settle();
    expect(rejoins).toEqual(["reconnect", "reconnect"]);
    expect(timers.map((timer) => timer.ms)).toEqual([500]);
  });

  it("stops and hands over the error when the join is refused for good (not admitted)", async () => {
    const onRefused = vi.fn();
    const { connection, streams, rejoins, timers, settle } = setup({ onRefused });
    connection.start();
    const refusal = new ConnectError("Wrong guest password", Code.PermissionDenied);
    streams[0]!.push(refusal);
    await settle();
    expect(onRefused).toHaveBeenCalledWith(refusal);
    expect(rejoins).toEqual([]);
    expect(timers).toEqual([]);
  });

  it("leaves for good on a kick and hands over its details", async () => {
    const onKicked = vi.fn();
    const statuses: string[] = [];
    const { connection, streams, rejoins, timers, settle } = setup({
      onKicked,
      onStatus: (status) => statuses.push(status),
    });
    connection.start();
    streams[0]!.push(full(v1));
    const kicked = create(KickedSchema, { room: "r1", by: "mod-1", reason: "kicked", until: timestampFromMs(9e12) });
    streams[0]!.push(create(JoinResponseSchema, { kind: { case: "kicked", value: kicked } }));
    await settle();
    expect(onKicked).toHaveBeenCalledWith(kicked);
    expect(statuses).toEqual(["connecting", "live", "kicked"]);
    connection.resync();
    expect(rejoins).toEqual([]);
    expect(timers).toEqual([]);
  });

  it("hands chat events on and takes a clock sample from the first message", async () => {
    const onChat = vi.fn();
    const onClockSample = vi.fn();
    let clock = 1000;
    const { connection, streams, settle } = setup({ onChat, onClockSample, now: () => (clock += 10) });
    connection.start();
    streams[0]!.push(full(v1, 777));
    const chat = create(ChatEventSchema, {
      kind: { case: "cleared", value: {} },
    });
    streams[0]!.push(create(JoinResponseSchema, { kind: { case: "chat", value: chat } }));
    await settle();
    expect(onChat).toHaveBeenCalledWith(chat);
    expect(onClockSample).toHaveBeenCalledWith(1010, 777, 1020);
  });

  it("the resync button joins again at once", async () => {
    const { connection, streams, rejoins, timers, settle } = setup();
    connection.start();
    streams[0]!.push(full(v1));
    await settle();
    connection.resync();
    expect(rejoins).toEqual(["resync"]);
    expect(timers[0]!.ms).toBe(0);
    connection.close();
  });
});
