// The room session's chat (issue 28): the history, then live events merged without duplicates; a skipped number of
// the room's chat sequence, or a head beyond what the bot has, loads the history again and merges it, and what the
// bot had missed reaches onChat and onMention. The join stream and the history are the test's (the real ones run in
// tests/e2e/bot-kit.e2e.test.ts and tests/e2e/social-chat-gaps.e2e.test.ts).
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { ChatEventSchema, ChatMessageSchema, type ChatMessage } from "@tt/proto/tt/social/v1/chat_pb";
import { StageSchema } from "@tt/proto/tt/social/v1/stage_pb";
import { ListRoomMessagesResponseSchema, type ListRoomMessagesResponse } from "@tt/proto/tt/social/v1/chat_service_pb";
import { JoinResponseSchema, type JoinResponse } from "@tt/proto/tt/social/v1/stage_service_pb";
import { eventually } from "@tt/kit/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { Bot } from "./bot.ts";
import { joinRoom, type RoomSession, type RoomSessionOptions } from "./room-session.ts";

const ROOM = "11111111-1111-4111-8111-111111111111";
const BOT = "22222222-2222-4222-8222-222222222222";
const PERSON = "33333333-3333-4333-8333-333333333333";

/** A join stream the test feeds. */
class FakeStream implements AsyncIterable<JoinResponse> {
  private readonly queue: (JoinResponse | null)[] = [];
  private wake: (() => void) | undefined;
  constructor(signal: AbortSignal | undefined) {
    signal?.addEventListener("abort", () => this.push(null));
  }
  push(item: JoinResponse | null) {
    this.queue.push(item);
    this.wake?.();
  }
  async *[Symbol.asyncIterator]() {
    for (;;) {
      while (this.queue.length === 0) await new Promise<void>((resolve) => (this.wake = resolve));
      const item = this.queue.shift()!;
      if (item === null) return;
      yield item;
    }
  }
}

const message = (id: number, text: string, init: MessageInitShape<typeof ChatMessageSchema> = {}) =>
  create(ChatMessageSchema, {
    uuid: `m-${id}`,
    id: BigInt(id),
    message: text,
    roomUuid: ROOM,
    userUuid: PERSON,
    type: "user",
    date: timestampFromMs(1_000 * id),
    ...init,
  });
const chat = (sequence: number, kind: MessageInitShape<typeof ChatEventSchema>["kind"]) =>
  create(JoinResponseSchema, {
    kind: { case: "chat", value: create(ChatEventSchema, { sequence: BigInt(sequence), kind }) },
  });
const created = (sequence: number, m: ChatMessage) => chat(sequence, { case: "created", value: m });
const head = (sequence: number) => chat(0, { case: "head", value: { roomUuid: ROOM, sequence: BigInt(sequence) } });
const state = () =>
  create(JoinResponseSchema, {
    kind: { case: "state", value: create(StageSchema, { room: { uuid: ROOM, slug: "r" } }) },
  });

let session: RoomSession | undefined;
afterEach(() => session?.close());

function setup(options: RoomSessionOptions = {}) {
  const streams: FakeStream[] = [];
  /** What the history answers now. */
  let answer: ListRoomMessagesResponse | undefined;
  let historyCalls = 0;
  const bot = {
    uuid: BOT,
    nickname: "Helper",
    clients: {
      social: {
        stage: {
          join: (_req: unknown, o: { signal?: AbortSignal }) => {
            const s = new FakeStream(o.signal);
            streams.push(s);
            return s;
          },
        },
        chat: {
          listRoomMessages: async () => {
            historyCalls += 1;
            if (!answer) throw new Error("no history yet");
            return answer;
          },
        },
      },
    },
  } as unknown as Bot;
  const history = (sequence: number, messages: ChatMessage[]) =>
    (answer = create(ListRoomMessagesResponseSchema, { roomUuid: ROOM, chatSequence: BigInt(sequence), messages }));
  return {
    streams,
    history,
    historyCalls: () => historyCalls,
    open: () => (session = joinRoom(bot, ROOM, { log: () => undefined, ...options })),
  };
}

const texts = (s: RoomSession) => s.messages().map((m) => m.message);

describe("the room session's chat", () => {
  it("keeps the history, then the live events, without duplicates and in order", async () => {
    const t = setup();
    t.history(2, [message(1, "one"), message(2, "two")]);
    const s = t.open();
    await eventually("the history", async () => (texts(s).length === 2 ? true : undefined));
    t.streams[0]!.push(state());
    t.streams[0]!.push(head(2));
    t.streams[0]!.push(created(2, message(2, "two")));
    t.streams[0]!.push(created(3, message(3, "three")));
    t.streams[0]!.push(chat(4, { case: "edited", value: message(3, "three, edited") }));
    t.streams[0]!.push(chat(5, { case: "deleted", value: { uuid: "m-1", roomUuid: ROOM } }));
    await eventually("the live events", async () => (texts(s)[0] === "two" ? true : undefined));
    expect(texts(s)).toEqual(["two", "three, edited"]);
    expect(t.historyCalls()).toBe(1);
  });

  it("a skipped number reloads the history and merges it; the missed message reaches onChat and onMention", async () => {
    const got: string[] = [];
    const mentioned: string[] = [];
    const gaps: string[] = [];
    const t = setup({
      onChat: (e) => void got.push(e.kind.case === "created" ? e.kind.value.message : String(e.kind.case)),
      onMention: (m) => void mentioned.push(m.message),
      onChatGap: (reason) => void gaps.push(reason),
    });
    t.history(1, [message(1, "one")]);
    const s = t.open();
    await eventually("the history", async () => (texts(s).length === 1 ? true : undefined));
    t.streams[0]!.push(state());
    // 2 and 3 were lost on the way; 4 shows the hole.
    t.history(4, [message(1, "one"), message(2, "@Helper are you there?"), message(3, "three"), message(4, "four")]);
    t.streams[0]!.push(created(4, message(4, "four")));
    await eventually("the reload", async () => (texts(s).length === 4 ? true : undefined));
    expect(texts(s)).toEqual(["one", "@Helper are you there?", "three", "four"]);
    expect(gaps).toEqual(["skipped"]);
    expect(got).toEqual(["four", "@Helper are you there?", "three"]);
    await eventually("the mention", async () => (mentioned.length === 1 ? true : undefined));
    expect(mentioned).toEqual(["@Helper are you there?"]);
    // The lost event arriving late is not handed on twice.
    t.streams[0]!.push(created(3, message(3, "three")));
    t.streams[0]!.push(created(5, message(5, "five")));
    await eventually("five", async () => (texts(s).length === 5 ? true : undefined));
    expect(got.slice(3)).toEqual(["five"]);
  });

  it("a stream that received nothing while events were lost learns from the head and catches up", async () => {
    const t = setup();
    t.history(1, [message(1, "one")]);
    const s = t.open();
    await eventually("the history", async () => (texts(s).length === 1 ? true : undefined));
    t.streams[0]!.push(state());
    t.history(3, [message(1, "one"), message(2, "two"), message(3, "three")]);
    t.streams[0]!.push(head(3));
    await eventually("the reload", async () => (texts(s).length === 3 ? true : undefined));
    expect(texts(s)).toEqual(["one", "two", "three"]);
  });

  it("an event applied after the history was read is not undone by it", async () => {
    const t = setup();
    t.history(1, [message(1, "one")]);
    const s = t.open();
    await eventually("the history", async () => (texts(s).length === 1 ? true : undefined));
    t.streams[0]!.push(state());
    // The reload's history was read at 3; the edit (4) came first.
    t.history(3, [message(1, "one"), message(2, "two"), message(3, "three")]);
    t.streams[0]!.push(chat(4, { case: "edited", value: message(1, "one, edited") }));
    await eventually("the reload", async () => (texts(s).length === 3 ? true : undefined));
    expect(texts(s)).toEqual(["one, edited", "two", "three"]);
  });

  it("chat: false keeps nothing and hands every event on", async () => {
    const got: bigint[] = [];
    const t = setup({ chat: false, onChat: (e) => void got.push(e.sequence) });
    const s = t.open();
    t.streams[0]!.push(state());
    t.streams[0]!.push(created(2, message(2, "two")));
    t.streams[0]!.push(created(2, message(2, "two")));
    await eventually("both events", async () => (got.length === 2 ? true : undefined));
    expect([s.messages(), t.historyCalls()]).toEqual([[], 0]);
  });
});
