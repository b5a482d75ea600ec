// The live room's chat panel (issue 14; spec 002 §2 chat view with tabs and unread counters, §3–§5): the room's
// messages (history on mount, then the join stream's ChatEvents that the room page hands over as `feed`), sending
// with a retry button when a send fails, reactions, replies, editing, reports and moderator deletes; direct
// messages in tabs FRIENDS and OTHERS with unread counters. Guests read the room chat only.
import { create } from "@bufbuild/protobuf";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createChatSequence } from "@tt/bot/chat-sequence";
import type { ChatEvent, ChatMessage, ChatPlaylistPreview } from "@tt/proto/tt/social/v1/chat_pb";
import {
  ChatService,
  ConversationSchema,
  type ChatMessageInput,
  type Conversation,
} from "@tt/proto/tt/social/v1/chat_service_pb";
import { RoomActivityKind, type RoomActivity } from "@tt/proto/tt/social/v1/stage_pb";
import { useAppTranslation, useErrorText } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";
import {
  Badge,
  Button,
  EmptyState,
  IconButton,
  Input,
  Menu,
  MenuItem,
  Skeleton,
  Tab,
  TabList,
  TabPanel,
  Tabs,
  toast,
  nameColorStyle,
  useFormat,
} from "@tt/web-kit/ui";
import { VirtualList } from "@tt/web-kit/virtual";
import {
  ArrowDown,
  ArrowLeft,
  Check,
  CircleAlert,
  CornerUpLeft,
  Flag,
  Gift,
  Inbox,
  LogIn,
  Megaphone,
  Radio,
  MessagesSquare,
  MoreHorizontal,
  Music,
  Pencil,
  Reply,
  RotateCcw,
  SendHorizontal,
  Trash2,
  X,
} from "lucide-react";
import {
  createContext,
  memo,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
} from "react";
import { useProfiles } from "../../lib/people.ts";
import { Avatar, useAvatarImage } from "../Avatar.tsx";
import type { ChatFeed, Feed } from "../chat-feed.ts";
import {
  ACTIVITY_CAP,
  applyRoomEvent,
  completeMention,
  lastStoredId,
  mentionQuery,
  mentions,
  withActivities,
  type ActivityLine,
  conversationOf,
  dateMs,
  latestEditable,
  mergeHistory,
  remove,
  setStatus,
  upsert,
  visibleItems,
  type ChatItem,
} from "./chat-state.ts";
import { CHAT_NAMESPACE, chatTranslations } from "./locales.ts";
import { onOpenDirectChat } from "./open-direct.ts";
import "./chat.css";

export interface ChatPanelProps {
  /** The room's uuid or slug. */
  room: string;
  /** The join stream's chat events. */
  feed: ChatFeed;
  /** Signed in and allowed to chat (guests and chat-disabled users read only). */
  canSend: boolean;
  userUuid: string | undefined;
  isModerator: boolean;
  /** What happens in the room (skips, seats, kicks): system lines in the room chat and a polite live region. */
  activity?: Feed<RoomActivity>;
  /** The people in the room (DJs and the dancefloor): whom `@` completes. */
  people?: readonly string[];
  /** The panel fills a column of the page's height (a desktop's chat column): the messages take what is left. */
  fill?: boolean;
}

/** Whether the messages fill the panel's column (ChatPanelProps.fill) or keep to CHAT_HEIGHT. */
const FillContext = createContext(false);

/** The people the panel knows by name: for system lines, `@` completion and the reader's own mentions. */
interface ChatPeople {
  nameOf(uuid: string): string | undefined;
  /** The nicknames `@` completes (the people in the room, the reader left out). */
  nicknames: readonly string[];
  /** The reader's nickname (messages that mention it are highlighted). */
  myName: string | undefined;
  /** The reader's name colour ("" for the default): their own messages before the server has answered. */
  myColor?: string | undefined;
  /** The reader's uuid (a line about them says "you"). */
  me?: string | undefined;
}
const PeopleContext = createContext<ChatPeople>({ nameOf: () => undefined, nicknames: [], myName: undefined });

/** The most names `@` offers at once. */
const MENTION_SUGGESTIONS = 6;

type Translate = ReturnType<typeof useAppTranslation>["t"];

/**
 * A room activity in words (issue 25): who, what, and for a vote-skip the votes that did it; the DJ whose song the
 * room skipped reads it about "your song".
 */
export function activityText(
  t: Translate,
  a: RoomActivity,
  nameOf: (uuid: string) => string | undefined,
  me?: string,
): string {
  const name = nameOf(a.userUuid) || t("someone");
  const by = a.byUuid ? nameOf(a.byUuid) : undefined;
  switch (a.kind) {
    case RoomActivityKind.VOTE_SKIPPED:
      return a.userUuid === me
        ? t("activity.yourSongSkipped", { dislikes: a.dislikes, threshold: a.threshold })
        : t("activity.voteSkipped", { dislikes: a.dislikes, threshold: a.threshold, dj: name });
    case RoomActivityKind.MODERATOR_SKIPPED:
      return by ? t("activity.moderatorSkippedBy", { by, dj: name }) : t("activity.moderatorSkipped", { dj: name });
    case RoomActivityKind.DJ_SKIPPED:
      return t("activity.djSkipped", { name });
    case RoomActivityKind.SEAT_TAKEN:
      return t("activity.seatTaken", { name });
    case RoomActivityKind.SEAT_LEFT:
      return t("activity.seatLeft", { name });
    case RoomActivityKind.REMOVED_FROM_SEAT:
      return t("activity.removed", { name });
    case RoomActivityKind.KICKED:
      return t("activity.kicked", { name });
    case RoomActivityKind.BANNED:
      return t("activity.banned", { name });
    default:
      return "";
  }
}

/** The quick reactions offered on every message. */
export const QUICK_REACTIONS = ["👍", "🔥", "❤️", "😂"] as const;

type ChatTab = "room" | "FRIENDS" | "OTHERS";

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

/** The chat column's height: a screenful of messages, the rest scrolls (virtualised past that). */
export const CHAT_HEIGHT = 440;
/** A one-line message's height, before its row is measured. */
const ROW_ESTIMATE = 64;

/** When a message was sent, as the time of day in the reader's language: written once, when its row is drawn. */
const MessageTime = memo(function MessageTime({ ms }: { ms: number }) {
  const format = useFormat();
  return (
    <time className="tt-chat-message__time" dateTime={new Date(ms).toISOString()}>
      {format.time(ms)}
    </time>
  );
});

/**
 * A system line: what happened in the room. Its names come from the people context; the other rows take what they
 * need as props, so a change of the room's people re-renders these lines only.
 */
const ActivityRow = memo(function ActivityRow({ item, activity }: { item: ChatItem; activity: RoomActivity }) {
  const { t } = useAppTranslation(CHAT_NAMESPACE, chatTranslations);
  const people = useContext(PeopleContext);
  return (
    <div className="tt-chat-activity" data-testid="chat-activity" data-kind={RoomActivityKind[activity.kind]}>
      <Radio aria-hidden="true" />
      <span>{activityText(t, activity, people.nameOf, people.me)}</span>
      <MessageTime ms={dateMs(item.message)} />
    </div>
  );
});

interface RowActions {
  onRetry(item: ChatItem): void;
  onReact(item: ChatItem, emoji: string): void;
  onReply(message: ChatMessage): void;
  onStartEdit(item: ChatItem): void;
  onReport(item: ChatItem): void;
  onDelete(item: ChatItem): void;
}

/**
 * One message: the sender's avatar and name (in their name colour, made readable on the theme), when, the text and
 * what it carries, reactions and actions. The name, avatar and colour are the message's own (the sender's profile
 * when they sent it); the reader's draft, which the server has not answered yet, takes the reader's. Memoised:
 * a new message draws its own row, not every row in view again (issue 25: four messages a second in
 * npm run bench:room-page); every prop is the same object until that message changes.
 */
const MessageRow = memo(function MessageRow({
  item,
  me,
  myName,
  myColor,
  canSend,
  isModerator,
  editable,
  actions,
}: {
  item: ChatItem;
  me: string | undefined;
  /** The reader's nickname: a message that mentions it is highlighted. */
  myName: string | undefined;
  /** The reader's name colour: their drafts' name. */
  myColor: string | undefined;
  canSend: boolean;
  isModerator: boolean;
  /** The reader's latest message, still in its edit window (002 §5). */
  editable: boolean;
  actions: RowActions;
}) {
  const { t } = useAppTranslation(CHAT_NAMESPACE, chatTranslations);
  const { onRetry, onReact, onReply, onStartEdit, onReport, onDelete } = actions;
  const m = item.message;
  const own = me !== undefined && m.userUuid === me;
  // Not stored yet: the server fills the sender's name and colour in its answer.
  const draft = own && m.id === 0n;
  const name = m.userName || (draft ? myName : undefined) || t("someone");
  const nameStyle = nameColorStyle(m.color || (draft ? (myColor ?? "") : ""));
  const image = useAvatarImage(m.avatarId);
  const canReport = !own && m.type === "user";
  const canDelete = own || (isModerator && Boolean(m.roomUuid));
  const mentioned = !own && m.type === "user" && mentions(m.message, myName);
  if (m.type === "room" && !m.consumable) {
    return (
      <div className="tt-chat-notice" data-testid="chat-message" data-uuid={m.uuid}>
        <Megaphone aria-hidden="true" />
        <span>{m.message}</span>
      </div>
    );
  }
  return (
    <div
      className={`tt-chat-message${own ? " tt-chat-message--own" : ""}${mentioned ? " tt-chat-message--mention" : ""}`}
      data-testid="chat-message"
      data-uuid={m.uuid}
      data-status={item.status}
      data-mention={mentioned || undefined}
    >
      <Avatar uuid={m.userUuid || m.uuid} name={name} imageUrl={image} size="sm" decorative />
      <div className="tt-chat-message__body">
        {m.consumable ? (
          <p className="tt-chat-consumable">
            <Gift aria-hidden="true" />
            {t("bought", { name, item: m.consumable.name })}
          </p>
        ) : (
          <>
            <p className="tt-chat-message__head">
              <strong className={`tt-chat-message__name${nameStyle ? " tt-name-color" : ""}`} style={nameStyle}>
                {name}
              </strong>
              <MessageTime ms={dateMs(m)} />
              {m.editedAt ? <span className="tt-chat-message__edited">({t("edited")})</span> : null}
              {mentioned ? <span className="tt-chat-message__mention">{t("mentionsYou")}</span> : null}
            </p>
            {m.replies[0] ? (
              <blockquote className="tt-chat-reply">
                <CornerUpLeft aria-hidden="true" />
                <span>
                  <strong>{m.replies[0].userName || t("someone")}</strong> {m.replies[0].message}
                </span>
              </blockquote>
            ) : null}
            {m.message ? <p className="tt-chat-text">{m.message}</p> : null}
            {m.structured.case === "musicInfo" && m.structured.value.trackInfo ? (
              <p className="tt-chat-song">
                <Music aria-hidden="true" />
                {t("song", {
                  title: m.structured.value.trackInfo.title,
                  artist: m.structured.value.trackInfo.user?.name ?? "",
                })}
              </p>
            ) : null}
            {m.structured.case === "gif" ? (
              <img className="tt-chat-image" src={m.structured.value.url} alt={t("gif")} />
            ) : null}
            {m.songs.map((s, i) => (
              <p key={i} className="tt-chat-song">
                <Music aria-hidden="true" />
                {t("song", { title: s.trackInfo?.title ?? "", artist: s.trackInfo?.user?.name ?? "" })}
              </p>
            ))}
            {m.playlist ? <PlaylistCard playlist={m.playlist} me={me} /> : null}
            {m.imageBase64 ? (
              <img className="tt-chat-image" src={`data:${m.media};base64,${m.imageBase64}`} alt={t("image")} />
            ) : null}
            {m.imageUrls.map((u) => (
              <img key={u} className="tt-chat-image" src={u} alt={t("image")} />
            ))}
          </>
        )}
        {isModerator && m.reportCount > 0 ? (
          <Badge tone="warning" className="tt-chat-reports">
            {t("reports", { count: m.reportCount })}
          </Badge>
        ) : null}
        {Object.keys(m.reactions).length > 0 ? (
          <div className="tt-chat-reactions">
            {Object.entries(m.reactions).map(([emoji, list]) => (
              <button
                key={emoji}
                type="button"
                className="tt-chat-reaction"
                aria-pressed={list.users.some((u) => u.userUuid === me)}
                aria-label={t("react", { emoji })}
                disabled={!canSend || item.status !== "sent"}
                onClick={() => onReact(item, emoji)}
              >
                {t("reactionCount", { emoji, count: list.users.length })}
              </button>
            ))}
          </div>
        ) : null}
        {item.status === "sending" ? <p className="tt-chat-sending">{t("sending")}</p> : null}
        {item.status === "failed" ? (
          <div role="alert" className="tt-chat-failed">
            <CircleAlert aria-hidden="true" />
            <span>
              {t("notSent")}
              {item.error ? `: ${item.error}` : ""}
            </span>
            <Button size="sm" variant="secondary" icon={<RotateCcw aria-hidden="true" />} onClick={() => onRetry(item)}>
              {t("retry")}
            </Button>
          </div>
        ) : null}
      </div>
      {canSend && item.status === "sent" ? (
        <div className="tt-chat-message__actions">
          {QUICK_REACTIONS.filter((e) => !m.reactions[e]).map((emoji) => (
            <button
              key={emoji}
              type="button"
              className="tt-chat-quick"
              aria-label={t("react", { emoji })}
              title={t("react", { emoji })}
              onClick={() => onReact(item, emoji)}
            >
              <span aria-hidden="true">{emoji}</span>
            </button>
          ))}
          <Menu
            label={t("moreActions", { name })}
            trigger={
              <IconButton size="sm" icon={<MoreHorizontal aria-hidden="true" />} label={t("moreActions", { name })} />
            }
          >
            <MenuItem icon={<Reply aria-hidden="true" />} onSelect={() => onReply(m)}>
              {t("reply")}
            </MenuItem>
            {editable ? (
              <MenuItem icon={<Pencil aria-hidden="true" />} onSelect={() => onStartEdit(item)}>
                {t("edit")}
              </MenuItem>
            ) : null}
            {canReport ? (
              <MenuItem icon={<Flag aria-hidden="true" />} onSelect={() => onReport(item)}>
                {t("report")}
              </MenuItem>
            ) : null}
            {canDelete ? (
              <MenuItem danger icon={<Trash2 aria-hidden="true" />} onSelect={() => onDelete(item)}>
                {t("delete")}
              </MenuItem>
            ) : null}
          </Menu>
        </div>
      ) : null}
    </div>
  );
});

/** The messages of a conversation in a scroll box that follows the newest while its reader is at the end. */
const MessageScroll = memo(function MessageScroll({
  items,
  label,
  me,
  myName,
  myColor,
  canSend,
  isModerator,
  editableUuid,
  follow,
  onFollowChange,
  unseen,
  actions,
}: {
  items: ChatItem[];
  label: string;
  me: string | undefined;
  myName: string | undefined;
  myColor: string | undefined;
  canSend: boolean;
  isModerator: boolean;
  editableUuid: string | undefined;
  follow: boolean;
  onFollowChange(follow: boolean): void;
  /** Messages that arrived while the reader was scrolled up. */
  unseen: number;
  /** What a row's buttons do: the same object from render to render (the rows are memoised). */
  actions: RowActions;
}) {
  const { t } = useAppTranslation(CHAT_NAMESPACE, chatTranslations);
  const fill = useContext(FillContext);
  const renderRow = useCallback(
    (item: ChatItem) =>
      item.activity ? (
        <ActivityRow item={item} activity={item.activity} />
      ) : (
        <MessageRow
          item={item}
          me={me}
          myName={myName}
          myColor={myColor}
          canSend={canSend}
          isModerator={isModerator}
          editable={item.message.uuid === editableUuid}
          actions={actions}
        />
      ),
    [me, myName, myColor, canSend, isModerator, editableUuid, actions],
  );
  return (
    <div className="tt-chat-scroll">
      <VirtualList
        items={items}
        rowHeight={ROW_ESTIMATE}
        height={fill ? "fill" : CHAT_HEIGHT}
        label={label}
        className="tt-chat-messages"
        measureRows
        followEnd={follow}
        onFollowEndChange={onFollowChange}
        getKey={keyOf}
        renderRow={renderRow}
      />
      {unseen > 0 ? (
        <Button
          size="sm"
          className="tt-chat-jump"
          icon={<ArrowDown aria-hidden="true" />}
          onClick={() => onFollowChange(true)}
        >
          {t("newMessages", { count: unseen })}
        </Button>
      ) : null}
    </div>
  );
});

const keyOf = (item: ChatItem) => item.message.uuid;

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
  const input = useRef<HTMLInputElement>(null);
  // `@` completion from the people in the room.
  const { nicknames, myName, myColor } = useContext(PeopleContext);
  const listId = useId();
  const [activeSuggestion, setActiveSuggestion] = useState(0);
  const [dismissed, setDismissed] = useState<string | undefined>();
  const query = mentionQuery(text);
  const suggestions =
    query === undefined || text === dismissed
      ? []
      : nicknames
          .filter((n) => n.toLowerCase().startsWith(query.toLowerCase()) && n.toLowerCase() !== query.toLowerCase())
          .slice(0, MENTION_SUGGESTIONS);
  const active = Math.min(activeSuggestion, Math.max(0, suggestions.length - 1));
  const pick = (nickname: string) => {
    setText((current) => completeMention(current, nickname));
    setActiveSuggestion(0);
    input.current?.focus();
  };
  const onComposerKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (suggestions.length === 0) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActiveSuggestion((active + step + suggestions.length) % suggestions.length);
    } else if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      pick(suggestions[active]!);
    } else if (e.key === "Escape") {
      e.preventDefault();
      setDismissed(text);
    }
  };
  // The list follows the newest message while the reader is at its end; scrolled up, it stays where they read and
  // counts what arrived since (by the last message they saw, so a list trimmed at its cap still counts).
  const [follow, setFollow] = useState(true);
  const newestKey = items.at(-1)?.message.uuid;
  const [seen, setSeen] = useState(newestKey);
  if (follow && seen !== newestKey) setSeen(newestKey);
  const unseen = useMemo(() => {
    if (follow) return 0;
    for (let index = items.length - 1; index >= 0; index--) {
      if (items[index]!.message.uuid === seen) return items.length - 1 - index;
    }
    return items.length;
  }, [follow, items, seen]);
  // Only the reader's latest message can be editable, for 20 s after it was sent: one timer ends that, rather than
  // a re-render of the list every few seconds.
  const latest = useMemo(() => latestEditable(items, me), [items, me]);
  const [expired, setExpired] = useState<string | undefined>();
  useEffect(() => {
    if (!latest) return;
    const timer = setTimeout(() => setExpired(latest.uuid), Math.max(0, latest.until - Date.now()));
    return () => clearTimeout(timer);
  }, [latest]);
  const editableUuid = latest && latest.uuid !== expired ? latest.uuid : undefined;
  const onReply = useCallback((message: ChatMessage) => {
    setReplyTo(message);
    input.current?.focus();
  }, []);
  const onStartEdit = useCallback((target: ChatItem) => {
    setEditing(target);
    setText(target.message.message);
    input.current?.focus();
  }, []);
  const rowActions = useMemo<RowActions>(
    () => ({ onRetry, onReact, onReply, onStartEdit, onReport, onDelete }),
    [onRetry, onReact, onReply, onStartEdit, onReport, onDelete],
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = text.trim();
    if (value === "") return;
    if (editing) {
      void onEdit(editing, value).then(() => setEditing(undefined));
    } else {
      onSend(value, replyTo);
      setReplyTo(undefined);
      setFollow(true);
    }
    setText("");
  };
  const cancelEdit = () => {
    setEditing(undefined);
    setText("");
  };

  return (
    <div className="tt-chat-conversation">
      {items.length === 0 ? (
        <div className="tt-chat-empty">
          <EmptyState icon={<MessagesSquare />} title={t("empty")} headingLevel={3}>
            {canSend ? t("emptyHint") : t("emptyGuest")}
          </EmptyState>
        </div>
      ) : (
        <MessageScroll
          items={items}
          label={label}
          me={me}
          myName={myName}
          myColor={myColor}
          canSend={canSend}
          isModerator={isModerator}
          editableUuid={editableUuid}
          follow={follow}
          onFollowChange={setFollow}
          unseen={unseen}
          actions={rowActions}
        />
      )}
      {canSend ? (
        <form className="tt-chat-composer" onSubmit={submit}>
          {replyTo || editing ? (
            <p className="tt-chat-composer__context">
              {editing ? <Pencil aria-hidden="true" /> : <CornerUpLeft aria-hidden="true" />}
              <span>{editing ? t("editing") : t("replyingTo", { name: replyTo?.userName || t("someone") })}</span>
              <IconButton
                size="sm"
                icon={<X aria-hidden="true" />}
                label={t("cancel")}
                onClick={() => (editing ? cancelEdit() : setReplyTo(undefined))}
              />
            </p>
          ) : null}
          {suggestions.length > 0 ? (
            <ul id={listId} role="listbox" className="tt-chat-mentions" aria-label={t("mentionList")}>
              {suggestions.map((nickname, index) => (
                <li
                  key={nickname}
                  id={`${listId}-${index}`}
                  role="option"
                  aria-selected={index === active}
                  className="tt-chat-mentions__option"
                  onMouseDown={(e) => {
                    e.preventDefault();
                    pick(nickname);
                  }}
                >
                  @{nickname}
                </li>
              ))}
            </ul>
          ) : null}
          <div className="tt-chat-composer__row">
            <Input
              ref={input}
              aria-label={t("placeholder")}
              aria-autocomplete="list"
              aria-controls={suggestions.length > 0 ? listId : undefined}
              aria-activedescendant={suggestions.length > 0 ? `${listId}-${active}` : undefined}
              placeholder={t("placeholder")}
              value={text}
              maxLength={2000}
              autoComplete="off"
              onChange={(e) => setText(e.target.value)}
              onKeyDown={onComposerKey}
            />
            <IconButton
              type="submit"
              variant="primary"
              icon={editing ? <Check aria-hidden="true" /> : <SendHorizontal aria-hidden="true" />}
              label={editing ? t("save") : t("send")}
              disabled={text.trim() === ""}
            />
          </div>
        </form>
      ) : (
        <p className="tt-chat-guest">
          <LogIn aria-hidden="true" />
          <span>{t("guest")}</span>
        </p>
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
  const { t } = useAppTranslation(CHAT_NAMESPACE, chatTranslations);
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
  // The same functions from render to render: the rows they are handed to are memoised.
  return useMemo(() => {
    const failed = (error: unknown) => toast({ title: errorText(error), tone: "error" });
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
        void client
          .toggleReaction({ uuid: item.message.uuid, emoji })
          .then((res) => res.message && setItems((items) => upsert(items, res.message!)), failed);
      },
      async onEdit(item: ChatItem, text: string) {
        const res = await client.editMessage({ uuid: item.message.uuid, message: text }).catch((error: unknown) => {
          failed(error);
          return undefined;
        });
        if (res?.message) setItems((items) => upsert(items, res.message!));
      },
      onReport(item: ChatItem) {
        void client.reportMessage({ uuid: item.message.uuid }).then((res) => {
          hide(res.reportIdentifier);
          toast({ title: t("reported"), tone: "success" });
        }, failed);
      },
      onDelete(item: ChatItem) {
        void client.deleteMessage({ uuid: item.message.uuid }).then(() => {
          setItems((items) => remove(items, item.message.uuid));
          toast({ title: t("deleted"), tone: "success" });
        }, failed);
      },
    };
  }, [attempt, client, errorText, hide, makeDraft, me, setItems, t]);
}

/**
 * The room's conversation. Memoised, with only what it uses as props: the panel around it re-renders when the room's
 * people or the direct conversations change, which this list need not follow.
 */
const RoomChat = memo(function RoomChat({
  room,
  canSend,
  userUuid,
  isModerator,
  events,
  lines,
  onNewest,
}: Pick<ChatPanelProps, "room" | "canSend" | "userUuid" | "isModerator"> & {
  events: EventHub;
  lines: readonly ActivityLine[];
  /** Tells the panel the newest stored message's id (an activity shows after it). */
  onNewest(id: bigint): void;
}) {
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
    setItemsState((items) => mergeHistory(items, history.data.messages, history.data.chatSequence));
  }
  // The room's chat sequence (issue 28, @tt/bot/chat-sequence): an event already in the history is skipped, and a
  // missed one (a skipped number, or the stream saying the chat is further on) loads the history again.
  const queryClient = useQueryClient();
  const sequence = useMemo(
    () =>
      createChatSequence({
        // Fetched into the query's cache: the answer reaches `history.data`, and is merged as above.
        reload: async () =>
          (
            await queryClient.fetchQuery({
              queryKey: chatKeys.room(room),
              queryFn: () => client.listRoomMessages({ room }),
              staleTime: 0,
            })
          ).chatSequence,
      }),
    [queryClient, client, room],
  );
  useEffect(() => () => sequence.close(), [sequence]);
  useEffect(() => {
    if (history.data) sequence.loaded(history.data.chatSequence);
  }, [history.data, sequence]);
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
        else if (sequence.accept(event)) setItemsState((items) => applyRoomEvent(items, event));
      }),
    [events, hide, sequence],
  );
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
  const newest = lastStoredId(items);
  useEffect(() => onNewest(newest), [newest, onNewest]);
  const shown = useMemo(() => withActivities(visibleItems(items, reported), lines), [items, reported, lines]);
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
});

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

function ChatPanelView(props: ChatPanelProps) {
  const { t } = useAppTranslation(CHAT_NAMESPACE, chatTranslations);
  const { feed, userUuid, activity, people: inRoom } = props;
  const client = useClient(ChatService);
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<ChatTab>("room");
  const [open, setOpen] = useState<Conversation | undefined>();
  const signedIn = userUuid !== undefined;
  const panel = useRef<HTMLDivElement>(null);

  // The room's activity (kept here, so a line that arrives while another tab is open is not lost).
  const [lines, setLines] = useState<readonly ActivityLine[]>([]);
  const newest = useRef(0n);
  const onNewest = useCallback((id: bigint) => void (newest.current = id), []);
  const seq = useRef(0);
  useEffect(
    () =>
      activity?.subscribe((a) => {
        seq.current += 1;
        const line: ActivityLine = { seq: seq.current, after: newest.current, at: Date.now(), activity: a };
        setLines((current) => [...current, line].slice(-ACTIVITY_CAP));
        // The DJ whose song the room skipped is told at once, wherever they look.
        if (a.kind === RoomActivityKind.VOTE_SKIPPED && userUuid && a.userUuid === userUuid) {
          toast({
            title: t("activity.yourSongSkipped", { dislikes: a.dislikes, threshold: a.threshold }),
            tone: "info",
          });
        }
      }),
    [activity, userUuid, t],
  );
  // `@`, system lines and the asked-for conversation need names: the room's people and whoever a line is about.
  const [asked, setAsked] = useState<string | undefined>();
  // Brought into view when a conversation was asked for from elsewhere on the page.
  const [reveal, setReveal] = useState(0);
  useEffect(() => {
    if (reveal > 0) panel.current?.scrollIntoView?.({ block: "nearest" });
  }, [reveal]);
  // The page hands a new array on every render: kept stable by value (the context below re-renders every row).
  const inRoomKey = (inRoom ?? []).join(" ");
  const roomUuids = useMemo(() => (inRoomKey ? inRoomKey.split(" ") : []), [inRoomKey]);
  const uuids = useMemo(
    () => [
      ...roomUuids,
      ...lines.flatMap((l) => [l.activity.userUuid, l.activity.byUuid]),
      ...(userUuid ? [userUuid] : []),
      ...(asked ? [asked] : []),
      ...(open ? [open.peerUuid] : []),
    ],
    [roomUuids, lines, userUuid, asked, open],
  );
  const profiles = useProfiles(uuids);
  const roomPeople = useMemo<ChatPeople>(() => {
    const byUuid = new Map((profiles.profiles ?? []).map((p) => [p.uuid, p.nickname]));
    const mine = userUuid ? profiles.profiles?.find((p) => p.uuid === userUuid) : undefined;
    const nicknames = [...new Set(roomUuids.filter((u) => u !== userUuid).map((u) => byUuid.get(u)))]
      .filter((n): n is string => Boolean(n))
      .sort((a, b) => a.localeCompare(b));
    return {
      nameOf: (uuid) => byUuid.get(uuid) || undefined,
      nicknames,
      myName: userUuid ? byUuid.get(userUuid) || undefined : undefined,
      myColor: mine?.color,
      me: userUuid,
    };
  }, [profiles.profiles, roomUuids, userUuid]);
  // The newest line, said once through the polite live region (with the names as they are known).
  const latest = lines[lines.length - 1];
  const latestText = latest ? activityText(t, latest.activity, roomPeople.nameOf, userUuid) : "";

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
  const inTab = (group: ChatTab) =>
    (conversations.data?.conversations ?? []).filter((c) =>
      group === "FRIENDS" ? c.group === "FRIENDS" : c.group !== "FRIENDS",
    );

  // A profile card's "Message" (open-direct.ts): the FRIENDS or OTHERS tab with that person's conversation.
  useEffect(
    () =>
      onOpenDirectChat((peer) => {
        if (!signedIn || peer === userUuid) return;
        setAsked(peer);
      }),
    [signedIn, userUuid],
  );
  if (asked && !conversations.isPending) {
    const known = conversations.data?.conversations.find((c) => c.peerUuid === asked);
    setTab(known?.group === "FRIENDS" ? "FRIENDS" : "OTHERS");
    setOpen(known ?? create(ConversationSchema, { peerUuid: asked, group: "OTHERS" }));
    setAsked(undefined);
    setReveal((n) => n + 1);
  }

  const liveRegion = (
    <p className="tt-visually-hidden" role="status" aria-live="polite" data-testid="chat-activity-live">
      {latestText}
    </p>
  );
  const roomChat = (
    <RoomChat
      room={props.room}
      canSend={props.canSend}
      userUuid={userUuid}
      isModerator={props.isModerator}
      events={hub}
      lines={lines}
      onNewest={onNewest}
    />
  );
  if (!signedIn) {
    return (
      <FillContext.Provider value={props.fill ?? false}>
        <PeopleContext.Provider value={roomPeople}>
          <div className="tt-chat" ref={panel}>
            {roomChat}
            {liveRegion}
          </div>
        </PeopleContext.Provider>
      </FillContext.Provider>
    );
  }
  const peerNameOf = (c: Conversation) => c.peerName || roomPeople.nameOf(c.peerUuid) || t("someone");
  const directTab = (group: ChatTab) =>
    open ? (
      <div className="tt-chat-direct">
        <div className="tt-chat-direct__head">
          <IconButton
            size="sm"
            icon={<ArrowLeft aria-hidden="true" />}
            label={t("back")}
            onClick={() => setOpen(undefined)}
          />
          <Avatar uuid={open.peerUuid} name={peerNameOf(open)} imageUrl={undefined} size="xs" decorative />
          <strong>{peerNameOf(open)}</strong>
        </div>
        <DirectChat peer={open.peerUuid} name={peerNameOf(open)} me={userUuid} events={hub} />
      </div>
    ) : conversations.isPending ? (
      <div className="tt-chat-conversations" aria-busy="true">
        {[0, 1, 2].map((index) => (
          <Skeleton key={index} height="2.75rem" radius="var(--tt-radius)" />
        ))}
      </div>
    ) : inTab(group).length === 0 ? (
      <div className="tt-chat-empty">
        <EmptyState icon={<Inbox />} title={t("noConversations")} headingLevel={3}>
          {group === "FRIENDS" ? t("noFriendsHint") : t("noOthersHint")}
        </EmptyState>
      </div>
    ) : (
      <ul className="tt-chat-conversations" aria-label={group === "FRIENDS" ? t("friends") : t("others")}>
        {inTab(group).map((c) => (
          <li key={c.peerUuid}>
            <button type="button" className="tt-chat-peer" onClick={() => setOpen(c)}>
              <Avatar uuid={c.peerUuid} name={c.peerName || t("someone")} imageUrl={undefined} size="sm" decorative />
              <span className="tt-chat-peer__name">{c.peerName || t("someone")}</span>
              {c.unreadCount > 0 ? (
                <Badge tone="accent">
                  <span aria-hidden="true">{c.unreadCount}</span>
                  <span className="tt-visually-hidden">, {t("unread", { count: c.unreadCount })}</span>
                </Badge>
              ) : null}
            </button>
          </li>
        ))}
      </ul>
    );

  return (
    <FillContext.Provider value={props.fill ?? false}>
      <PeopleContext.Provider value={roomPeople}>
        <div className="tt-chat" ref={panel}>
          <Tabs
            value={tab}
            onValueChange={(next) => {
              setTab(next as ChatTab);
              setOpen(undefined);
            }}
          >
            <TabList label={t("tabs")}>
              <Tab value="room">{t("room")}</Tab>
              <Tab value="FRIENDS" count={counts.FRIENDS} countLabel={t("unread", { count: counts.FRIENDS })}>
                {t("friends")}
              </Tab>
              <Tab value="OTHERS" count={counts.OTHERS} countLabel={t("unread", { count: counts.OTHERS })}>
                {t("others")}
              </Tab>
            </TabList>
            <TabPanel value="room">{roomChat}</TabPanel>
            <TabPanel value="FRIENDS">{tab === "FRIENDS" ? directTab("FRIENDS") : null}</TabPanel>
            <TabPanel value="OTHERS">{tab === "OTHERS" ? directTab("OTHERS") : null}</TabPanel>
          </Tabs>
          {liveRegion}
        </div>
      </PeopleContext.Provider>
    </FillContext.Provider>
  );
}

/** The same people, in the same order (the room hands a new array on every render). */
function samePeople(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((user, index) => user === b[index]);
}

/**
 * The chat re-renders when its own props change, not with every stage patch and clock tick of the room around it
 * (issue 25: a full room changes many times a second; npm run bench:room-page).
 */
export const ChatPanel = memo(
  ChatPanelView,
  (a, b) =>
    a.room === b.room &&
    a.feed === b.feed &&
    a.canSend === b.canSend &&
    a.userUuid === b.userUuid &&
    a.isModerator === b.isModerator &&
    a.activity === b.activity &&
    samePeople(a.people, b.people),
);
