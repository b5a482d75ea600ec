// Discord sign-in (web OAuth2 code or the activity's access token), the activity's code exchange, and linking
// Discord to an existing account.
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import { EMAIL_ALREADY_REGISTERED, NICKNAME_MAX_LENGTH, normalizeEmail } from "../account-rules.ts";
import { hasEmailRow, recordEmail, setDiscordSocial } from "../modules/accounts/account-emails.ts";
import type { AccountView } from "../modules/accounts/account-message.ts";
import { DiscordLink } from "../modules/accounts/discord-link.entity.ts";
import { discordEmail, NO_PASSWORD_HASH } from "../modules/accounts/no-password.ts";
import { discordFailure } from "../modules/accounts/provider-failure.ts";
import { startSession, toAccessTokenMessage } from "../modules/sessions/start-session.ts";
import { createAccount } from "../modules/users/create-account.ts";
import { User } from "../modules/users/user.entity.ts";
import type { DiscordUser } from "../providers/index.ts";
import type { UserServiceContext } from "../user-context.ts";
import { callEm, callerAccount, callUserAgent } from "./call.ts";

export const CODE_OR_TOKEN = "give either code (with redirectUri) or discordAccessToken";
export const CODE_MISSING = "code missing in request";
export const DISCORD_LINKED_ELSEWHERE = "this Discord account is linked to another account";

export function accountDiscordRoutes(
  svc: UserServiceContext,
  view: AccountView,
): Partial<ServiceImpl<typeof AccountService>> {
  async function discordUser(accessToken: string): Promise<DiscordUser> {
    try {
      return await svc.providers.discord.getUser(accessToken);
    } catch (err) {
      throw discordFailure(err);
    }
  }

  async function exchange(code: string, redirectUri: string) {
    try {
      return await svc.providers.discord.exchangeCode(code, redirectUri);
    } catch (err) {
      throw discordFailure(err);
    }
  }

  return {
    async exchangeDiscordCode(req) {
      if (req.code === "") throw new ConnectError(CODE_MISSING, Code.InvalidArgument);
      // The Embedded App SDK's authorize() has no redirect URI, so there is none to give (an empty one).
      const tokens = await exchange(req.code, "");
      return {
        accessToken: tokens.accessToken,
        expiresAt: timestampFromDate(new Date(Date.now() + tokens.expiresIn * 1000)),
        scope: tokens.scope ?? "",
      };
    },

    async discordAuth(req, ctx) {
      const withCode = req.code !== "";
      if (withCode === (req.discordAccessToken !== "")) throw new ConnectError(CODE_OR_TOKEN, Code.InvalidArgument);
      const accessToken = withCode ? (await exchange(req.code, req.redirectUri)).accessToken : req.discordAccessToken;
      const du = await discordUser(accessToken);
      const em = callEm(ctx);
      const userAgent = callUserAgent(ctx);

      const link = await em.findOne(DiscordLink, { discordId: du.id }, { populate: ["user"] });
      if (link) {
        link.username = du.username.slice(0, 64);
        await setDiscordSocial(em, link.user.id, link.username);
        const { issued } = await startSession(em, svc.tokens, link.user, userAgent);
        await em.flush();
        return {
          user: await view(em, link.user),
          accessToken: toAccessTokenMessage(issued),
          created: false,
        };
      }

      // Only an address Discord verified may become the account's: anyone can type any address into Discord.
      const verified = du.email && du.emailVerified ? normalizeEmail(du.email) : undefined;
      const email = verified ?? discordEmail(du.id);
      if ((await em.count(User, { email })) > 0)
        throw new ConnectError(EMAIL_ALREADY_REGISTERED, Code.PermissionDenied);
      const nickname = [...(du.globalName || du.username)].slice(0, NICKNAME_MAX_LENGTH).join("");
      // A verified address is Discord's (type discord, VERIFIED); the placeholder of an unverified one gets no row.
      const emailKind = { type: "discord", status: "VERIFIED" } as const;
      const { user } = createAccount(em, { email, passwordHash: NO_PASSWORD_HASH, role: "user", nickname, emailKind });
      em.create(DiscordLink, { discordId: du.id, user, username: du.username.slice(0, 64) });
      await setDiscordSocial(em, user.id, du.username.slice(0, 64));
      const { issued } = await startSession(em, svc.tokens, user, userAgent);
      await flushOrConflict(em, EMAIL_ALREADY_REGISTERED, Code.PermissionDenied);
      return { user: await view(em, user), accessToken: toAccessTokenMessage(issued), created: true };
    },

    async linkDiscord(req, ctx) {
      if (req.code === "") throw new ConnectError(CODE_MISSING, Code.InvalidArgument);
      const tokens = await exchange(req.code, req.redirectUri);
      const du = await discordUser(tokens.accessToken);
      const em = callEm(ctx);
      const user = await callerAccount(em, ctx);

      const existing = await em.findOne(DiscordLink, { discordId: du.id });
      if (existing && existing.user.id !== user.id) {
        throw new ConnectError(DISCORD_LINKED_ELSEWHERE, Code.AlreadyExists);
      }
      const username = du.username.slice(0, 64);
      const verified = du.email && du.emailVerified ? normalizeEmail(du.email) : undefined;
      await em.transactional(async (tem) => {
        const current = existing ? await tem.findOne(DiscordLink, { discordId: du.id }) : null;
        if (current) {
          current.username = username;
        } else {
          // One Discord account per account: linking another replaces the old link.
          await tem.nativeDelete(DiscordLink, { user: user.id });
          tem.create(DiscordLink, { discordId: du.id, user: user.id, username });
        }
        await setDiscordSocial(tem, user.id, username);
        if (verified && !(await hasEmailRow(tem, user.id, verified))) {
          recordEmail(tem, user.id, verified, { type: "discord", status: "VERIFIED", primary: false });
        }
        await flushOrConflict(tem, DISCORD_LINKED_ELSEWHERE, Code.AlreadyExists);
      });
      return { user: await view(em.fork(), user) };
    },
  };
}

/** A concurrent call that created the same link or address first wins on the unique index. */
async function flushOrConflict(em: EntityManager, message: string, code: Code): Promise<void> {
  try {
    await em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException)
      throw new ConnectError(message, code, undefined, undefined, err);
    throw err;
  }
}
