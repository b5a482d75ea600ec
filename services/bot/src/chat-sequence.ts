// A room chat's sequence as a client follows it (issue 28; chat.proto): every change of a room's chat carries the
// room's next number, the history answers the latest one, and the join stream says where the room's chat is (a
// `head`) after the state and when the server found events lost on the way. The client keeps the latest number it
// knows: an event at or below it is already in what it has (skipped); one that skips a number, or a head beyond it,
// means something was missed, and the client loads the history again and merges it (without duplicates, by uuid).
// Reloads are few: one at a time, another only when something was missed meanwhile, each after a random pause of
// up to a second (a room's listeners do not all ask at once), and a failed one is tried again with growing pauses.
//
// Shared by the web room (frontends/room, through `@tt/bot/chat-sequence`) and the bot kit's room session. It
// imports nothing of Node or of the DOM.
import type { ChatEvent } from "@tt/proto/tt/social/v1/chat_pb";

/** The longest random pause before a reload (ms). */
export const RELOAD_MAX_DELAY_MS = 1000;
/** A reload that failed is tried again after a pause that doubles, up to this (ms). */
export const RELOAD_RETRY_MAX_MS = 10_000;

export interface ChatSequenceOptions {
  /** Loads the room's history again and merges it; answers its `chat_sequence`. */
  reload(): Promise<bigint>;
  /** Why a reload happens (tests, logs). */
  onGap?(reason: "skipped" | "head"): void;
  log?(message: string, error?: unknown): void;
  random?: () => number;
  schedule?: (run: () => void, ms: number) => () => void;
}

export interface ChatSequence {
  /** The history answered with this `chat_sequence`: everything up to it is in what the client has. */
  loaded(sequence: bigint): void;
  /**
   * A live event of the room's chat (the join stream's `chat`): whether to apply it. False for what is already
   * known and for a head (nothing to apply); a missed number or a head beyond what is known starts a reload.
   */
  accept(event: ChatEvent): boolean;
  /** Loads the history now (the first load: `reload` is called, its answer taken as by `loaded`, retried on failure). */
  load(): void;
  /** The latest number known (-1 before the history answered). */
  known(): bigint;
  /** Stops reloading (the room is left). */
  close(): void;
}

const defaultSchedule = (run: () => void, ms: number) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

export function createChatSequence(options: ChatSequenceOptions): ChatSequence {
  const random = options.random ?? Math.random;
  const schedule = options.schedule ?? defaultSchedule;
  // eslint-disable-next-line no-console
  const log = options.log ?? ((message: string, error?: unknown) => console.warn(message, error));
  let known = -1n;
  /** Numbers of events applied before the history answered (it may or may not hold them). */
  const early = new Set<bigint>();
  let closed = false;
  let pending: (() => void) | undefined;
  let running = false;
  let again = false;
  let failures = 0;

  const reload = (reason: "skipped" | "head") => {
    if (closed) return;
    options.onGap?.(reason);
    if (running) {
      again = true;
      return;
    }
    if (pending) return;
    pending = schedule(() => void run(), random() * RELOAD_MAX_DELAY_MS);
  };

  async function run() {
    pending = undefined;
    if (closed) return;
    running = true;
    again = false;
    let retryIn: number | undefined;
    try {
      sequence.loaded(await options.reload());
      failures = 0;
    } catch (error) {
      failures += 1;
      retryIn = Math.min(RELOAD_RETRY_MAX_MS, 500 * 2 ** (failures - 1));
      log("The room's chat history could not be reloaded; trying again", error);
    } finally {
      running = false;
    }
    if (closed) return;
    if (retryIn !== undefined) pending = schedule(() => void run(), retryIn);
    else if (again) pending = schedule(() => void run(), random() * RELOAD_MAX_DELAY_MS);
  }

  const sequence: ChatSequence = {
    loaded(at) {
      if (at > known) known = at;
      // What came before the history and follows on from it is known too; anything further means a hole.
      while (early.delete(known + 1n)) known += 1n;
      let beyond = -1n;
      for (const n of early) if (n > beyond) beyond = n;
      early.clear();
      if (beyond > known) {
        known = beyond;
        reload("skipped");
      }
    },
    accept(event) {
      if (event.kind.case === "head") {
        if (known >= 0n && event.kind.value.sequence > known) reload("head");
        return false;
      }
      const n = event.sequence;
      if (n === 0n) return true; // not a room's change (direct messages, the reader's own events)
      if (known < 0n) {
        early.add(n);
        return true;
      }
      if (n <= known) return false;
      if (n > known + 1n) reload("skipped");
      known = n;
      return true;
    },
    load() {
      if (closed || running || pending) return;
      pending = schedule(() => void run(), 0);
    },
    known: () => known,
    close() {
      closed = true;
      pending?.();
      pending = undefined;
    },
  };
  return sequence;
}
