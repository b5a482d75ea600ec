// A bot in a room: the join stream kept by the shared stage connection (the web room's rules: the full state, then
// patches by version; a rejoin on a gap, a patch that fails, a reset after a random delay of up to 2 s, a broken
// stream with growing pauses; a kick or a refusal ends it), and the acts of a room: seats, votes, skips, chat, and a
// handler for the chat messages that mention the bot. The session keeps the room's chat as the web room does: the
// history, then the live events merged by uuid; when an event skips a number of the room's chat sequence, or the
// stream says the room's chat is further on (issue 28), it loads the history again and merges it (chat-sequence.ts).
import { create } from "@bufbuild/protobuf";
import type { ConnectError } from "@connectrpc/connect";
import { ChatEventSchema, type ChatEvent, type ChatMessage } from "@tt/proto/tt/social/v1/chat_pb";
import type { Kicked, RoomActivity, Stage } from "@tt/proto/tt/social/v1/stage_pb";
import type { Bot } from "./bot.ts";
import { createChatSequence } from "./chat-sequence.ts";
import { mentions } from "./mentions.ts";
import { createStageConnection, type ConnectionStatus, type StageConnectionOptions } from "./stage-connection.ts";

export type RejoinReason = Parameters<NonNullable<StageConnectionOptions["onRejoin"]>>[0];

export interface RoomSessionOptions {
  /** The guest password of a private room in which the bot has no role. */
  guestPassword?: string;
  /** The stage changed (a full state or a patch applied). */
  onStage?(stage: Stage, session: RoomSession): void;
  /**
   * A chat event of the room (or of the bot's direct messages) as the join stream forwards it. With `chat` on (the
   * default), an event the session already had is not handed on twice, heads are not handed on, and the messages a
   * history reload found that the bot had missed come as `created` events.
   */
  onChat?(event: ChatEvent, session: RoomSession): void;
  /** A new room message from someone else that names the bot (`@nickname`, as the web room highlights it). */
  onMention?(message: ChatMessage, session: RoomSession): void | Promise<void>;
  /** Something happened in the room: a skip, a seat taken or left, a kick. */
  onActivity?(activity: RoomActivity, session: RoomSession): void;
  onKicked?(kicked: Kicked, session: RoomSession): void;
  /** The join was refused for good (403 not admitted, 404 no such room). */
  onRefused?(error: ConnectError, session: RoomSession): void;
  onStatus?(status: ConnectionStatus, session: RoomSession): void;
  /** Why the session rejoined: "gap", "patch", "reconnect", "reset" or "resync". */
  onRejoin?(reason: RejoinReason, session: RoomSession): void;
  /** Where problems are reported (a patch that failed, a broken stream, a mention handler that threw). */
  log?(message: string, error?: unknown): void;
  /**
   * Keep the room's chat (`messages()`): its history loaded on joining, live events merged, the history loaded again
   * when events were missed. Default true; false hands every chat event on as it comes and keeps nothing.
   */
  chat?: boolean;
  /** The room's chat history was loaded again because events were missed ("skipped": a number; "head": behind). */
  onChatGap?(reason: "skipped" | "head", session: RoomSession): void;
}

export interface RoomSession {
  /** The room as given to join (uuid or slug). */
  readonly room: string;
  /** The stage at its latest version, once the first state arrived. */
  stage(): Stage | undefined;
  /**
   * The room's chat as the bot has it, oldest first (at most the latest 300): the history merged with the live
   * events, without duplicates. Empty with `chat: false`.
   */
  messages(): ChatMessage[];
  status(): ConnectionStatus;
  /**
   * The stage once `test` holds (at once when it already does). Fails on timeout, or when the session ends (kick,
   * refusal, close) before.
   */
  waitFor(test: (stage: Stage) => boolean, options?: { timeoutMs?: number; what?: string }): Promise<Stage>;
  /** Takes a DJ seat (the bot then plays from its queue in turn): the stage after it. */
  takeSeat(): Promise<Stage | undefined>;
  /** Leaves the bot's DJ seat. */
  leaveSeat(): Promise<Stage | undefined>;
  /** Likes the play now on (or, given its id, only that play). */
  like(playId?: string): Promise<void>;
  dislike(playId?: string): Promise<void>;
  /** Skips the bot's own song. */
  skip(): Promise<void>;
  /** Sends a chat message to the room. */
  say(text: string): Promise<ChatMessage>;
  /** A fresh join now (hence a fresh full state). */
  resync(): void;
  /** Leaves the room's stream for good. */
  close(): void;
}

const DEFAULT_WAIT_MS = 30_000;
/** The most room messages a session keeps (002 §9's history cap). */
const CHAT_CAP = 300;

const dateMs = (m: ChatMessage) => (m.date ? Number(m.date.seconds) * 1000 + Math.floor(m.date.nanos / 1e6) : 0);

export function joinRoom(bot: Bot, room: string, options: RoomSessionOptions = {}): RoomSession {
  // eslint-disable-next-line no-console
  const log = options.log ?? ((message: string, error?: unknown) => console.warn(message, error));
  let current: Stage | undefined;
  let status: ConnectionStatus = "connecting";
  let ended: Error | undefined;
  const waiters = new Set<{ check(stage: Stage): void; fail(error: Error): void }>();
  const stage = bot.clients.social.stage;
  const chatClient = bot.clients.social.chat;
  // The room's uuid once known (a slug can change while the bot is in the room; the uuid cannot).
  const target = () => current?.room?.uuid || room;

  const end = (error: Error) => {
    ended = error;
    chat?.sequence.close();
    for (const waiter of [...waiters]) waiter.fail(error);
  };

  /** A new room message from someone else that names the bot: its handler runs. */
  const mention = (message: ChatMessage) => {
    if (
      options.onMention &&
      message.type === "user" &&
      message.roomUuid !== "" &&
      message.roomUuid === current?.room?.uuid &&
      message.userUuid !== bot.uuid &&
      mentions(message.message, bot.nickname)
    ) {
      Promise.resolve()
        .then(() => options.onMention!(message, session))
        .catch((error: unknown) => log("The bot's mention handler failed", error));
    }
  };

  const chat = options.chat === false ? undefined : roomChat();

  /**
   * The room's messages by uuid, each with the chat sequence it is as of (an event's, or the history's), and the
   * sequence that decides what to apply and when to reload.
   */
  function roomChat() {
    const byUuid = new Map<string, { message: ChatMessage; sequence: bigint }>();
    /** The newest message id of the first history: a reload hands on the messages missed after it. */
    let joinedAfter: bigint | undefined;
    const trim = () => {
      if (byUuid.size <= CHAT_CAP) return;
      const oldest = [...byUuid.values()].sort((a, b) => (a.message.id < b.message.id ? -1 : 1));
      for (const item of oldest.slice(0, byUuid.size - CHAT_CAP)) byUuid.delete(item.message.uuid);
    };
    const sequence = createChatSequence({
      async reload() {
        const answer = await chatClient.listRoomMessages({ room: target() });
        const found: ChatMessage[] = [];
        for (const message of answer.messages) {
          const have = byUuid.get(message.uuid);
          // An event applied since the history was read is newer than it.
          if (have && have.sequence > answer.chatSequence) continue;
          if (!have) found.push(message);
          byUuid.set(message.uuid, { message, sequence: answer.chatSequence });
        }
        trim();
        if (joinedAfter === undefined) {
          joinedAfter = answer.messages.reduce((max, m) => (m.id > max ? m.id : max), 0n);
        } else {
          for (const message of found.filter((m) => m.id > joinedAfter!).sort((a, b) => (a.id < b.id ? -1 : 1))) {
            options.onChat?.(create(ChatEventSchema, { kind: { case: "created", value: message } }), session);
            mention(message);
          }
        }
        return answer.chatSequence;
      },
      onGap: (reason) => options.onChatGap?.(reason, session),
      log,
    });
    return {
      sequence,
      messages: () => [...byUuid.values()].map((i) => i.message).sort((a, b) => (a.id < b.id ? -1 : 1)),
      /** Applies a live event; false when it was already known (or a head). */
      apply(event: ChatEvent): boolean {
        if (!sequence.accept(event)) return false;
        const k = event.kind;
        if (k.case === "created" || k.case === "edited" || k.case === "reactionsChanged") {
          if (k.value.roomUuid) {
            byUuid.set(k.value.uuid, { message: k.value, sequence: event.sequence });
            trim();
          }
        } else if (k.case === "deleted" || k.case === "reportedHidden") {
          byUuid.delete(k.value.uuid);
        } else if (k.case === "cleared" && k.value.clearedAt) {
          const until = Number(k.value.clearedAt.seconds) * 1000 + Math.floor(k.value.clearedAt.nanos / 1e6);
          for (const [uuid, item] of byUuid) if (dateMs(item.message) <= until) byUuid.delete(uuid);
        }
        return true;
      },
    };
  }

  const connection = createStageConnection({
    room,
    join: (r, signal) => stage.join({ room: r, guestPassword: options.guestPassword ?? "" }, { signal }),
    onStage(next) {
      current = next;
      options.onStage?.(next, session);
      for (const waiter of [...waiters]) waiter.check(next);
    },
    onChat(event) {
      if (chat && !chat.apply(event)) return;
      // A change the bot does not see (a message of someone it blocked) keeps the sequence whole; nothing to hand on.
      if (event.kind.case === undefined) return;
      options.onChat?.(event, session);
      if (event.kind.case === "created") mention(event.kind.value);
    },
    onActivity: (activity) => options.onActivity?.(activity, session),
    onKicked(kicked) {
      end(new Error(`kicked from the room (${kicked.reason})`));
      options.onKicked?.(kicked, session);
    },
    onRefused(error) {
      end(new Error(`the room refused the bot: ${error.rawMessage}`));
      options.onRefused?.(error, session);
    },
    onStatus(next) {
      status = next;
      options.onStatus?.(next, session);
    },
    onRejoin: (reason) => options.onRejoin?.(reason, session),
    log,
  });

  const session: RoomSession = {
    room,
    stage: () => current,
    messages: () => chat?.messages() ?? [],
    status: () => status,
    waitFor(test, o = {}) {
      if (current && test(current)) return Promise.resolve(current);
      if (ended) return Promise.reject(ended);
      return new Promise<Stage>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(
            new Error(`timed out waiting for ${o.what ?? "the stage"}; stage version ${current?.version ?? "none"}`),
          );
        }, o.timeoutMs ?? DEFAULT_WAIT_MS);
        const waiter = {
          check(next: Stage) {
            if (!test(next)) return;
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve(next);
          },
          fail(error: Error) {
            clearTimeout(timer);
            waiters.delete(waiter);
            reject(error);
          },
        };
        waiters.add(waiter);
      });
    },
    async takeSeat() {
      return (await stage.takeSeat({ room: target() })).stage;
    },
    async leaveSeat() {
      return (await stage.leaveSeat({ room: target() })).stage;
    },
    async like(playId) {
      await stage.like({ room: target(), playId: playId ?? "" });
    },
    async dislike(playId) {
      await stage.dislike({ room: target(), playId: playId ?? "" });
    },
    async skip() {
      await stage.skipSong({ room: target() });
    },
    say: (text) => bot.say(target(), text),
    resync: () => connection.resync(),
    close() {
      connection.close();
      end(new Error("the room session was closed"));
    },
  };
  connection.start();
  chat?.sequence.load();
  return session;
}
