// The live room's chat panel (issue 14; spec 002 §2 chat view with tabs and unread counters, §3–§5): the room's
// messages (history on mount, then the join stream's ChatEvents that the room page hands over as `feed`), sending
// with a retry button when a send fails, reactions, replies, editing, reports and moderator deletes; direct
// messages in tabs FRIENDS and OTHERS with unread counters. Guests read the room chat only.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { ChatEvent, ChatMessage, ChatPlaylistPreview } from "@tt/proto/tt/social/v1/chat_pb";
import { ChatService, type ChatMessageInput, type Conversation } from "@tt/proto/tt/social/v1/chat_service_pb";
import { useAppTranslation, useErrorText } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import type { ChatFeed } from "../chat-feed.ts";
import {
  applyRoomEvent,
  conversationOf,
  isEditable,
  mergeHistory,
  remove,
  setStatus,
  upsert,
  visibleItems,
  type ChatItem,
} from "./chat-state.ts";
import { CHAT_NAMESPACE, chatTranslations } from "./locales.ts";

export interface ChatPanelProps {
  /** The room's uuid or slug. */
  room: string;
  /** The join stream's chat events. */
  feed: ChatFeed;
  /** Signed in and allowed to chat (guests and chat-disabled users read only). */
  canSend: boolean;
  userUuid: string | undefined;
  isModerator: boolean;
}

/** The quick reactions offered on every message. */
export const QUICK_REACTIONS = ["👍", "🔥", "❤️", "😂"] as const;

type Tab = "room" | "FRIENDS" | "OTHERS";

export const chatKeys = {
  room: (room: string) => ["rooms", "live", "chat", "room", room] as const,
  conversations: ["rooms", "live", "chat", "conversations"] as const,
  direct: (peer: string) => ["rooms", "live", "chat", "direct", peer] as const,
};

const uuid = () => crypto.randomUUID();

/** A message of ours shown at once, before the server answered. */
function draft(input: ChatMessageInput & { uuid: string }, me: string, extra: Partial<ChatMessage>): ChatMessage {
  return {
    $typeName: "tt.social.v1.ChatMessage",
    message: input.message,
    structured: { case: undefined },
    uuid: input.uuid,
    id: 0n,
    userName: "",
    avatarId: "",
    color: "",
    userUuid: me,
    reportIdentifier: input.uuid,
    replies: [],
    reactions: {},
    badges: [],
    imageBase64: "",
    imageUrls: [],
    media: "",
    songs: [],
    type: "user",
    roomUuid: "",
    receiverUuid: "",
    reportCount: 0,
    ...extra,
  };
}

/** Where the crates app shows a crate (the shell mounts it at /crates). */
export const crateHref = (crateUuid: string) => `/crates/${encodeURIComponent(crateUuid)}`;

/**
 * A playlist preview (002 §3): a crate link the server resolved. Its name, owner and song count, its first songs; it
 * opens the crate in the crates app in a new tab, so the room keeps playing. A live event does not know its reader, so
 * "yours" is also decided here from the owner's uuid.
 */
function PlaylistCard({ playlist, me }: { playlist: ChatPlaylistPreview; me: string | undefined }) {
  const { t } = useAppTranslation(CHAT_NAMESPACE, chatTranslations);
  const yours = playlist.isCurrentUserPlaylist || (me !== undefined && playlist.userUuid === me);
  const owner = yours ? t("playlistYours") : t("playlistBy", { name: playlist.userName || t("someone") });
  const thumbnail = playlist.thumbnails[0];
  return (
    <a
      className="tt-chat-playlist"
      data-testid="chat-playlist"
      href={crateHref(playlist.crateUuid)}
      target="_blank"
      rel="noopener"
      aria-label={t("playlistOpen", { name: playlist.crateName })}
    >
      {thumbnail ? <img className="tt-chat-playlist-art" src={thumbnail} alt="" /> : null}
      <span className="tt-chat-playlist-body">
        <strong>{playlist.crateName}</strong>
        <small className="tt-muted">
          {owner} · {t("playlistSongs", { count: playlist.totalSongs })}
        </small>
        {playlist.songs.length > 0 ? (
          <ol className="tt-chat-playlist-songs">
            {playlist.songs.map((song, i) => (
              <li key={i}>{t("song", { title: song.title, artist: song.artist })}</li>
            ))}
          </ol>
        ) : null}
      </span>
    </a>
  );
}

/** A list of messages with the composer: the room's, or one direct conversation. */
function MessageList({
  items,
  me,
  canSend,
  isModerator,
  label,
  onSend,
  onRetry,
  onReact,
  onEdit,
  onReport,
  onDelete,
}: {
  items: ChatItem[];
  me: string | undefined;
  canSend: boolean;
  isModerator: boolean;
  label: string;
  onSend(text: string, replyTo?: ChatMessage): void;
  onRetry(item: ChatItem): void;
  onReact(item: ChatItem, emoji: string): void;
  onEdit(item: ChatItem, text: string): Promise<void>;
  onReport(item: ChatItem): void;
  onDelete(item: ChatItem): void;
}) {
  const { t } = useAppTranslation(CHAT_NAMESPACE, chatTranslations);
  const [text, setText] = useState("");
  const [replyTo, setReplyTo] = useState<ChatMessage | undefined>();
  const [editing, setEditing] = useState<ChatItem | undefined>();
  // Editability ends 20 s after a send: re-render now and then so the button goes away.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 2000);
    return () => clearInterval(timer);
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = text.trim();
    if (value === "") return;
    if (editing) {
      void onEdit(editing, value).then(() => setEditing(undefined));
    } else {
      onSend(value, replyTo);
      setReplyTo(undefined);
    }
    setText("");
  };

  return (
    <div className="tt-chat-conversation">
      {items.length === 0 ? <p className="tt-muted">{t("empty")}</p> : null}
      <ol className="tt-chat-messages" aria-label={label}>
        {items.map((item) => {
          const m = item.message;
          const own = me !== undefined && m.userUuid === me;
          const name = m.userName || t("someone");
          return (
            <li key={m.uuid} data-testid="chat-message" data-uuid={m.uuid} aria-label={name}>
              {m.consumable ? (
                <p className="tt-chat-consumable">{t("bought", { name, item: m.consumable.name })}</p>
              ) : (
                <>
                  <strong style={m.color ? { color: m.color } : undefined}>{name}</strong>{" "}
                  {m.replies[0] ? (
                    <blockquote className="tt-chat-reply">
                      {m.replies[0].userName}: {m.replies[0].message}
                    </blockquote>
                  ) : null}
                  <span className="tt-chat-text">{m.message}</span>
                  {m.editedAt ? <small className="tt-muted"> ({t("edited")})</small> : null}
                  {m.structured.case === "musicInfo" && m.structured.value.trackInfo ? (
                    <p className="tt-chat-song">
                      {t("song", {
                        title: m.structured.value.trackInfo.title,
                        artist: m.structured.value.trackInfo.user?.name ?? "",
                      })}
                    </p>
                  ) : null}
                  {m.structured.case === "gif" ? <img src={m.structured.value.url} alt={t("gif")} /> : null}
                  {m.songs.map((s, i) => (
                    <p key={i} className="tt-chat-song">
                      {t("song", { title: s.trackInfo?.title ?? "", artist: s.trackInfo?.user?.name ?? "" })}
                    </p>
                  ))}
                  {m.playlist ? <PlaylistCard playlist={m.playlist} me={me} /> : null}
                  {m.imageBase64 ? <img src={`data:${m.media};base64,${m.imageBase64}`} alt={t("image")} /> : null}
                  {m.imageUrls.map((u) => (
                    <img key={u} src={u} alt={t("image")} />
                  ))}
                </>
              )}
              {isModerator && m.reportCount > 0 ? (
                <small className="tt-chat-reports"> {t("reports", { count: m.reportCount })}</small>
              ) : null}
              <div className="tt-chat-reactions">
                {Object.entries(m.reactions).map(([emoji, list]) => (
                  <button
                    key={emoji}
                    type="button"
                    aria-pressed={list.users.some((u) => u.userUuid === me)}
                    aria-label={t("react", { emoji })}
                    disabled={!canSend || item.status !== "sent"}
                    onClick={() => onReact(item, emoji)}
                  >
                    {t("reactionCount", { emoji, count: list.users.length })}
                  </button>
                ))}
              </div>
              {item.status === "sending" ? <small className="tt-muted">{t("sending")}</small> : null}
              {item.status === "failed" ? (
                <span role="alert" className="tt-chat-failed">
                  {t("notSent")}
                  {item.error ? `: ${item.error}` : ""}{" "}
                  <button type="button" onClick={() => onRetry(item)}>
                    {t("retry")}
                  </button>
                </span>
              ) : null}
              {canSend && item.status === "sent" ? (
                <div className="tt-chat-actions">
                  {QUICK_REACTIONS.filter((e) => !m.reactions[e]).map((emoji) => (
                    <button
                      key={emoji}
                      type="button"
                      aria-label={t("react", { emoji })}
                      onClick={() => onReact(item, emoji)}
                    >
                      {emoji}
                    </button>
                  ))}
                  <button type="button" onClick={() => setReplyTo(m)}>
                    {t("reply")}
                  </button>
                  {isEditable(items, item, me, now) ? (
                    <button
                      type="button"
                      onClick={() => {
                        setEditing(item);
                        setText(m.message);
                      }}
                    >
                      {t("edit")}
                    </button>
                  ) : null}
                  {!own && m.type === "user" ? (
                    <button type="button" onClick={() => onReport(item)}>
                      {t("report")}
                    </button>
                  ) : null}
                  {own || (isModerator && m.roomUuid) ? (
                    <button type="button" onClick={() => onDelete(item)}>
                      {t("delete")}
                    </button>
                  ) : null}
                </div>
              ) : null}
            </li>
          );
        })}
      </ol>
      {canSend ? (
        <form className="tt-chat-composer" onSubmit={submit}>
          {replyTo ? (
            <p className="tt-muted">
              {t("replyingTo", { name: replyTo.userName || t("someone") })}{" "}
              <button type="button" onClick={() => setReplyTo(undefined)}>
                {t("cancel")}
              </button>
            </p>
          ) : null}
          <input
            aria-label={t("placeholder")}
            placeholder={t("placeholder")}
            value={text}
            maxLength={2000}
            onChange={(e) => setText(e.target.value)}
          />
          <button type="submit">{editing ? t("save") : t("send")}</button>
          {editing ? (
            <button
              type="button"
              onClick={() => {
                setEditing(undefined);
                setText("");
              }}
            >
              {t("cancel")}
            </button>
          ) : null}
        </form>
      ) : (
        <p className="tt-muted">{t("guest")}</p>
      )}
    </div>
  );
}

/** The actions every list shares, bound to one conversation's state. */
function useActions(
  setItems: (update: (items: ChatItem[]) => ChatItem[]) => void,
  hide: (reportIdentifier: string) => void,
  send: (input: ChatMessageInput & { uuid: string }) => Promise<ChatMessage | undefined>,
  makeDraft: (input: ChatMessageInput & { uuid: string }) => ChatMessage,
  me: string | undefined,
) {
  const client = useClient(ChatService);
  const errorText = useErrorText();
  const attempt = useCallback(
    (input: ChatMessageInput & { uuid: string }) => {
      setItems((items) => setStatus(items, input.uuid, "sending"));
      send(input).then(
        (message) => message && setItems((items) => upsert(items, message)),
        (err: unknown) => setItems((items) => setStatus(items, input.uuid, "failed", errorText(err))),
      );
    },
    [send, setItems, errorText],
  );
  const inputs = useRef(new Map<string, ChatMessageInput & { uuid: string }>());
  return {
    onSend(text: string, replyTo?: ChatMessage) {
      if (!me) return;
      const input = {
        $typeName: "tt.social.v1.ChatMessageInput",
        uuid: uuid(),
        message: text,
        structured: { case: undefined },
        imageBase64: "",
        imageUrls: [],
        media: "",
        replyTo: replyTo?.uuid ?? "",
      } as ChatMessageInput & { uuid: string };
      inputs.current.set(input.uuid, input);
      const replies = replyTo
        ? [
            {
              $typeName: "tt.social.v1.ChatReply" as const,
              uuid: replyTo.uuid,
              id: replyTo.id,
              userUuid: replyTo.userUuid,
              userName: replyTo.userName,
              message: replyTo.message,
            },
          ]
        : [];
      setItems((items) => [...items, { message: { ...makeDraft(input), replies }, status: "sending" }]);
      attempt(input);
    },
    onRetry(item: ChatItem) {
      const input = inputs.current.get(item.message.uuid);
      if (input) attempt(input); // the same uuid: the server stores it once however often it is retried
    },
    onReact(item: ChatItem, emoji: string) {
      void client.toggleReaction({ uuid: item.message.uuid, emoji }).then(
        (res) => res.message && setItems((items) => upsert(items, res.message!)),
        () => undefined,
      );
    },
    async onEdit(item: ChatItem, text: string) {
      const res = await client.editMessage({ uuid: item.message.uuid, message: text }).catch(() => undefined);
      if (res?.message) setItems((items) => upsert(items, res.message!));
    },
    onReport(item: ChatItem) {
      void client.reportMessage({ uuid: item.message.uuid }).then(
        (res) => hide(res.reportIdentifier),
        () => undefined,
      );
    },
    onDelete(item: ChatItem) {
      void client.deleteMessage({ uuid: item.message.uuid }).then(
        () => setItems((items) => remove(items, item.message.uuid)),
        () => undefined,
      );
    },
  };
}

/** The room's conversation. */
function RoomChat({ room, feed, canSend, userUuid, isModerator, events }: ChatPanelProps & { events: EventHub }) {
  const { t } = useAppTranslation(CHAT_NAMESPACE, chatTranslations);
  const client = useClient(ChatService);
  const [items, setItemsState] = useState<ChatItem[]>([]);
  const [reported, setReported] = useState<ReadonlySet<string>>(() => new Set());
  const hide = useCallback((id: string) => setReported((r) => new Set(r).add(id)), []);
  const history = useQuery({
    queryKey: chatKeys.room(room),
    queryFn: () => client.listRoomMessages({ room }),
    refetchOnWindowFocus: false,
  });
  // Each history answer is merged once into what the panel holds (state adjusted while rendering).
  const [merged, setMerged] = useState<unknown>();
  if (history.data && history.data !== merged) {
    setMerged(history.data);
    setItemsState((items) => mergeHistory(items, history.data.messages));
  }
  useEffect(
    () =>
      events.listen((event) => {
        const m =
          event.kind.case === "created" || event.kind.case === "edited" || event.kind.case === "reactionsChanged"
            ? event.kind.value
            : undefined;
        if (m && !m.roomUuid) return; // a direct message: not this list's
        if (event.kind.case === "deleted" && !event.kind.value.roomUuid) return;
        if (event.kind.case === "reportedHidden") hide(event.kind.value.reportIdentifier);
        else setItemsState((items) => applyRoomEvent(items, event));
      }),
    [events, hide],
  );
  void feed;
  const roomUuid = history.data?.roomUuid ?? "";
  const send = useCallback(
    async (input: ChatMessageInput & { uuid: string }) =>
      (await client.sendRoomMessage({ room, message: input })).message,
    [client, room],
  );
  const makeDraft = useCallback(
    (input: ChatMessageInput & { uuid: string }) => draft(input, userUuid ?? "", { roomUuid }),
    [userUuid, roomUuid],
  );
  const actions = useActions(setItemsState, hide, send, makeDraft, userUuid);
  const shown = useMemo(() => visibleItems(items, reported), [items, reported]);
  return (
    <MessageList
      items={shown}
      me={userUuid}
      canSend={canSend}
      isModerator={isModerator}
      label={t("messages")}
      {...actions}
    />
  );
}

/** One direct conversation. */
function DirectChat({ peer, name, me, events }: { peer: string; name: string; me: string; events: EventHub }) {
  const { t } = useAppTranslation(CHAT_NAMESPACE, chatTranslations);
  const client = useClient(ChatService);
  const queryClient = useQueryClient();
  const [items, setItemsState] = useState<ChatItem[]>([]);
  const [reported, setReported] = useState<ReadonlySet<string>>(() => new Set());
  const hide = useCallback((id: string) => setReported((r) => new Set(r).add(id)), []);
  const markRead = useCallback(() => {
    void client.markConversationRead({ user: peer }).then(
      () => queryClient.invalidateQueries({ queryKey: chatKeys.conversations }),
      () => undefined,
    );
  }, [client, peer, queryClient]);
  const history = useQuery({
    queryKey: chatKeys.direct(peer),
    queryFn: async () => {
      const res = await client.listDirectMessages({ user: peer });
      markRead();
      return res;
    },
    refetchOnWindowFocus: false,
  });
  const [merged, setMerged] = useState<unknown>();
  if (history.data && history.data !== merged) {
    setMerged(history.data);
    setItemsState((items) => mergeHistory(items, history.data.messages));
  }
  useEffect(
    () =>
      events.listen((event) => {
        if (event.kind.case === "deleted") {
          const uuidOf = event.kind.value.uuid;
          setItemsState((items) => remove(items, uuidOf));
          return;
        }
        if (event.kind.case === "reportedHidden") {
          hide(event.kind.value.reportIdentifier);
          return;
        }
        if (event.kind.case !== "created" && event.kind.case !== "edited" && event.kind.case !== "reactionsChanged")
          return;
        const m = event.kind.value;
        if (conversationOf(m, me).peer !== peer) return;
        setItemsState((items) => upsert(items, m));
        if (event.kind.case === "created" && m.userUuid === peer) markRead();
      }),
    [events, me, peer, hide, markRead],
  );
  const send = useCallback(
    async (input: ChatMessageInput & { uuid: string }) =>
      (await client.sendDirectMessage({ user: peer, message: input })).message,
    [client, peer],
  );
  const makeDraft = useCallback(
    (input: ChatMessageInput & { uuid: string }) => draft(input, me, { receiverUuid: peer }),
    [me, peer],
  );
  const actions = useActions(setItemsState, hide, send, makeDraft, me);
  const shown = useMemo(() => visibleItems(items, reported), [items, reported]);
  return (
    <MessageList
      items={shown}
      me={me}
      canSend
      isModerator={false}
      label={t("conversationWith", { name })}
      {...actions}
    />
  );
}

/** One feed subscription fanned out to the panel's lists (the room's and an open direct conversation). */
interface EventHub {
  listen(listener: (event: ChatEvent) => void): () => void;
}

export function ChatPanel(props: ChatPanelProps) {
  const { t } = useAppTranslation(CHAT_NAMESPACE, chatTranslations);
  const { feed, userUuid } = props;
  const client = useClient(ChatService);
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<Tab>("room");
  const [open, setOpen] = useState<Conversation | undefined>();
  const signedIn = userUuid !== undefined;

  const hub = useMemo<EventHub & { emit(e: ChatEvent): void }>(() => {
    const listeners = new Set<(event: ChatEvent) => void>();
    return {
      listen(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      emit(event) {
        for (const l of listeners) l(event);
      },
    };
  }, []);
  useEffect(
    () =>
      feed.subscribe((event) => {
        hub.emit(event);
        const m = event.kind.case === "created" ? event.kind.value : undefined;
        if ((m && !m.roomUuid) || event.kind.case === "read") {
          void queryClient.invalidateQueries({ queryKey: chatKeys.conversations });
        }
      }),
    [feed, hub, queryClient],
  );

  const conversations = useQuery({
    queryKey: chatKeys.conversations,
    queryFn: () => client.listConversations({}),
    enabled: signedIn,
    refetchOnWindowFocus: false,
  });
  const unread = conversations.data?.unread ?? {};
  const counts = { FRIENDS: unread.FRIENDS ?? 0, OTHERS: (unread.OTHERS ?? 0) + (unread.UNSET ?? 0) };
  const inTab = (conversations.data?.conversations ?? []).filter((c) =>
    tab === "FRIENDS" ? c.group === "FRIENDS" : c.group !== "FRIENDS",
  );

  const tabButton = (id: Tab, label: string, count?: number) => (
    <button
      key={id}
      type="button"
      role="tab"
      aria-selected={tab === id}
      onClick={() => {
        setTab(id);
        setOpen(undefined);
      }}
    >
      {label}
      {count ? (
        <span className="tt-badge" aria-label={t("unread", { count })}>
          {" "}
          {count}
        </span>
      ) : null}
    </button>
  );

  return (
    <div className="tt-chat">
      {signedIn ? (
        <div role="tablist" aria-label={t("tabs")}>
          {tabButton("room", t("room"))}
          {tabButton("FRIENDS", t("friends"), counts.FRIENDS)}
          {tabButton("OTHERS", t("others"), counts.OTHERS)}
        </div>
      ) : null}
      {tab === "room" ? <RoomChat {...props} events={hub} /> : null}
      {tab !== "room" && signedIn && !open ? (
        inTab.length === 0 ? (
          <p className="tt-muted">{t("noConversations")}</p>
        ) : (
          <ul className="tt-chat-conversations">
            {inTab.map((c) => (
              <li key={c.peerUuid}>
                <button type="button" onClick={() => setOpen(c)}>
                  {c.peerName || t("someone")}
                  {c.unreadCount > 0 ? (
                    <span className="tt-badge" aria-label={t("unread", { count: c.unreadCount })}>
                      {" "}
                      {c.unreadCount}
                    </span>
                  ) : null}
                </button>
              </li>
            ))}
          </ul>
        )
      ) : null}
      {tab !== "room" && signedIn && open ? (
        <>
          <button type="button" onClick={() => setOpen(undefined)}>
            {t("back")}
          </button>
          <DirectChat peer={open.peerUuid} name={open.peerName || t("someone")} me={userUuid} events={hub} />
        </>
      ) : null}
    </div>
  );
}
