// The chat's reads and writes, as typed queries on the chat's entities (db.ts; docs/decisions/0327-typed-queries.md)
// on the call's EntityManager connection. Every write is its own statement (or transaction) and has committed when
// the function returns: a message is announced and answered only then. The statements of a message's send, a room's
// history, a reaction and the stage's reads are compiled once (compiledOnce); the rarer ones are built per call.
import { create, fromJson, type JsonValue } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { EntityManager } from "@mikro-orm/postgresql";
import { compiledOnce, type ExpressionBuilder, type Kysely, sql } from "@tt/kit";
import {
  ChatConsumableSchema,
  ChatGifSchema,
  type ChatMessage,
  ChatMessageSchema,
  ChatMusicInfoSchema,
  ChatPlaylistPreviewSchema,
  ChatReplySchema,
} from "@tt/proto/tt/social/v1/chat_pb";
import { db, type SocialTables } from "../../db.ts";
import type { ChatContent } from "./entities.ts";

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
  created_at: Date | string;
  edited_at: Date | string | null;
  reactions: { emoji: string; userUuid: string; name: string }[];
  report_count: number;
}

type Db = Kysely<SocialTables>;
/** A statement's scope with the message as `m`. */
type WithMessage = ExpressionBuilder<SocialTables & { m: SocialTables["chat_message"] }, "m">;

/** A message's reactions (in the order given), as json: `[{ emoji, userUuid, name }]`. */
const reactionsOf = (eb: WithMessage) =>
  eb.fn
    .coalesce(
      eb
        .selectFrom("chat_reaction as r")
        .select((r) =>
          r.fn
            .jsonAgg(
              sql<MessageRow["reactions"][number]>`json_build_object('emoji', ${r.ref("r.emoji")}, 'userUuid', ${r.ref(
                "r.user_uuid",
              )}, 'name', ${r.ref("r.name")})`,
            )
            .orderBy("r.created_at")
            .orderBy("r.user_uuid")
            .as("agg"),
        )
        .whereRef("r.message_id", "=", "m.id"),
      sql<MessageRow["reactions"]>`'[]'::json`,
    )
    .$castTo<MessageRow["reactions"]>()
    .as("reactions");

/** How many reports a message has. */
const reportCountOf = (eb: WithMessage) =>
  eb
    .cast<number>(
      eb
        .selectFrom("chat_report as rp")
        .select((rp) => rp.fn.countAll().as("n"))
        .whereRef("rp.message_id", "=", "m.id"),
      "integer",
    )
    .as("report_count");

/** Messages as `m` with their columns, their reactions and their number of reports (MessageRow). */
const messages = (q: Db) =>
  q
    .selectFrom("chat_message as m")
    .select([
      "m.id",
      "m.uuid",
      "m.room_uuid",
      "m.sender_uuid",
      "m.receiver_uuid",
      "m.pair_key",
      "m.type",
      "m.text",
      "m.plain",
      "m.content",
      "m.created_at",
      "m.edited_at",
    ])
    .select((eb) => [reactionsOf(eb), reportCountOf(eb)])
    .$castTo<MessageRow>();

/** "Not reported by `viewer`" (a uuid parameter; null: nobody's reports hide anything). */
const notReportedBy = (eb: WithMessage, viewer: unknown) =>
  eb.not(
    eb.exists(
      eb
        .selectFrom("chat_report as rp")
        .select(sql.lit(1).as("one"))
        .whereRef("rp.message_id", "=", "m.id")
        .where("rp.reporter_uuid", "=", sql<string>`${viewer}::uuid`),
    ),
  );

/** `before` (a bigint parameter, as text) is 0, or the message is older. */
const olderThan = (eb: WithMessage, before: unknown) =>
  eb.or([eb(sql`${before}::bigint`, "=", 0), eb("m.id", "<", sql<number>`${before}::bigint`)]);

/** An array parameter of message ids (`id = any(…)`), each as text: a bigint answers as text, ids are typed as numbers. */
const bigintArray = (ids: readonly (string | number)[]) =>
  sql<number[]>`${ids.map((id) => String(BigInt(id)))}::bigint[]`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const takeSequence = compiledOnce(db, (q, p: { roomUuid: string }) =>
  q
    .insertInto("chat_room_sequence")
    .values({ room_uuid: p.roomUuid, sequence: sql<bigint>`1` })
    .onConflict((oc) =>
      oc.column("room_uuid").doUpdateSet((eb) => ({
        sequence: eb(eb.ref("chat_room_sequence.sequence"), "+", sql<bigint>`1`),
      })),
    )
    .returning((eb) => eb.cast<string>("sequence", "text").as("sequence")),
);

/**
 * Takes the room's next chat sequence (entities.ts ChatRoomSequenceRow). Call it last in the transaction that stores
 * the change: the row stays locked until the commit, so the room's changes take their numbers in commit order.
 */
export async function nextRoomSequence(em: EntityManager, roomUuid: string): Promise<bigint> {
  const [row] = await takeSequence(em, { roomUuid });
  return BigInt(row!.sequence);
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

const sequencesOf = compiledOnce(db, (q, p: { rooms: string[] }) =>
  q
    .selectFrom("chat_room_sequence")
    .select((eb) => ["room_uuid", eb.cast<string>("sequence", "text").as("sequence")])
    .where((eb) => eb("room_uuid", "=", eb.fn.any(sql<string[]>`${p.rooms}::uuid[]`))),
);

/** The latest chat sequence of each room given that has one, in one query. */
export async function roomSequences(em: EntityManager, rooms: string[]): Promise<Map<string, bigint>> {
  const uuids = rooms.filter((r) => UUID.test(r));
  if (uuids.length === 0) return new Map();
  const rows = await sequencesOf(em, { rooms: uuids });
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

const insertIfNew = compiledOnce(
  db,
  (
    q,
    p: {
      uuid: string;
      roomUuid: string | null;
      senderUuid: string | null;
      receiverUuid: string | null;
      pairKey: string | null;
      type: string;
      text: string;
      plain: boolean;
      content: string;
    },
  ) =>
    q
      .insertInto("chat_message")
      .values({
        uuid: p.uuid,
        room_uuid: p.roomUuid,
        sender_uuid: p.senderUuid,
        receiver_uuid: p.receiverUuid,
        pair_key: p.pairKey,
        type: p.type,
        text: p.text,
        plain: p.plain,
        content: sql<ChatContent>`${p.content}::jsonb`,
        created_at: sql<Date>`now()`,
      })
      .onConflict((oc) => oc.column("uuid").doNothing())
      .returning("id"),
);

async function insertRow(em: EntityManager, m: NewMessage): Promise<boolean> {
  const inserted = await insertIfNew(em, {
    uuid: m.uuid,
    roomUuid: m.roomUuid ?? null,
    senderUuid: m.senderUuid ?? null,
    receiverUuid: m.receiverUuid ?? null,
    pairKey: m.senderUuid && m.receiverUuid ? pairKey(m.senderUuid, m.receiverUuid) : null,
    type: m.type,
    text: m.text,
    plain: m.plain,
    content: JSON.stringify(m.content),
  });
  return inserted.length > 0;
}

const byUuid = compiledOnce(db, (q, p: { uuid: string }) => messages(q).where("m.uuid", "=", p.uuid));
const byId = compiledOnce(db, (q, p: { id: string | number }) => messages(q).where("m.id", "=", p.id as number));

export async function findByUuid(em: EntityManager, uuid: string): Promise<MessageRow | undefined> {
  return (await byUuid(em, { uuid }))[0];
}

export async function findById(em: EntityManager, id: string | number): Promise<MessageRow | undefined> {
  return (await byId(em, { id }))[0];
}

const roomPage = compiledOnce(db, (q, p: { roomUuid: string; viewer: string | null; before: string; limit: number }) =>
  q
    .selectFrom(
      messages(q)
        .where("m.room_uuid", "=", p.roomUuid)
        .where((eb) => olderThan(eb, p.before))
        .where((eb) =>
          eb.or([
            eb(sql`${p.viewer}::uuid`, "is", null),
            eb.and([
              notReportedBy(eb, p.viewer),
              eb.or([
                eb("m.sender_uuid", "is", null),
                eb.not(
                  eb.exists(
                    eb
                      .selectFrom("chat_block as b")
                      .select(sql.lit(1).as("one"))
                      .where("b.user_uuid", "=", sql<string>`${p.viewer}::uuid`)
                      .whereRef("b.blocked_uuid", "=", "m.sender_uuid"),
                  ),
                ),
              ]),
            ]),
          ]),
        )
        .orderBy("m.id", "desc")
        .limit(p.limit)
        .as("x"),
    )
    .selectAll()
    .orderBy("x.id", "asc"),
);

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
  return roomPage(em, { roomUuid, viewer: viewer ?? null, before: String(beforeId), limit });
}

const directPage = compiledOnce(db, (q, p: { pairKey: string; viewer: string; before: string; limit: number }) =>
  q
    .selectFrom(
      messages(q)
        .where("m.pair_key", "=", p.pairKey)
        .where((eb) => olderThan(eb, p.before))
        .where((eb) => notReportedBy(eb, p.viewer))
        .orderBy("m.id", "desc")
        .limit(p.limit)
        .as("x"),
    )
    .selectAll()
    .orderBy("x.id", "asc"),
);

/** The latest `limit` messages between two people (before `beforeId`), oldest first, without those `viewer` reported. */
export async function directHistory(
  em: EntityManager,
  viewer: string,
  peer: string,
  limit: number,
  beforeId: bigint,
): Promise<MessageRow[]> {
  return directPage(em, { pairKey: pairKey(viewer, peer), viewer, before: String(beforeId), limit });
}

/** Whether `row` is its sender's latest message of its conversation. */
export async function isLatestOfSender(em: EntityManager, row: MessageRow): Promise<boolean> {
  const later = await db(em)
    .selectFrom("chat_message as m")
    .select((eb) => eb.cast<number>(eb.fn.countAll(), "integer").as("n"))
    .where(row.room_uuid ? "m.room_uuid" : "m.pair_key", "=", row.room_uuid ?? row.pair_key)
    .where("m.sender_uuid", "=", row.sender_uuid)
    .where("m.id", ">", row.id as number)
    .executeTakeFirstOrThrow();
  return later.n === 0;
}

export async function updateText(em: EntityManager, id: string | number, text: string): Promise<void> {
  await db(em)
    .updateTable("chat_message")
    .set({ text, edited_at: sql<Date>`now()` })
    .where("id", "=", id as number)
    .execute();
}

const removeReaction = compiledOnce(db, (q, p: { messageId: string | number; emoji: string; userUuid: string }) =>
  q
    .deleteFrom("chat_reaction")
    .where("message_id", "=", p.messageId as number)
    .where("emoji", "=", p.emoji)
    .where("user_uuid", "=", p.userUuid)
    .returning("emoji"),
);

const addReaction = compiledOnce(
  db,
  (q, p: { messageId: string | number; emoji: string; userUuid: string; name: string }) =>
    q
      .insertInto("chat_reaction")
      .values({
        message_id: p.messageId as number,
        emoji: p.emoji,
        user_uuid: p.userUuid,
        name: p.name,
        created_at: sql<Date>`now()`,
      })
      .onConflict((oc) => oc.doNothing()),
);

/** Toggles a reaction; true when it was added. */
export async function toggleReaction(
  em: EntityManager,
  messageId: string | number,
  emoji: string,
  userUuid: string,
  name: string,
): Promise<boolean> {
  const removed = await removeReaction(em, { messageId, emoji, userUuid });
  if (removed.length > 0) return false;
  await addReaction(em, { messageId, emoji, userUuid, name: name.slice(0, 100) });
  return true;
}

export async function addReport(
  em: EntityManager,
  messageId: string | number,
  reporter: string,
  reason: string,
): Promise<void> {
  await db(em)
    .insertInto("chat_report")
    .values({
      message_id: messageId as number,
      reporter_uuid: reporter,
      reason,
      created_at: sql<Date>`now()`,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Which messages a removal takes: one by id, or a room's up to a time. */
type Removal = { id: string | number } | { roomUuid: string; until: Date };

/** Removes messages with their reactions and reports (in the caller's transaction); answers how many. */
async function removeMessages(em: EntityManager, which: Removal): Promise<number> {
  const q = db(em);
  const ids = await q
    .selectFrom("chat_message")
    .select("id")
    .$call((s) =>
      "id" in which
        ? s.where("id", "=", which.id as number)
        : s.where("room_uuid", "=", which.roomUuid).where("created_at", "<=", which.until),
    )
    .forUpdate()
    .execute();
  if (ids.length === 0) return 0;
  const list = bigintArray(ids.map((r) => r.id));
  await q
    .deleteFrom("chat_reaction")
    .where((eb) => eb("message_id", "=", eb.fn.any(list)))
    .execute();
  await q
    .deleteFrom("chat_report")
    .where((eb) => eb("message_id", "=", eb.fn.any(list)))
    .execute();
  await q
    .deleteFrom("chat_message")
    .where((eb) => eb("id", "=", eb.fn.any(list)))
    .execute();
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
    (tx) => removeMessages(tx, { id }),
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
  return roomChange(em, roomUuid, (tx) => removeMessages(tx, { roomUuid, until }));
}

export interface ReportRow {
  message_id: string | number;
  reporter_uuid: string;
  reason: string;
  created_at: Date | string;
}

/** A room's reported messages, most reported first, and their total. */
export async function roomReports(
  em: EntityManager,
  roomUuid: string,
  limit: number,
  offset: number,
): Promise<{ rows: MessageRow[]; reports: ReportRow[]; total: number }> {
  const q = db(em);
  const reported = (eb: WithMessage) =>
    eb.exists(eb.selectFrom("chat_report as rp").select(sql.lit(1).as("one")).whereRef("rp.message_id", "=", "m.id"));
  const rows = await q
    .selectFrom(messages(q).where("m.room_uuid", "=", roomUuid).where(reported).as("x"))
    .selectAll()
    .orderBy("x.report_count", "desc")
    .orderBy("x.id", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
  const total = await q
    .selectFrom("chat_message as m")
    .select((eb) => eb.cast<number>(eb.fn.countAll(), "integer").as("n"))
    .where("m.room_uuid", "=", roomUuid)
    .where(reported)
    .executeTakeFirstOrThrow();
  const reports =
    rows.length === 0
      ? []
      : await q
          .selectFrom("chat_report")
          .select(["message_id", "reporter_uuid", "reason", "created_at"])
          .where((eb) => eb("message_id", "=", eb.fn.any(bigintArray(rows.map((r) => r.id)))))
          .orderBy("created_at")
          .execute();
  return { rows, reports, total: total.n };
}

/** Whether either of two people blocked the other. */
export async function blockedEitherWay(em: EntityManager, a: string, b: string): Promise<boolean> {
  const row = await db(em)
    .selectFrom("chat_block")
    .select((eb) => eb.cast<number>(eb.fn.countAll(), "integer").as("n"))
    .where((eb) =>
      eb.or([
        eb.and([eb("user_uuid", "=", a), eb("blocked_uuid", "=", b)]),
        eb.and([eb("user_uuid", "=", b), eb("blocked_uuid", "=", a)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return row.n > 0;
}

const blocksOf = compiledOnce(db, (q, p: { users: string[] }) =>
  q
    .selectFrom("chat_block")
    .select(["user_uuid", "blocked_uuid"])
    .where(sql<boolean>`user_uuid = any(${p.users}::uuid[])`),
);

/**
 * The users each of `users` blocked (their room messages are left out of what the user reads, live and in the
 * history), in the order of `users`, in one statement.
 */
export async function blockedByEach(em: EntityManager, users: readonly string[]): Promise<Set<string>[]> {
  const blocked = new Map(users.map((user) => [user, new Set<string>()] as const));
  for (const row of await blocksOf(em, { users: [...blocked.keys()] }))
    blocked.get(row.user_uuid)?.add(row.blocked_uuid);
  return users.map((user) => blocked.get(user)!);
}

export async function setBlocked(em: EntityManager, user: string, blocked: string, on: boolean): Promise<void> {
  if (on) {
    await db(em)
      .insertInto("chat_block")
      .values({ user_uuid: user, blocked_uuid: blocked })
      .onConflict((oc) => oc.doNothing())
      .execute();
  } else {
    await db(em).deleteFrom("chat_block").where("user_uuid", "=", user).where("blocked_uuid", "=", blocked).execute();
  }
}

export interface ConversationRow {
  peer: string;
  last_id: string;
  unread: number;
}

/** The viewer's direct conversations, latest first (at most 200), with unread counts. */
export async function conversations(em: EntityManager, viewer: string): Promise<ConversationRow[]> {
  const rows = await db(em)
    .with("c", (q) =>
      q
        .selectFrom("chat_message as m")
        .select((eb) => [
          eb
            .case()
            .when("m.sender_uuid", "=", viewer)
            .then(eb.ref("m.receiver_uuid"))
            .else(eb.ref("m.sender_uuid"))
            .end()
            .as("peer"),
          eb.fn.max("m.id").as("last_id"),
        ])
        .where("m.pair_key", "is not", null)
        .where((eb) => eb.or([eb("m.sender_uuid", "=", viewer), eb("m.receiver_uuid", "=", viewer)]))
        .groupBy(sql`1`),
    )
    .selectFrom("c")
    .leftJoin("chat_read as r", (join) => join.on("r.user_uuid", "=", viewer).onRef("r.peer_uuid", "=", "c.peer"))
    .select((eb) => [
      "c.peer",
      eb.cast<string>("c.last_id", "text").as("last_id"),
      eb
        .cast<number>(
          eb
            .selectFrom("chat_message as u")
            .select((u) => u.fn.countAll().as("n"))
            .whereRef("u.sender_uuid", "=", "c.peer")
            .where("u.receiver_uuid", "=", viewer)
            .where((u) => u("u.id", ">", u.fn.coalesce("r.last_read_id", sql<number>`0`))),
          "integer",
        )
        .as("unread"),
    ])
    .orderBy("c.last_id", "desc")
    .limit(200)
    .execute();
  return rows.map((r) => ({ peer: r.peer!, last_id: r.last_id, unread: r.unread }));
}

export async function findManyById(em: EntityManager, ids: string[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  const q = db(em);
  return messages(q)
    .where((eb) => eb("m.id", "=", eb.fn.any(bigintArray(ids))))
    .execute();
}

/** Marks the viewer's conversation read up to `lastId` (or its latest message); answers the id now stored. */
export async function markRead(em: EntityManager, viewer: string, peer: string, lastId: bigint): Promise<bigint> {
  const q = db(em);
  let upTo = lastId;
  if (upTo === 0n) {
    const latest = await q
      .selectFrom("chat_message")
      .select((eb) => eb.cast<string | null>(eb.fn.max("id"), "text").as("id"))
      .where("pair_key", "=", pairKey(viewer, peer))
      .executeTakeFirst();
    upTo = BigInt(latest?.id ?? 0);
  }
  const row = await q
    .insertInto("chat_read")
    .values({ user_uuid: viewer, peer_uuid: peer, last_read_id: sql<number>`${String(upTo)}::bigint` })
    .onConflict((oc) =>
      oc.columns(["user_uuid", "peer_uuid"]).doUpdateSet((eb) => ({
        last_read_id: eb.fn<number>("greatest", [eb.ref("chat_read.last_read_id"), eb.ref("excluded.last_read_id")]),
      })),
    )
    .returning((eb) => eb.cast<string>("last_read_id", "text").as("last_read_id"))
    .executeTakeFirstOrThrow();
  return BigInt(row.last_read_id);
}
