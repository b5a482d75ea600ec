// The bot kit (@tt/bot): write a bot for the platform with its public API and a bot token. See README.md.
export { signIn, signUpBot, type Bot, type ConnectionOptions, type SignInOptions } from "./bot.ts";
export { joinRoom, type RejoinReason, type RoomSession, type RoomSessionOptions } from "./room-session.ts";
export { createPlatformClients, platformServices, type PlatformClients } from "./clients.ts";
export { bearerInterceptor, createBotTransport, type BotTransportOptions, type Protocol } from "./transport.ts";
export { mentions } from "./mentions.ts";
export {
  createStageConnection,
  type ConnectionStatus,
  type StageConnection,
  type StageConnectionOptions,
} from "./stage-connection.ts";
export { createChatSequence, type ChatSequence, type ChatSequenceOptions } from "./chat-sequence.ts";
