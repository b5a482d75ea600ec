// The chat panel's state, without React: merging history and live events (spec 002 §4 "Chat history merges
// without duplicates by uuid, merging reactions"), what is shown (§5: reported messages hidden, of consecutive
// non-consumable room messages only one, the latest), what may be edited (§5), and sends that failed (kept with a
// retry button). A room message remembers the room's chat sequence it is as of (issue 28), so a history read
// before a later change does not undo that change when it is merged.
import { create } from "@bufbuild/protobuf";
import {
  ChatMessageSchema,
  type ChatEvent,
  type ChatMessage,
  type ChatReactionList,
} from "@tt/proto/tt/social/v1/chat_pb";
import type { RoomActivity } from "@tt/proto/tt/social/v1/stage_pb";

/** 002 §9. */
export const HISTORY_CAP = 300;
export const EDIT_WINDOW_MS = 20_000;

/** A message as the panel holds it: a stored one, or one of ours still sending or failed. */
export interface ChatItem {
  message: ChatMessage;
  /** "sending" until the server answered, "failed" when it refused or could not be reached (retry button). */
  status: "sent" | "sending" | "failed";
  /** The server's refusal, for a failed send. */
  error?: string;
  /** A system line (issue 25): what happened in the room, not a stored message. */
  activity?: RoomActivity;
  /** The room's chat sequence this message is as of: its latest live event's, or the history's (issue 28). */
  sequence?: bigint;
}

/** A room activity as the room chat keeps it: where it arrived (after which stored message) and when. */
export interface ActivityLine {
  seq: number;
  /** The id of the newest stored message when it arrived (it shows after that message). */
  after: bigint;
  at: number;
  activity: RoomActivity;
}

/** The most activity lines the room chat keeps. */
export const ACTIVITY_CAP = 100;

/** The newest stored message's id (0 when none). */
export function lastStoredId(items: ChatItem[]): bigint {
  let last = 0n;
  for (const i of items) if (i.message.id > last) last = i.message.id;
  return last;
}

/**
 * Each activity line's row, made once: the list is rebuilt with every message, and a row that is the same object
 * as before is not drawn again (its memoised component compares the item by reference).
 */
const activityRows = new WeakMap<ActivityLine, ChatItem>();

function activityRow(line: ActivityLine): ChatItem {
  let row = activityRows.get(line);
  if (!row) {
    row = {
      status: "sent",
      activity: line.activity,
      message: create(ChatMessageSchema, {
        uuid: `activity-${line.seq}`,
        type: "room",
        date: { seconds: BigInt(Math.floor(line.at / 1000)), nanos: (line.at % 1000) * 1e6 },
      }),
    };
    activityRows.set(line, row);
  }
  return row;
}

/** The shown messages with the activity lines placed where they arrived (before messages still sending). */
export function withActivities(shown: ChatItem[], lines: readonly ActivityLine[]): ChatItem[] {
  if (lines.length === 0) return shown;
  const rows = activityRow;
  const out: ChatItem[] = [];
  let next = 0;
  for (const item of shown) {
    while (next < lines.length && (item.message.id === 0n || item.message.id > lines[next]!.after)) {
      out.push(rows(lines[next]!));
      next += 1;
    }
    out.push(item);
  }
  for (; next < lines.length; next++) out.push(rows(lines[next]!));
  return out;
}

/** The `@name` being typed at the end of the text, or undefined (issue 25: completion). */
export function mentionQuery(text: string): string | undefined {
  const match = /(?:^|\s)@([^\s@]*)$/.exec(text);
  return match ? match[1] : undefined;
}

/** The text with the `@name` being typed completed to `@nickname `. */
export function completeMention(text: string, nickname: string): string {
  return text.replace(/@([^\s@]*)$/, `@${nickname} `);
}

/** Whether a message's text mentions `@nickname` (the bot kit's rule, which bots' mention handlers follow too). */
export { mentions } from "@tt/bot/mentions";

/** Reactions of two versions of a message, merged: per emoji, everyone in either, once (by userUUID). */
export function mergeReactions(
  a: Record<string, ChatReactionList>,
  b: Record<string, ChatReactionList>,
): Record<string, ChatReactionList> {
  const out: Record<string, ChatReactionList> = {};
  for (const emoji of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const users = [...(a[emoji]?.users ?? []), ...(b[emoji]?.users ?? [])];
    const seen = new Set<string>();
    const merged = users.filter((u) => (seen.has(u.userUuid) ? false : (seen.add(u.userUuid), true)));
    if (merged.length > 0) out[emoji] = { $typeName: "tt.social.v1.ChatReactionList", users: merged };
  }
  return out;
}

function order(items: ChatItem[]): ChatItem[] {
  // Stored messages by the server's id; ours still unsent (id 0) stay at the end in the order they were written.
  const stored = items.filter((i) => i.message.id > 0n).sort((x, y) => (x.message.id < y.message.id ? -1 : 1));
  const pending = items.filter((i) => i.message.id === 0n);
  return [...stored, ...pending].slice(-HISTORY_CAP - pending.length);
}

/**
 * History (or any batch of stored messages) merged into the list: no duplicate uuid, reactions merged. With the
 * room's chat sequence the history was read at, a message a later live event changed stays as that event left it.
 */
export function mergeHistory(items: ChatItem[], history: ChatMessage[], sequence?: bigint): ChatItem[] {
  const byUuid = new Map(items.map((i) => [i.message.uuid, i]));
  for (const message of history) {
    const have = byUuid.get(message.uuid);
    if (have && sequence !== undefined && have.sequence !== undefined && have.sequence > sequence) continue;
    byUuid.set(message.uuid, {
      message: have ? { ...message, reactions: mergeReactions(have.message.reactions, message.reactions) } : message,
      status: "sent",
      ...(sequence !== undefined ? { sequence } : {}),
    });
  }
  return order([...byUuid.values()]);
}

/**
 * A message the server stored or changed (live event or an answer) replaces ours of the same uuid; a live event's
 * room chat sequence is kept with it.
 */
export function upsert(items: ChatItem[], message: ChatMessage, sequence?: bigint): ChatItem[] {
  const rest = items.filter((i) => i.message.uuid !== message.uuid);
  return order([...rest, { message, status: "sent", ...(sequence ? { sequence } : {}) }]);
}

export function remove(items: ChatItem[], uuid: string): ChatItem[] {
  return items.filter((i) => i.message.uuid !== uuid);
}

export function setStatus(items: ChatItem[], uuid: string, status: ChatItem["status"], error?: string): ChatItem[] {
  return items.map((i) => (i.message.uuid === uuid ? { ...i, status, error } : i));
}

/** Which conversation an event is about: a room's, or a direct one (the other person, seen from `me`). */
export function conversationOf(message: ChatMessage, me: string | undefined): { room?: string; peer?: string } {
  if (message.roomUuid) return { room: message.roomUuid };
  return { peer: message.userUuid === me ? message.receiverUuid : message.userUuid };
}

/** The room chat's list after one live event of that room (reportedHidden is the reader's, handled apart). */
export function applyRoomEvent(items: ChatItem[], event: ChatEvent): ChatItem[] {
  switch (event.kind.case) {
    case "created":
    case "edited":
    case "reactionsChanged":
      return upsert(items, event.kind.value, event.sequence);
    case "deleted":
      return remove(items, event.kind.value.uuid);
    case "cleared": {
      const until = event.kind.value.clearedAt;
      if (!until) return [];
      const ms = Number(until.seconds) * 1000 + Math.floor(until.nanos / 1e6);
      return items.filter((i) => i.status !== "sent" || dateMs(i.message) > ms);
    }
    default:
      return items;
  }
}

export function dateMs(message: ChatMessage): number {
  return message.date ? Number(message.date.seconds) * 1000 + Math.floor(message.date.nanos / 1e6) : Date.now();
}

/**
 * What is shown (002 §5): messages whose report identifier the reader reported are hidden, messages of blocked
 * people too, and of consecutive room messages that are not consumables only the last one shows (a run of
 * notices reads as the latest; consumables are purchases and each one shows).
 */
export function visibleItems(
  items: ChatItem[],
  reported: ReadonlySet<string>,
  blocked: ReadonlySet<string> = new Set(),
): ChatItem[] {
  const shown = items.filter(
    (i) => !reported.has(i.message.reportIdentifier) && !(i.message.userUuid && blocked.has(i.message.userUuid)),
  );
  const isNotice = (i: ChatItem | undefined) => i !== undefined && i.message.type === "room" && !i.message.consumable;
  return shown.filter((item, index) => !(isNotice(item) && isNotice(shown[index + 1])));
}

/**
 * 002 §5: the reader's latest sent message when it is plain text, and until when it may be edited (20 seconds
 * after it was sent). Only this one message can be editable: the list asks once, not once per row.
 */
export function latestEditable(items: ChatItem[], me: string | undefined): { uuid: string; until: number } | undefined {
  if (!me) return undefined;
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index]!;
    if (item.message.userUuid !== me || item.status !== "sent") continue;
    const m = item.message;
    const plain =
      m.structured.case === undefined &&
      m.imageBase64 === "" &&
      m.imageUrls.length === 0 &&
      m.songs.length === 0 &&
      !m.playlist &&
      !m.consumable;
    return plain ? { uuid: m.uuid, until: dateMs(m) + EDIT_WINDOW_MS } : undefined;
  }
  return undefined;
}

/** 002 §5: the reader's own latest message, under 20 seconds old, plain text. */
export function isEditable(items: ChatItem[], item: ChatItem, me: string | undefined, now = Date.now()): boolean {
  const latest = latestEditable(items, me);
  return latest !== undefined && latest.uuid === item.message.uuid && now < latest.until;
}
