// Bot accounts: created by a user who owns them, signed in only with bot tokens.
import { randomUUID } from "node:crypto";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import { checkUuid } from "@tt/kit";
import { NICKNAME_MAX_LENGTH } from "../account-rules.ts";
import type { AccountView } from "../modules/accounts/account-message.ts";
import { BotOwner } from "../modules/accounts/bot-owner.entity.ts";
import { botEmail, NO_PASSWORD_HASH } from "../modules/accounts/no-password.ts";
import { startSession, toAccessTokenMessage } from "../modules/sessions/start-session.ts";
import { createAccount, flushNewAccount } from "../modules/users/create-account.ts";
import { User } from "../modules/users/user.entity.ts";
import type { UserServiceContext } from "../user-context.ts";
import { callEm, callerAccount, callIdentity, callUserAgent } from "./call.ts";

export const BOT_NICKNAME_MISSING = "nickname missing in request";
export const BOT_NICKNAME_TOO_LONG = `nickname must be at most ${NICKNAME_MAX_LENGTH} characters long`;
export const AVATAR_ID_TOO_LONG = "avatarId must be at most 128 characters long";
export const BOT_NOT_FOUND = "bot not found";
export const NOT_BOT_OWNER = "you do not own this bot";

export function accountBotRoutes(
  svc: UserServiceContext,
  view: AccountView,
): Partial<ServiceImpl<typeof AccountService>> {
  return {
    async signUpBot(req, ctx) {
      const nickname = req.nickname.trim();
      if (nickname === "") throw new ConnectError(BOT_NICKNAME_MISSING, Code.InvalidArgument);
      if ([...nickname].length > NICKNAME_MAX_LENGTH)
        throw new ConnectError(BOT_NICKNAME_TOO_LONG, Code.InvalidArgument);
      const avatarId = req.avatarId.trim();
      if (avatarId.length > 128) throw new ConnectError(AVATAR_ID_TOO_LONG, Code.InvalidArgument);
      const em = callEm(ctx);
      const owner = await callerAccount(em, ctx);
      // Bots have no address of their own; a reserved one keeps users.email unique and unmailable.
      const { user: bot, profile } = createAccount(em, {
        email: botEmail(randomUUID()),
        passwordHash: NO_PASSWORD_HASH,
        role: "bot",
        nickname,
      });
      if (avatarId !== "") profile.avatarId = avatarId;
      em.create(BotOwner, { bot, owner });
      const { issued } = await startSession(em, svc.tokens, bot, callUserAgent(ctx));
      await flushNewAccount(em);
      return { user: await view(em, bot), accessToken: toAccessTokenMessage(issued) };
    },

    async getBotToken(req, ctx) {
      const identity = callIdentity(ctx);
      const em = callEm(ctx);
      let botId: string;
      if (identity.tokenType === "bot") {
        // A bot renews only itself.
        if (req.uuid !== "" && req.uuid.toLowerCase() !== identity.subject) {
          throw new ConnectError(NOT_BOT_OWNER, Code.PermissionDenied);
        }
        botId = identity.subject;
      } else {
        botId = checkUuid(req.uuid, "uuid");
        const ownership = await em.findOne(BotOwner, { bot: botId });
        if (!ownership) throw new ConnectError(BOT_NOT_FOUND, Code.NotFound);
        if (ownership.owner.id !== identity.subject) throw new ConnectError(NOT_BOT_OWNER, Code.PermissionDenied);
      }
      const bot = await em.findOne(User, { id: botId, role: "bot" });
      if (!bot) throw new ConnectError(BOT_NOT_FOUND, Code.NotFound);
      const { issued } = await startSession(em, svc.tokens, bot, callUserAgent(ctx));
      await em.flush();
      return { accessToken: toAccessTokenMessage(issued) };
    },
  };
}
