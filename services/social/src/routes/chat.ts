// ChatService (proto/tt/social/v1/chat_service.proto): room and direct messages. Each write commits before it is
// announced (publish.ts) and answered, so an acknowledged message is never lost.
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import { toJson } from "@bufbuild/protobuf";
import { detectImageType } from "@tt/image-type";
import { callEm, callIdentity, checkLimit, enforceThrottles, isUuid, type Identity, type ThrottleCheck } from "@tt/kit";
import { loadChatLimits, type ChatLimits } from "../config.ts";
import {
  type ChatMessage,
  ChatMusicInfoSchema,
  ChatGifSchema,
  ChatPlaylistPreviewSchema,
  ChatReplySchema,
} from "@tt/proto/tt/social/v1/chat_pb";
import type { ChatMessageInput, ChatService } from "@tt/proto/tt/social/v1/chat_service_pb";
import type { Logger } from "pino";
import {
  addReport,
  blockedEitherWay,
  conversations,
  deleteMessage,
  directHistory,
  findByUuid,
  findManyById,
  insertMessage,
  isLatestOfSender,
  markRead,
  type MessageRow,
  roomChange,
  roomHistory,
  roomReports,
  roomSequence,
  toChatMessage,
  toggleReaction,
  updateText,
} from "../modules/chat/chat-store.ts";
import type { ChatContent } from "../modules/chat/entities.ts";
import { crateLinkIn, musicLinksIn } from "../modules/chat/links.ts";
import type { ChatPublisher } from "../modules/chat/publish.ts";
import type { ChatRelations, RoomStanding } from "../modules/chat/relations.ts";

/** 002 §9: history cap and edit window. */
export const HISTORY_CAP = 300;
export const EDIT_WINDOW_MS = 20_000;
const MAX_IMAGE_URLS = 4;
const REPLY_EXCERPT = 300;
const MEDIA_OF = { png: "image/png", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp" } as const;

export interface ChatRouteContext {
  relations: ChatRelations;
  publisher: ChatPublisher;
  logger: Logger;
  /** The edit window (002 §9: 20 s); tests shorten it. */
  editWindowMs?: number;
  /**
   * Refuses a caller who may not enter the room (the stage's admission: a private room's chat only to those admitted to
   * its stage, banned and kicked users never); absent, every room is open (route tests without a stage).
   */
  admit?: RoomAdmission;
  /**
   * Our web app's origins (SOCIAL_WEB_ORIGINS, as URL.origin spells them): a link to `<origin>/crates/<uuid>` becomes
   * the message's playlist preview. Empty or absent: a crate path on any origin counts.
   */
  webOrigins?: readonly string[];
  /** Per-user limits (issue 23); absent, the defaults of SOCIAL_*_PER_WINDOW (config.ts). */
  limits?: ChatLimits;
}

/** Throws the admission's refusal (403 with the room service's reason, 503 for a private room it cannot vouch for). */
export type RoomAdmission = (
  roomUuid: string,
  caller: { user?: string; guest?: string },
  signal: AbortSignal,
) => Promise<void>;

const PLATFORM_MODERATORS = new Set(["globalModerator", "staff", "superUser", "admin"]);

function bad(message: string): ConnectError {
  return new ConnectError(message, Code.InvalidArgument);
}
function forbidden(message: string): ConnectError {
  return new ConnectError(message, Code.PermissionDenied);
}
function notFound(message = "message not found"): ConnectError {
  return new ConnectError(message, Code.NotFound);
}

/** The caller's account uuid (user and bot tokens; the access option lets nobody else write). */
const TOO_MANY_MESSAGES = "too many messages, try again later";

function me(ctx: HandlerContext): { id: string; identity: Identity } {
  const identity = callIdentity(ctx);
  if (!isUuid(identity.subject)) throw new ConnectError("Unauthorized", Code.Unauthenticated);
  return { id: identity.subject.toLowerCase(), identity };
}

/** The reader's uuid, or undefined for a guest. */
function viewerOf(ctx: HandlerContext): string | undefined {
  const identity = callIdentity(ctx);
  return identity.tokenType === "guest" || !isUuid(identity.subject) ? undefined : identity.subject.toLowerCase();
}

/** 002 §5 validity, and what the message stores. Song cards and replies are added by the caller. */
function checkInput(input: ChatMessageInput | undefined): {
  text: string;
  plain: boolean;
  content: ChatContent;
} {
  if (!input) throw bad("message missing in request");
  const text = input.message;
  if (input.imageUrls.length > MAX_IMAGE_URLS) throw bad(`imageUrls must hold at most ${MAX_IMAGE_URLS} URLs`);
  const hasImage = input.imageBase64 !== "" || input.imageUrls.length > 0;
  const structured = input.structured.case !== undefined;
  if (text.trim() === "" && !structured && !(hasImage && input.media !== "")) {
    throw bad("a message needs text, or an image and its media type");
  }
  if (hasImage && input.media === "") throw bad("media missing in request");
  if (input.imageBase64 !== "") {
    const type = detectImageType(Buffer.from(input.imageBase64.slice(0, 64), "base64"));
    if (!type || MEDIA_OF[type] !== input.media) throw bad("imageBase64 is not an image of the given media type");
  }
  const content: ChatContent = {};
  if (input.imageBase64 !== "") content.imageBase64 = input.imageBase64;
  if (input.imageUrls.length > 0) content.imageUrls = [...input.imageUrls];
  if (hasImage) content.media = input.media;
  if (input.structured.case === "musicInfo") {
    const v = input.structured.value;
    content.musicInfo = toJson(ChatMusicInfoSchema, {
      $typeName: "tt.social.v1.ChatMusicInfo",
      providersUrls: v.providersUrls,
      type: "ChatMusicInfo",
      trackInfo: v.trackInfo && {
        ...v.trackInfo,
        $typeName: "tt.social.v1.ChatTrackInfo",
        user: v.trackInfo.user && { ...v.trackInfo.user, $typeName: "tt.social.v1.ChatTrackUser" },
      },
    });
  } else if (input.structured.case === "gif") {
    content.gif = toJson(ChatGifSchema, {
      ...input.structured.value,
      $typeName: "tt.social.v1.ChatGif",
      type: "ChatGif",
    });
  }
  return { text, plain: !hasImage && !structured, content };
}

export function chatRoutes(svc: ChatRouteContext): ServiceImpl<typeof ChatService> {
  const editWindowMs = svc.editWindowMs ?? EDIT_WINDOW_MS;
  const { relations, publisher } = svc;
  const limits = svc.limits ?? loadChatLimits({});

  /** Counts one call of the user against each rule named (config.ts); 429 with retry-after over any of them. */
  async function throttle(
    ctx: HandlerContext,
    userId: string,
    kinds: readonly ("ROOM_MESSAGES" | "DIRECT_MESSAGES" | "STRANGER_MESSAGES" | "REACTIONS" | "REPORTS")[],
    message: string,
  ): Promise<void> {
    const checks: ThrottleCheck[] = kinds.map((kind) => ({
      rule: {
        action: `chat-${kind.toLowerCase().replace("_", "-")}`,
        limit: limits[`SOCIAL_${kind}_PER_WINDOW`],
        windowSeconds: limits[`SOCIAL_${kind}_WINDOW_SECONDS`],
      },
      subject: `user:${userId}`,
    }));
    await enforceThrottles(callEm(ctx), checks, message);
  }

  /** The caller's standing in a room, refusing those who may not write. */
  async function writer(ctx: HandlerContext, roomUuid: string, who: { id: string; identity: Identity }) {
    await svc.admit?.(roomUuid, { user: who.id }, ctx.signal);
    const standing = await relations.standing(roomUuid, who.id, who.identity.role, ctx.signal);
    if (standing.refusal) throw forbidden(standing.refusal);
    return standing;
  }

  /** Song cards for the music links of a text (each resolved by the playlist service). */
  async function songCards(text: string, signal: AbortSignal): Promise<unknown[]> {
    const links = musicLinksIn(text);
    const songs = await Promise.all(links.map((l) => relations.songByLink(l.href, signal)));
    const cards: unknown[] = [];
    songs.forEach((song, i) => {
      if (!song) return;
      const provider = Object.keys(song.musicProviders)[0] ?? "";
      cards.push(
        toJson(ChatMusicInfoSchema, {
          $typeName: "tt.social.v1.ChatMusicInfo",
          providersUrls: {
            ...song.links,
            ...(provider && !song.links[provider] ? { [provider]: links[i]!.href } : {}),
          },
          type: "ChatMusicInfo",
          trackInfo: {
            $typeName: "tt.social.v1.ChatTrackInfo",
            duration: song.duration,
            genre: song.genre,
            id: song.songId,
            musicProvider: provider,
            title: song.trackName,
            user: { $typeName: "tt.social.v1.ChatTrackUser", id: song.artistShortId, name: song.artistName },
            isrc: song.isrc,
            previews: song.previews,
            artwork: Object.values(song.thumbnails)[0] ?? "",
          },
        }),
      );
    });
    return cards;
  }

  /** The playlist preview of the first crate link of a text (002 §3, §5), with its owner's name; or undefined. */
  async function playlistPreview(text: string, signal: AbortSignal): Promise<unknown> {
    const crateUuid = crateLinkIn(text, svc.webOrigins ?? []);
    if (!crateUuid) return undefined;
    const preview = await relations.cratePreview(crateUuid, signal);
    if (!preview) return undefined;
    const owner = await relations.profile(preview.userUuid, signal).catch(() => undefined);
    return toJson(ChatPlaylistPreviewSchema, {
      $typeName: "tt.social.v1.ChatPlaylistPreview",
      crateName: preview.crateName,
      crateUuid: preview.crateUuid,
      provider: preview.provider,
      thumbnails: preview.thumbnails,
      // Per reader: set when the message is answered (toChatMessage), never stored.
      isCurrentUserPlaylist: false,
      userUuid: preview.userUuid,
      totalSongs: preview.totalSongs,
      userName: owner?.nickname ?? "",
      songs: preview.songs.map((song) => ({
        $typeName: "tt.social.v1.ChatPlaylistSong" as const,
        title: song.trackName,
        artist: song.artistName,
        artwork: song.artwork,
      })),
    });
  }

  /** The snapshot of the message a reply answers; it must be of the same conversation. */
  async function replyTo(
    ctx: HandlerContext,
    uuid: string,
    conversation: { roomUuid?: string; pair?: [string, string] },
  ): Promise<unknown[]> {
    if (uuid === "") return [];
    const parent = await findByUuid(callEm(ctx), uuid.toLowerCase());
    const same =
      parent &&
      (conversation.roomUuid
        ? parent.room_uuid === conversation.roomUuid
        : parent.pair_key !== null &&
          conversation.pair !== undefined &&
          [parent.sender_uuid, parent.receiver_uuid].every((u) => conversation.pair!.includes(u ?? "")));
    if (!parent || !same) throw notFound("the message replied to was not found");
    return [
      toJson(ChatReplySchema, {
        $typeName: "tt.social.v1.ChatReply",
        uuid: parent.uuid,
        id: BigInt(parent.id),
        userUuid: parent.sender_uuid ?? "",
        userName: parent.content.userName ?? "",
        message: parent.text.slice(0, REPLY_EXCERPT),
      }),
    ];
  }

  /** The sender's name, avatar, colour and badges (002 §5: a user's message carries them). */
  async function author(ctx: HandlerContext, userUuid: string, roomBadges: string[]): Promise<ChatContent> {
    const profile = await relations.profile(userUuid, ctx.signal);
    if (!profile) throw new ConnectError("user profile not found", Code.NotFound);
    const userName = profile.nickname || "user";
    return {
      userName,
      avatarId: profile.avatarId || "default",
      color: profile.color,
      badges: [...new Set([...roomBadges, ...profile.badges])],
    };
  }

  /** A message the caller may see and act on: a room message, or a direct message they are part of. */
  async function visible(ctx: HandlerContext, uuid: string, caller: string): Promise<MessageRow> {
    const row = await findByUuid(callEm(ctx), uuid.toLowerCase());
    if (!row) throw notFound();
    if (!row.room_uuid && row.sender_uuid !== caller && row.receiver_uuid !== caller) throw notFound();
    if (row.room_uuid) await svc.admit?.(row.room_uuid, { user: caller }, ctx.signal);
    return row;
  }

  /** Announces a changed message where its readers listen (a room's change with its chat sequence). */
  async function announce(
    row: MessageRow,
    kind: "created" | "edited" | "reactionsChanged",
    sequence: bigint,
  ): Promise<void> {
    const value = toChatMessage(row);
    if (row.room_uuid) await publisher.toRoom(row.room_uuid, { sequence, kind: { case: kind, value } });
    else
      await publisher.toUsers([row.sender_uuid ?? "", row.receiver_uuid ?? ""].filter(Boolean), {
        kind: { case: kind, value },
      });
  }

  async function moderatorOf(ctx: HandlerContext, roomUuid: string, viewer: string | undefined, role: string) {
    if (!viewer) return false;
    if (PLATFORM_MODERATORS.has(role)) return true;
    return (await relations.standing(roomUuid, viewer, role, ctx.signal)).moderator;
  }

  /** A send whose uuid is already stored: the same message again, or a 409. */
  function sameSend(row: MessageRow, sender: string, conversation: { roomUuid?: string; receiver?: string }) {
    const same =
      row.sender_uuid === sender &&
      (conversation.roomUuid ? row.room_uuid === conversation.roomUuid : row.receiver_uuid === conversation.receiver);
    if (!same) throw new ConnectError("message uuid already used", Code.AlreadyExists);
  }

  /**
   * A user's message, room or direct, as both sends build it. A uuid already stored answers that message (a retried
   * send; another sender's or conversation's is a 409). Otherwise `admitNew` runs (the direct message's checks), then
   * the content is built — the author's name, avatar, colour and badges, the message it replies to, song cards and the
   * playlist preview of its links — stored and announced. Answers the stored row.
   */
  async function composeMessage(
    ctx: HandlerContext,
    who: { id: string },
    input: ReturnType<typeof checkInput>,
    message: ChatMessageInput,
    conversation: { roomUuid: string; badges: string[] } | { receiver: string },
    admitNew?: () => Promise<void>,
  ): Promise<MessageRow> {
    const room = "roomUuid" in conversation ? conversation : undefined;
    const receiver = "receiver" in conversation ? conversation.receiver : undefined;
    const existing = await findByUuid(callEm(ctx), message.uuid.toLowerCase());
    if (existing) {
      sameSend(existing, who.id, room ? { roomUuid: room.roomUuid } : { receiver });
      return existing;
    }
    await admitNew?.();
    const [authorContent, replies, songs, playlist] = await Promise.all([
      author(ctx, who.id, room?.badges ?? []),
      replyTo(ctx, message.replyTo, room ? { roomUuid: room.roomUuid } : { pair: [who.id, receiver!] }),
      songCards(input.text, ctx.signal),
      playlistPreview(input.text, ctx.signal),
    ]);
    const content: ChatContent = { ...authorContent, ...input.content };
    if (replies.length > 0) content.replies = replies;
    if (songs.length > 0) content.songs = songs;
    if (playlist !== undefined) content.playlist = playlist;
    const { row, created, sequence } = await insertMessage(callEm(ctx), {
      uuid: message.uuid.toLowerCase(),
      ...(room ? { roomUuid: room.roomUuid } : { receiverUuid: receiver }),
      senderUuid: who.id,
      type: "user",
      text: input.text,
      plain: input.plain && songs.length === 0 && playlist === undefined,
      content,
    });
    if (!created) sameSend(row, who.id, room ? { roomUuid: room.roomUuid } : { receiver });
    await announce(row, "created", sequence);
    return row;
  }

  return {
    async sendRoomMessage(req, ctx) {
      const who = me(ctx);
      const input = checkInput(req.message);
      await throttle(ctx, who.id, ["ROOM_MESSAGES"], TOO_MANY_MESSAGES);
      const room = await relations.room(req.room, ctx.signal);
      const standing: RoomStanding = await writer(ctx, room.uuid, who);
      const row = await composeMessage(ctx, who, input, req.message!, { roomUuid: room.uuid, badges: standing.badges });
      return { message: toChatMessage(row, { moderator: standing.moderator, viewer: who.id }) };
    },

    async listRoomMessages(req, ctx) {
      const limit = checkLimit(req.limit, HISTORY_CAP, HISTORY_CAP);
      const room = await relations.room(req.room, ctx.signal);
      const viewer = viewerOf(ctx);
      await svc.admit?.(room.uuid, viewer ? { user: viewer } : { guest: callIdentity(ctx).subject }, ctx.signal);
      const moderator = await moderatorOf(ctx, room.uuid, viewer, callIdentity(ctx).role).catch(() => false);
      // The sequence first: the messages read after it hold every change up to it (and maybe later ones).
      const chatSequence = await roomSequence(callEm(ctx), room.uuid);
      const rows = await roomHistory(callEm(ctx), room.uuid, viewer, limit, req.beforeId);
      return { messages: rows.map((r) => toChatMessage(r, { moderator, viewer })), roomUuid: room.uuid, chatSequence };
    },

    async listRoomReports(req, ctx) {
      const who = me(ctx);
      const room = await relations.room(req.room, ctx.signal);
      if (!(await moderatorOf(ctx, room.uuid, who.id, who.identity.role))) {
        throw forbidden("only moderators can see reports");
      }
      const limit = checkLimit(req.limit, 20, 100);
      const { rows, reports, total } = await roomReports(callEm(ctx), room.uuid, limit, req.offset);
      return {
        total,
        messages: rows.map((r) => ({
          message: toChatMessage(r, { moderator: true, viewer: who.id }),
          reports: reports
            .filter((rp) => String(rp.message_id) === String(r.id))
            .map((rp) => ({
              reporterUuid: rp.reporter_uuid,
              reason: rp.reason,
              createdAt: { seconds: BigInt(Math.floor(new Date(rp.created_at).getTime() / 1000)), nanos: 0 },
            })),
        })),
      };
    },

    async editMessage(req, ctx) {
      const who = me(ctx);
      const em = callEm(ctx);
      const row = await visible(ctx, req.uuid, who.id);
      const refusal = forbidden("only your latest plain-text message can be edited within 20 seconds");
      if (row.sender_uuid !== who.id || !row.plain) throw refusal;
      if (Date.now() - new Date(row.created_at).getTime() > editWindowMs) throw refusal;
      if (!(await isLatestOfSender(em, row))) throw refusal;
      if (req.message.trim() === "") throw bad("message missing in request");
      if (row.room_uuid) await writer(ctx, row.room_uuid, who);
      const { sequence } = await roomChange(em, row.room_uuid, (tx) => updateText(tx, row.id, req.message));
      const updated = (await findByUuid(em, row.uuid))!;
      await announce(updated, "edited", sequence);
      return { message: toChatMessage(updated, { viewer: who.id }) };
    },

    async toggleReaction(req, ctx) {
      const who = me(ctx);
      const em = callEm(ctx);
      await throttle(ctx, who.id, ["REACTIONS"], "too many reactions, try again later");
      const row = await visible(ctx, req.uuid, who.id);
      if (row.room_uuid) await writer(ctx, row.room_uuid, who);
      const profile = await relations.profile(who.id, ctx.signal);
      const { result: added, sequence } = await roomChange(em, row.room_uuid, (tx) =>
        toggleReaction(tx, row.id, req.emoji, who.id, profile?.nickname ?? ""),
      );
      const updated = (await findByUuid(em, row.uuid))!;
      await announce(updated, "reactionsChanged", sequence);
      return { message: toChatMessage(updated, { viewer: who.id }), added };
    },

    async reportMessage(req, ctx) {
      const who = me(ctx);
      await throttle(ctx, who.id, ["REPORTS"], "too many reports, try again later");
      const row = await visible(ctx, req.uuid, who.id);
      if (row.sender_uuid === who.id) throw bad("you cannot report your own message");
      await addReport(callEm(ctx), row.id, who.id, req.reason);
      await publisher.toUsers([who.id], {
        kind: {
          case: "reportedHidden",
          value: {
            uuid: row.uuid,
            reportIdentifier: row.uuid,
            roomUuid: row.room_uuid ?? "",
            receiverUuid: row.receiver_uuid ?? "",
          },
        },
      });
      return { reportIdentifier: row.uuid };
    },

    async deleteMessage(req, ctx) {
      const who = me(ctx);
      const row = await visible(ctx, req.uuid, who.id);
      const own = row.sender_uuid === who.id;
      if (!own) {
        if (!row.room_uuid || !(await moderatorOf(ctx, row.room_uuid, who.id, who.identity.role))) {
          throw forbidden("only moderators can delete messages");
        }
      }
      const { sequence } = await deleteMessage(callEm(ctx), row.id, row.room_uuid);
      const value = {
        uuid: row.uuid,
        id: BigInt(row.id),
        roomUuid: row.room_uuid ?? "",
        receiverUuid: row.receiver_uuid ?? "",
        userUuid: row.sender_uuid ?? "",
        deletedBy: who.id,
      };
      if (row.room_uuid) await publisher.toRoom(row.room_uuid, { sequence, kind: { case: "deleted", value } });
      else
        await publisher.toUsers([row.sender_uuid ?? "", row.receiver_uuid ?? ""].filter(Boolean), {
          kind: { case: "deleted", value },
        });
      return {};
    },

    async sendDirectMessage(req, ctx) {
      const who = me(ctx);
      const peer = req.user.toLowerCase();
      if (peer === who.id) throw bad("you cannot message yourself");
      const input = checkInput(req.message);
      // Stricter to strangers (issue 23): a flood of unread messages lands on someone who never agreed to it. When
      // the room service cannot say who the friends are, the peer counts as a stranger.
      const friends = await relations.mutualFriends(who.id, ctx.signal);
      const stranger = !friends?.has(peer);
      await throttle(
        ctx,
        who.id,
        stranger ? ["DIRECT_MESSAGES", "STRANGER_MESSAGES"] : ["DIRECT_MESSAGES"],
        TOO_MANY_MESSAGES,
      );
      const row = await composeMessage(ctx, who, input, req.message!, { receiver: peer }, async () => {
        if (!(await relations.profile(peer, ctx.signal))) throw notFound("user not found");
        if (await blockedEitherWay(callEm(ctx), who.id, peer)) throw forbidden("you cannot message this user");
      });
      return { message: toChatMessage(row, { viewer: who.id }) };
    },

    async listDirectMessages(req, ctx) {
      const who = me(ctx);
      const limit = checkLimit(req.limit, HISTORY_CAP, HISTORY_CAP);
      const rows = await directHistory(callEm(ctx), who.id, req.user.toLowerCase(), limit, req.beforeId);
      return { messages: rows.map((r) => toChatMessage(r, { viewer: who.id })) };
    },

    async listConversations(req, ctx) {
      const who = me(ctx);
      const em = callEm(ctx);
      const convs = await conversations(em, who.id);
      const [lasts, friends, profiles] = await Promise.all([
        findManyById(
          em,
          convs.map((c) => c.last_id),
        ),
        relations.friends(who.id, ctx.signal),
        relations
          .profiles(
            convs.map((c) => c.peer),
            ctx.signal,
          )
          .catch(() => new Map()),
      ]);
      const byId = new Map(lasts.map((r) => [String(r.id), r]));
      const unread: Record<string, number> = { FRIENDS: 0, OTHERS: 0, UNSET: 0 };
      const list = convs.map((c) => {
        const group = friends === undefined ? "UNSET" : friends.has(c.peer) ? "FRIENDS" : "OTHERS";
        unread[group]! += c.unread;
        const profile = profiles.get(c.peer);
        const last = byId.get(c.last_id);
        return {
          peerUuid: c.peer,
          peerName: profile?.nickname ?? "",
          peerAvatarId: profile?.avatarId ?? "",
          group,
          unreadCount: c.unread,
          lastMessage: last ? toChatMessage(last, { viewer: who.id }) : undefined,
        };
      });
      return { conversations: req.group ? list.filter((c) => c.group === req.group) : list, unread };
    },

    async markConversationRead(req, ctx) {
      const who = me(ctx);
      const peer = req.user.toLowerCase();
      const lastReadId = await markRead(callEm(ctx), who.id, peer, req.lastReadId);
      await publisher.toUsers([who.id], { kind: { case: "read", value: { peerUuid: peer, lastReadId } } });
      return { lastReadId };
    },
  };
}

export type { ChatMessage };
