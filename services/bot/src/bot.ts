// A bot on the platform's public API: it signs in with a bot token (POST /users/sign-up-bot makes the bot and its
// first token; GET /users/bot-token renews it), calls any service with it, and joins rooms through a RoomSession
// (the join stream kept up to date by the shared stage connection, plus the common acts). Only public RPCs with
// the bot token: the same calls a third party's bot makes.
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { createClient, type Transport } from "@connectrpc/connect";
import type { CrateSong } from "@tt/proto/tt/playlist/v1/crate_pb";
import type { SongInputSchema } from "@tt/proto/tt/playlist/v1/song_pb";
import type { ChatMessage } from "@tt/proto/tt/social/v1/chat_pb";
import { ChatMessageInputSchema } from "@tt/proto/tt/social/v1/chat_service_pb";
import { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import type { User } from "@tt/proto/tt/user/v1/user_pb";
import { createPlatformClients, type PlatformClients } from "./clients.ts";
import { joinRoom, type RoomSession, type RoomSessionOptions } from "./room-session.ts";
import { createBotTransport, type Protocol } from "./transport.ts";

export interface ConnectionOptions {
  /** The platform's address (the gateway), e.g. http://localhost:8080. */
  baseUrl: string;
  /** Connect (the default) or gRPC. */
  protocol?: Protocol;
  /** Connect only: "1.1" (the default) or "2". */
  httpVersion?: "1.1" | "2";
}

export interface SignInOptions extends ConnectionOptions {
  /** The bot token (POST /users/sign-up-bot, GET /users/bot-token). */
  token: string;
  /**
   * Renew the token by itself, when three quarters of its life have passed (default true), so a bot that runs for
   * longer than a token lives (7 days by default) keeps working. A renewal that fails is tried again a minute later.
   */
  autoRenew?: boolean;
  /** Where a failed renewal is reported (default console.warn). */
  log?(message: string, error?: unknown): void;
}

export interface Bot {
  /** The bot account's uuid. */
  readonly uuid: string;
  /** Its name in rooms and chat (what `@mentions` name). */
  readonly nickname: string;
  /** The bot token now sent with every call. */
  token(): string;
  /** When the current token expires. */
  tokenExpiresAt(): Date | undefined;
  /** A fresh bot token (GET /users/bot-token), used from the next call on. */
  renewToken(): Promise<string>;
  /** A typed client of every service, each call carrying the bot token. */
  readonly clients: PlatformClients;
  readonly transport: Transport;
  /** Joins a room's live stage (uuid or slug): the session keeps its state and offers the acts of a room. */
  join(room: string, options?: RoomSessionOptions): RoomSession;
  /** Adds songs to the end of the bot's queue (the special queue crate), which it plays from when it has a seat. */
  queueSongs(songs: MessageInitShape<typeof SongInputSchema>[]): Promise<CrateSong[]>;
  /** Sends a chat message to a room (uuid or slug). */
  say(room: string, text: string): Promise<ChatMessage>;
  /** Stops renewing the token (the bot's room sessions are closed by their own close()). */
  close(): void;
}

/** setTimeout's longest delay (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;
const RENEW_RETRY_MS = 60_000;

/**
 * Signs in with a bot token: checks that it is one (a user's token would act as that person) and learns the bot's
 * uuid and nickname. Every call of the bot then carries the token; `renewToken()` swaps it for a fresh one.
 */
export async function signIn(options: SignInOptions): Promise<Bot> {
  let token = options.token;
  let expiresAt: Date | undefined;
  let renewTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  // eslint-disable-next-line no-console
  const log = options.log ?? ((message: string, error?: unknown) => console.warn(message, error));
  const renewIn = (ms: number) => {
    clearTimeout(renewTimer);
    if (closed || options.autoRenew === false) return;
    renewTimer = setTimeout(
      () =>
        void bot.renewToken().catch((error: unknown) => {
          log("The bot's token could not be renewed; trying again in a minute", error);
          renewIn(RENEW_RETRY_MS);
        }),
      Math.min(MAX_TIMER_MS, Math.max(0, ms)),
    );
    // A timer of its own never keeps the process alive.
    renewTimer.unref?.();
  };
  const scheduleRenewal = () => {
    if (expiresAt) renewIn((expiresAt.getTime() - Date.now()) * 0.75);
  };
  const transport = createBotTransport({ ...options, token: () => token });
  const clients = createPlatformClients(transport);
  const session = await clients.user.auth.getSession({});
  if (session.tokenType !== "bot" || !session.user) {
    throw new Error(
      `signIn takes a bot token (POST /api/user-service/users/sign-up-bot), not a ${session.tokenType} token`,
    );
  }
  expiresAt = session.expiresAt ? timestampDate(session.expiresAt) : undefined;
  const profile = (await clients.user.profile.getOwnProfile({})).profile;
  const uuid = session.user.uuid;
  const nickname = profile?.nickname ?? "";

  const bot: Bot = {
    uuid,
    nickname,
    token: () => token,
    tokenExpiresAt: () => expiresAt,
    async renewToken() {
      const fresh = (await clients.user.account.getBotToken({})).accessToken;
      if (!fresh?.token) throw new Error("GET /users/bot-token answered without a token");
      token = fresh.token;
      expiresAt = fresh.expiresAt ? timestampDate(fresh.expiresAt) : undefined;
      scheduleRenewal();
      return token;
    },
    clients,
    transport,
    join: (room, sessionOptions) => joinRoom(bot, room, sessionOptions),
    async queueSongs(songs) {
      return (await clients.playlist.crate.addQueueSongs({ songs })).songs;
    },
    async say(room, text) {
      const message = create(ChatMessageInputSchema, { uuid: crypto.randomUUID(), message: text });
      const sent = (await clients.social.chat.sendRoomMessage({ room, message })).message;
      if (!sent) throw new Error("SendRoomMessage answered without the message");
      return sent;
    },
    close() {
      closed = true;
      clearTimeout(renewTimer);
    },
  };
  scheduleRenewal();
  return bot;
}

/**
 * Makes a bot account owned by the caller (a person's user token: POST /users/sign-up-bot) and answers it with its
 * first bot token, which `signIn` takes.
 */
export async function signUpBot(
  options: ConnectionOptions & { ownerToken: string; nickname: string; avatarId?: string },
): Promise<{ user: User; token: string }> {
  const transport = createBotTransport({ ...options, token: () => options.ownerToken });
  const answer = await createClient(AccountService, transport).signUpBot({
    nickname: options.nickname,
    avatarId: options.avatarId ?? "",
  });
  if (!answer.user || !answer.accessToken?.token) throw new Error("sign-up-bot answered without the bot or its token");
  return { user: answer.user, token: answer.accessToken.token };
}
