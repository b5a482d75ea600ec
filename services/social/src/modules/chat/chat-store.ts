// The chat's reads and writes, in SQL on the call's EntityManager connection. Every write is its own statement
// (or transaction) and has committed when the function returns: a message is announced and answered only then.
import { create, fromJson, type JsonValue } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { EntityManager } from "@mikro-orm/postgresql";
import {
  ChatConsumableSchema,
  ChatGifSchema,
  type ChatMessage,
  ChatMessageSchema,
  ChatMusicInfoSchema,
  ChatPlaylistPreviewSchema,
  ChatReplySchema,
} from "@tt/proto/tt/social/v1/chat_pb";
import type { ChatContent } from "./entities.ts";

const T = {
  message: `"social"."chat_message"`,
  reaction: `"social"."chat_reaction"`,
  report: `"social"."chat_report"`,
  read: `"social"."chat_read"`,
  block: `"social"."chat_block"`,
  sequence: `"social"."chat_room_sequence"`,
};

/** A stored message as the queries return it. */
export interface MessageRow {
  id: string | number;
  uuid: string;
  room_uuid: string | null;
  sender_uuid: string | null;
  receiver_uuid: string | null;
  pair_key: string | null;
  type: string;
  text: string;
  plain: boolean;
  content: ChatContent;
  created_at: Date;
  edited_at: Date | null;
  reactions: { emoji: string; userUuid: string; name: string }[];
  report_count: number;
}

/** The columns of a message with its reactions (in the order given) and its number of reports. */
const SELECT = `m."id", m."uuid", m."room_uuid", m."sender_uuid", m."receiver_uuid", m."pair_key", m."type", m."text",
  m."plain", m."content", m."created_at", m."edited_at",
  coalesce((select json_agg(json_build_object('emoji', r."emoji", 'userUuid', r."user_uuid", 'name', r."name")
    order by r."created_at", r."user_uuid") from ${T.reaction} r where r."message_id" = m."id"), '[]'::json) as "reactions",
  (select count(*) from ${T.report} rp where rp."message_id" = m."id")::int as "report_count"`;

/** A PostgreSQL array literal of ids (the driver would spread a JS array into separate parameters). */
function pgArray(ids: (string | number)[]): string {
  return `{${ids.map((id) => String(BigInt(id))).join(",")}}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Takes the room's next chat sequence (entities.ts ChatRoomSequenceRow). Call it last in the transaction that stores
 * the change: the row stays locked until the commit, so the room's changes take their numbers in commit order.
 */
export async function nextRoomSequence(em: EntityManager, roomUuid: string): Promise<bigint> {
  const rows = await em.execute<{ sequence: string }[]>(
    `insert into ${T.sequence} as s ("room_uuid", "sequence") values (?, 1)
     on conflict ("room_uuid") do update set "sequence" = s."sequence" + 1 returning "sequence"::text as "sequence"`,
    [roomUuid],
  );
  return BigInt(rows[0]!.sequence);
}

/**
 * Runs `change` in a transaction that then takes the room's next chat sequence (`roomUuid` empty, a direct message:
 * no sequence, 0). `changed` says whether the change did anything (nothing done takes no number).
 */
export async function roomChange<T>(
  em: EntityManager,
  roomUuid: string | null | undefined,
  change: (tx: EntityManager) => Promise<T>,
  changed: (result: T) => boolean = () => true,
): Promise<{ result: T; sequence: bigint }> {
  return em.transactional(async (tx) => {
    const result = await change(tx);
    const sequence = roomUuid && changed(result) ? await nextRoomSequence(tx, roomUuid) : 0n;
    return { result, sequence };
  });
}

/** The room's latest chat sequence (0 when its chat never changed). */
export async function roomSequence(em: EntityManager, roomUuid: string): Promise<bigint> {
  return (await roomSequences(em, [roomUuid])).get(roomUuid) ?? 0n;
}

/** The latest chat sequence of each room given that has one, in one query. */
export async function roomSequences(em: EntityManager, rooms: string[]): Promise<Map<string, bigint>> {
  const uuids = rooms.filter((r) => UUID.test(r));
  if (uuids.length === 0) return new Map();
  const rows = await em.execute<{ room_uuid: string; sequence: string }[]>(
    `select "room_uuid", "sequence"::text as "sequence" from ${T.sequence} where "room_uuid" = any(?::uuid[])`,
    [`{${uuids.join(",")}}`],
  );
  return new Map(rows.map((r) => [r.room_uuid, BigInt(r.sequence)]));
}

/** "a:b" with the lower uuid first: the key of a direct conversation. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}

/** The proto message of a row. `moderator`: the reader sees report counts. `viewer`: whose playlist is "theirs". */
export function toChatMessage(row: MessageRow, opts: { moderator?: boolean; viewer?: string } = {}): ChatMessage {
  const c = row.content ?? {};
  const reactions: ChatMessage["reactions"] = {};
  const id = BigInt(row.id);
  for (const r of row.reactions ?? []) {
    const list = (reactions[r.emoji] ??= { $typeName: "tt.social.v1.ChatReactionList", users: [] });
    list.users.push({ $typeName: "tt.social.v1.ChatReaction", userUuid: r.userUuid, messageId: id, name: r.name });
  }
  const msg = create(ChatMessageSchema, {
    message: row.text,
    uuid: row.uuid,
    id,
    userName: c.userName ?? "",
    avatarId: c.avatarId ?? "",
    color: c.color ?? "",
    userUuid: row.sender_uuid ?? "",
    date: timestampFromDate(new Date(row.created_at)),
    reportIdentifier: row.uuid,
    replies: (c.replies ?? []).map((r) => fromJson(ChatReplySchema, r as JsonValue, { ignoreUnknownFields: true })),
    reactions,
    badges: c.badges ?? [],
    imageBase64: c.imageBase64 ?? "",
    imageUrls: c.imageUrls ?? [],
    media: c.media ?? "",
    songs: (c.songs ?? []).map((s) => fromJson(ChatMusicInfoSchema, s as JsonValue, { ignoreUnknownFields: true })),
    type: row.type,
    roomUuid: row.room_uuid ?? "",
    receiverUuid: row.receiver_uuid ?? "",
    editedAt: row.edited_at ? timestampFromDate(new Date(row.edited_at)) : undefined,
    reportCount: opts.moderator ? row.report_count : 0,
  });
  if (c.musicInfo) {
    msg.structured = {
      case: "musicInfo",
      value: fromJson(ChatMusicInfoSchema, c.musicInfo as JsonValue, { ignoreUnknownFields: true }),
    };
  } else if (c.gif) {
    msg.structured = { case: "gif", value: fromJson(ChatGifSchema, c.gif as JsonValue, { ignoreUnknownFields: true }) };
  }
  if (c.playlist) {
    msg.playlist = fromJson(ChatPlaylistPreviewSchema, c.playlist as JsonValue, { ignoreUnknownFields: true });
    msg.playlist.isCurrentUserPlaylist = opts.viewer !== undefined && msg.playlist.userUuid === opts.viewer;
  }
  if (c.consumable) {
    msg.consumable = fromJson(ChatConsumableSchema, c.consumable as JsonValue, { ignoreUnknownFields: true });
  }
  return msg;
}

export interface NewMessage {
  uuid: string;
  roomUuid?: string;
  senderUuid?: string;
  receiverUuid?: string;
  type: "user" | "room";
  text: string;
  plain: boolean;
  content: ChatContent;
}

/**
 * Stores a message unless its uuid is taken; answers the stored row, whether this call stored it, and (a room's
 * message stored by this call) the room's chat sequence it took.
 */
export async function insertMessage(
  em: EntityManager,
  m: NewMessage,
): Promise<{ row: MessageRow; created: boolean; sequence: bigint }> {
  const { result: created, sequence } = await roomChange(em, m.roomUuid, (tx) => insertRow(tx, m), Boolean);
  const row = await findByUuid(em, m.uuid);
  if (!row) throw new Error(`message ${m.uuid} vanished after its insert`);
  return { row, created, sequence };
}

async function insertRow(em: EntityManager, m: NewMessage): Promise<boolean> {
  const inserted = await em.execute<{ id: string }[]>(
    `insert into ${T.message} ("uuid", "room_uuid", "sender_uuid", "receiver_uuid", "pair_key", "type", "text", "plain",
      "content", "created_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, now())
     on conflict ("uuid") do nothing returning "id"`,
    [
      m.uuid,
      m.roomUuid ?? null,
      m.senderUuid ?? null,
      m.receiverUuid ?? null,
      m.senderUuid && m.receiverUuid ? pairKey(m.senderUuid, m.receiverUuid) : null,
      m.type,
      m.text,
      m.plain,
      JSON.stringify(m.content),
    ],
  );
  return inserted.length > 0;
}

export async function findByUuid(em: EntityManager, uuid: string): Promise<MessageRow | undefined> {
  const rows = await em.execute<MessageRow[]>(`select ${SELECT} from ${T.message} m where m."uuid" = ?`, [uuid]);
  return rows[0];
}

export async function findById(em: EntityManager, id: string | number): Promise<MessageRow | undefined> {
  const rows = await em.execute<MessageRow[]>(`select ${SELECT} from ${T.message} m where m."id" = ?`, [id]);
  return rows[0];
}

/**
 * The latest `limit` messages of a room (before `beforeId`), oldest first, without those `viewer` reported or
 * whose sender `viewer` blocked.
 */
export async function roomHistory(
  em: EntityManager,
  roomUuid: string,
  viewer: string | undefined,
  limit: number,
  beforeId: bigint,
): Promise<MessageRow[]> {
  const rows = await em.execute<MessageRow[]>(
    `select * from (select ${SELECT} from ${T.message} m
       where m."room_uuid" = ? and (?::bigint = 0 or m."id" < ?::bigint)
         and (?::uuid is null or (
           not exists (select 1 from ${T.report} rp where rp."message_id" = m."id" and rp."reporter_uuid" = ?::uuid)
           and (m."sender_uuid" is null or not exists (select 1 from ${T.block} b
             where b."user_uuid" = ?::uuid and b."blocked_uuid" = m."sender_uuid"))))
       order by m."id" desc limit ?) x order by x."id" asc`,
    [roomUuid, String(beforeId), String(beforeId), viewer ?? null, viewer ?? null, viewer ?? null, limit],
  );
  return rows;
}

/** The latest `limit` messages between two people (before `beforeId`), oldest first, without those `viewer` reported. */
export async function directHistory(
  em: EntityManager,
  viewer: string,
  peer: string,
  limit: number,
  beforeId: bigint,
): Promise<MessageRow[]> {
  return em.execute<MessageRow[]>(
    `select * from (select ${SELECT} from ${T.message} m
       where m."pair_key" = ? and (?::bigint = 0 or m."id" < ?::bigint)
         and not exists (select 1 from ${T.report} rp where rp."message_id" = m."id" and rp."reporter_uuid" = ?::uuid)
       order by m."id" desc limit ?) x order by x."id" asc`,
    [pairKey(viewer, peer), String(beforeId), String(beforeId), viewer, limit],
  );
}

/** Whether `row` is its sender's latest message of its conversation. */
export async function isLatestOfSender(em: EntityManager, row: MessageRow): Promise<boolean> {
  const where = row.room_uuid ? `m."room_uuid" = ?` : `m."pair_key" = ?`;
  const rows = await em.execute<{ n: number }[]>(
    `select count(*)::int as "n" from ${T.message} m where ${where} and m."sender_uuid" = ? and m."id" > ?`,
    [row.room_uuid ?? row.pair_key, row.sender_uuid, row.id],
  );
  return rows[0]!.n === 0;
}

export async function updateText(em: EntityManager, id: string | number, text: string): Promise<void> {
  await em.execute(`update ${T.message} set "text" = ?, "edited_at" = now() where "id" = ?`, [text, id]);
}

/** Toggles a reaction; true when it was added. */
export async function toggleReaction(
  em: EntityManager,
  messageId: string | number,
  emoji: string,
  userUuid: string,
  name: string,
): Promise<boolean> {
  const removed = await em.execute<{ emoji: string }[]>(
    `delete from ${T.reaction} where "message_id" = ? and "emoji" = ? and "user_uuid" = ? returning "emoji"`,
    [messageId, emoji, userUuid],
  );
  if (removed.length > 0) return false;
  await em.execute(
    `insert into ${T.reaction} ("message_id", "emoji", "user_uuid", "name", "created_at") values (?, ?, ?, ?, now())
     on conflict do nothing`,
    [messageId, emoji, userUuid, name.slice(0, 100)],
  );
  return true;
}

export async function addReport(
  em: EntityManager,
  messageId: string | number,
  reporter: string,
  reason: string,
): Promise<void> {
  await em.execute(
    `insert into ${T.report} ("message_id", "reporter_uuid", "reason", "created_at") values (?, ?, ?, now())
     on conflict do nothing`,
    [messageId, reporter, reason],
  );
}

/** Removes messages with their reactions and reports (in the caller's transaction); answers how many. */
async function removeWhere(em: EntityManager, where: string, params: unknown[]): Promise<number> {
  const ids = await em.execute<{ id: string }[]>(`select "id" from ${T.message} where ${where} for update`, params);
  if (ids.length === 0) return 0;
  const list = pgArray(ids.map((r) => r.id));
  await em.execute(`delete from ${T.reaction} where "message_id" = any(?::bigint[])`, [list]);
  await em.execute(`delete from ${T.report} where "message_id" = any(?::bigint[])`, [list]);
  await em.execute(`delete from ${T.message} where "id" = any(?::bigint[])`, [list]);
  return ids.length;
}

/** Deletes a message in one transaction; a room's message that was there takes the room's next chat sequence. */
export async function deleteMessage(
  em: EntityManager,
  id: string | number,
  roomUuid: string | null,
): Promise<{ result: number; sequence: bigint }> {
  return roomChange(
    em,
    roomUuid,
    (tx) => removeWhere(tx, `"id" = ?`, [id]),
    (n) => n > 0,
  );
}

/**
 * Clears a room's conversation up to `until` (the room service's RoomConversationCleared), in one transaction that
 * takes the room's next chat sequence (the cleared event is announced whether or not messages were there).
 */
export async function clearRoom(
  em: EntityManager,
  roomUuid: string,
  until: Date,
): Promise<{ result: number; sequence: bigint }> {
  return roomChange(em, roomUuid, (tx) => removeWhere(tx, `"room_uuid" = ? and "created_at" <= ?`, [roomUuid, until]));
}

export interface ReportRow {
  message_id: string;
  reporter_uuid: string;
  reason: string;
  created_at: Date;
}

/** A room's reported messages, most reported first, and their total. */
export async function roomReports(
  em: EntityManager,
  roomUuid: string,
  limit: number,
  offset: number,
): Promise<{ rows: MessageRow[]; reports: ReportRow[]; total: number }> {
  const rows = await em.execute<MessageRow[]>(
    `select * from (select ${SELECT} from ${T.message} m where m."room_uuid" = ?
       and exists (select 1 from ${T.report} rp where rp."message_id" = m."id")) x
     order by x."report_count" desc, x."id" desc limit ? offset ?`,
    [roomUuid, limit, offset],
  );
  const total = await em.execute<{ n: number }[]>(
    `select count(*)::int as "n" from ${T.message} m where m."room_uuid" = ?
       and exists (select 1 from ${T.report} rp where rp."message_id" = m."id")`,
    [roomUuid],
  );
  const reports =
    rows.length === 0
      ? []
      : await em.execute<ReportRow[]>(
          `select "message_id", "reporter_uuid", "reason", "created_at" from ${T.report}
           where "message_id" = any(?::bigint[]) order by "created_at"`,
          [pgArray(rows.map((r) => String(r.id)))],
        );
  return { rows, reports, total: total[0]!.n };
}

/** Whether either of two people blocked the other. */
export async function blockedEitherWay(em: EntityManager, a: string, b: string): Promise<boolean> {
  const rows = await em.execute<{ n: number }[]>(
    `select count(*)::int as "n" from ${T.block} where ("user_uuid" = ? and "blocked_uuid" = ?)
       or ("user_uuid" = ? and "blocked_uuid" = ?)`,
    [a, b, b, a],
  );
  return rows[0]!.n > 0;
}

/** The users a user blocked (their room messages are left out of what the user reads, live and in the history). */
export async function blockedBy(em: EntityManager, user: string): Promise<Set<string>> {
  const rows = await em.execute<{ blocked_uuid: string }[]>(
    `select "blocked_uuid" from ${T.block} where "user_uuid" = ?`,
    [user],
  );
  return new Set(rows.map((r) => r.blocked_uuid));
}

export async function setBlocked(em: EntityManager, user: string, blocked: string, on: boolean): Promise<void> {
  if (on) {
    await em.execute(`insert into ${T.block} ("user_uuid", "blocked_uuid") values (?, ?) on conflict do nothing`, [
      user,
      blocked,
    ]);
  } else {
    await em.execute(`delete from ${T.block} where "user_uuid" = ? and "blocked_uuid" = ?`, [user, blocked]);
  }
}

export interface ConversationRow {
  peer: string;
  last_id: string;
  unread: number;
}

/** The viewer's direct conversations, latest first (at most 200), with unread counts. */
export async function conversations(em: EntityManager, viewer: string): Promise<ConversationRow[]> {
  return em.execute<ConversationRow[]>(
    `with c as (
       select case when m."sender_uuid" = ?::uuid then m."receiver_uuid" else m."sender_uuid" end as "peer",
              max(m."id") as "last_id"
       from ${T.message} m
       where m."pair_key" is not null and (m."sender_uuid" = ?::uuid or m."receiver_uuid" = ?::uuid)
       group by 1)
     select c."peer", c."last_id"::text as "last_id",
       (select count(*) from ${T.message} u where u."sender_uuid" = c."peer" and u."receiver_uuid" = ?::uuid
          and u."id" > coalesce(r."last_read_id", 0))::int as "unread"
     from c left join ${T.read} r on r."user_uuid" = ?::uuid and r."peer_uuid" = c."peer"
     order by c."last_id" desc limit 200`,
    [viewer, viewer, viewer, viewer, viewer],
  );
}

export async function findManyById(em: EntityManager, ids: string[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  return em.execute<MessageRow[]>(`select ${SELECT} from ${T.message} m where m."id" = any(?::bigint[])`, [
    pgArray(ids),
  ]);
}

/** Marks the viewer's conversation read up to `lastId` (or its latest message); answers the id now stored. */
export async function markRead(em: EntityManager, viewer: string, peer: string, lastId: bigint): Promise<bigint> {
  let upTo = lastId;
  if (upTo === 0n) {
    const rows = await em.execute<{ id: string | null }[]>(
      `select max("id")::text as "id" from ${T.message} where "pair_key" = ?`,
      [pairKey(viewer, peer)],
    );
    upTo = BigInt(rows[0]?.id ?? 0);
  }
  const rows = await em.execute<{ last_read_id: string }[]>(
    `insert into ${T.read} ("user_uuid", "peer_uuid", "last_read_id") values (?, ?, ?)
     on conflict ("user_uuid", "peer_uuid") do update set "last_read_id" = greatest(${T.read}."last_read_id", excluded."last_read_id")
     returning "last_read_id"::text as "last_read_id"`,
    [viewer, peer, String(upTo)],
  );
  return BigInt(rows[0]!.last_read_id);
}
