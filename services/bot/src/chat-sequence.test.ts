// The room chat's sequence as a client follows it (issue 28): what is applied, what is skipped, when the history is
// loaded again, and that reloads stay few.
import { create } from "@bufbuild/protobuf";
import { ChatEventSchema, type ChatEvent } from "@tt/proto/tt/social/v1/chat_pb";
import { describe, expect, it } from "vitest";
import { createChatSequence, RELOAD_MAX_DELAY_MS, type ChatSequenceOptions } from "./chat-sequence.ts";

const created = (sequence: number, uuid = `m-${sequence}`): ChatEvent =>
  create(ChatEventSchema, {
    sequence: BigInt(sequence),
    kind: { case: "created", value: { uuid, roomUuid: "room" } },
  });
const head = (sequence: number): ChatEvent =>
  create(ChatEventSchema, { kind: { case: "head", value: { roomUuid: "room", sequence: BigInt(sequence) } } });

function setup(extra: Partial<ChatSequenceOptions> = {}) {
  const timers: { run: () => void; ms: number; cancelled: boolean }[] = [];
  const gaps: string[] = [];
  const answers: (bigint | Error)[] = [];
  let reloads = 0;
  const sequence = createChatSequence({
    async reload() {
      reloads += 1;
      const next = answers.shift() ?? new Error("no answer prepared");
      if (next instanceof Error) throw next;
      return next;
    },
    onGap: (reason) => gaps.push(reason),
    log: () => undefined,
    random: () => 0.5,
    schedule: (run, ms) => {
      const timer = { run, ms, cancelled: false };
      timers.push(timer);
      return () => void (timer.cancelled = true);
    },
    ...extra,
  });
  const fire = async () => {
    for (const t of timers.splice(0)) if (!t.cancelled) t.run();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { sequence, timers, gaps, answers, fire, reloads: () => reloads };
}

describe("the room chat's sequence", () => {
  it("applies the next number, skips what the history already held, and reloads nothing while nothing is missed", () => {
    const { sequence, timers, gaps } = setup();
    sequence.loaded(4n);
    expect(sequence.accept(created(3))).toBe(false);
    expect(sequence.accept(created(4))).toBe(false);
    expect(sequence.accept(created(5))).toBe(true);
    expect(sequence.accept(created(6))).toBe(true);
    expect(sequence.accept(created(6))).toBe(false);
    // A direct message has no number: always applied.
    expect(sequence.accept(create(ChatEventSchema, { kind: { case: "created", value: { uuid: "dm" } } }))).toBe(true);
    expect(sequence.accept(head(6))).toBe(false);
    expect(sequence.known()).toBe(6n);
    expect([gaps, timers]).toEqual([[], []]);
  });

  it("a skipped number applies the event and reloads the history once, after a random pause of up to a second", async () => {
    const { sequence, timers, gaps, answers, fire, reloads } = setup();
    sequence.loaded(4n);
    expect(sequence.accept(created(7))).toBe(true);
    // 5 and 6 arriving late are in the reload already.
    expect(sequence.accept(created(5))).toBe(false);
    expect(sequence.accept(created(9))).toBe(true);
    expect(gaps).toEqual(["skipped", "skipped"]);
    expect(timers.map((t) => t.ms)).toEqual([RELOAD_MAX_DELAY_MS / 2]);
    answers.push(9n);
    await fire();
    expect(reloads()).toBe(1);
    expect(sequence.known()).toBe(9n);
    expect(sequence.accept(created(10))).toBe(true);
    expect(timers).toEqual([]);
  });

  it("a head beyond what is known reloads (a stream that received nothing during an outage); one at or below does not", async () => {
    const { sequence, gaps, answers, fire, reloads } = setup();
    sequence.loaded(3n);
    expect(sequence.accept(head(3))).toBe(false);
    expect(gaps).toEqual([]);
    expect(sequence.accept(head(8))).toBe(false);
    expect(gaps).toEqual(["head"]);
    answers.push(8n);
    await fire();
    expect([reloads(), sequence.known()]).toEqual([1, 8n]);
  });

  it("a head before the history answered waits for it; events before it follow on from what it held", async () => {
    const { sequence, gaps, timers } = setup();
    expect(sequence.accept(head(9))).toBe(false);
    expect(sequence.accept(created(5))).toBe(true);
    expect(sequence.accept(created(6))).toBe(true);
    sequence.loaded(4n);
    expect(sequence.known()).toBe(6n);
    expect([gaps, timers]).toEqual([[], []]);
    expect(sequence.accept(created(7))).toBe(true);
  });

  it("an event before the history that does not follow on from it means a hole: reload", () => {
    const { sequence, gaps } = setup();
    expect(sequence.accept(created(8))).toBe(true);
    sequence.loaded(5n);
    expect(sequence.known()).toBe(8n);
    expect(gaps).toEqual(["skipped"]);
  });

  it("a gap during a reload asks for one more after it; a failed reload is tried again with growing pauses", async () => {
    const { sequence, timers, answers, fire, reloads } = setup();
    sequence.loaded(1n);
    sequence.accept(created(3));
    answers.push(3n);
    timers.shift()!.run();
    // While the first reload runs (it started, its answer not yet in), another number is skipped.
    sequence.accept(created(5));
    expect(timers).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(timers).toHaveLength(1);
    answers.push(new Error("503 the database is unavailable"));
    await fire();
    expect(timers.map((t) => t.ms)).toEqual([500]);
    answers.push(new Error("503 again"));
    await fire();
    expect(timers.map((t) => t.ms)).toEqual([1000]);
    answers.push(5n);
    await fire();
    expect([reloads(), sequence.known(), timers.length]).toEqual([4, 5n, 0]);
  });

  it("the first load is asked at once and retried until it answers; close stops everything", async () => {
    const { sequence, timers, answers, fire } = setup();
    sequence.load();
    expect(timers.map((t) => t.ms)).toEqual([0]);
    answers.push(new Error("unavailable"));
    await fire();
    expect(sequence.known()).toBe(-1n);
    expect(timers).toHaveLength(1);
    sequence.close();
    expect(timers[0]!.cancelled).toBe(true);
    sequence.accept(created(1));
    expect(timers).toHaveLength(1);
  });
});
