// Magic links (spec 002 §2): a signed-in app hands the browser a short-lived, single-use sign-in link.
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import type { AccountConfig } from "../modules/accounts/account-config.ts";
import type { AccountView } from "../modules/accounts/account-message.ts";
import { createAccountToken, spendAccountToken } from "../modules/accounts/one-time-token.ts";
import { startSession, toAccessTokenMessage } from "../modules/sessions/start-session.ts";
import type { UserServiceContext } from "../user-context.ts";
import { callEm, callerAccount, callUserAgent } from "./call.ts";

export const PATH_AND_PLAN = "give either path or plan, not both";
export const PATH_INVALID = "path must start with a single /";
export const PLAN_INVALID = "plan must be at most 64 characters";
export const MAGIC_LINK_INVALID = "magic link is invalid or expired";
const PATH_MAX_LENGTH = 2048;

/** Only paths of the web app: "//host" or "https://…" would turn the link into an open redirect. */
function checkPath(path: string): string {
  if (path === "") return "/";
  if (!path.startsWith("/") || path.startsWith("//") || path.includes("\\") || path.length > PATH_MAX_LENGTH) {
    throw new ConnectError(PATH_INVALID, Code.InvalidArgument);
  }
  return path;
}

export function accountMagicLinkRoutes(
  svc: UserServiceContext,
  config: AccountConfig,
  view: AccountView,
): Partial<ServiceImpl<typeof AccountService>> {
  return {
    async createMagicLink(req, ctx) {
      if (req.path !== "" && req.plan !== "") throw new ConnectError(PATH_AND_PLAN, Code.InvalidArgument);
      const plan = req.plan.trim();
      if (plan.length > 64) throw new ConnectError(PLAN_INVALID, Code.InvalidArgument);
      const path = plan === "" ? checkPath(req.path) : "";
      const em = callEm(ctx);
      const user = await callerAccount(em, ctx);
      const { secret, token } = createAccountToken(em, user, "magic-link", config.MAGIC_LINK_TTL_SECONDS);
      await em.flush();
      const base = `${config.WEB_BASE_URL}/magic-link/${secret}`;
      const link =
        plan === "" ? `${base}/${encodeURIComponent(path)}` : `${base}/subscribe-plan/${encodeURIComponent(plan)}`;
      return { shortLivedToken: secret, link, expiresAt: timestampFromDate(token.expiresAt) };
    },

    async validateMagicLink(req, ctx) {
      const userAgent = callUserAgent(ctx);
      return callEm(ctx).transactional(async (em) => {
        const token = await spendAccountToken(em, req.token, "magic-link");
        if (!token) throw new ConnectError(MAGIC_LINK_INVALID, Code.Unauthenticated);
        const { issued } = await startSession(em, svc.tokens, token.user, userAgent);
        await em.flush();
        return { user: await view(em, token.user), accessToken: toAccessTokenMessage(issued) };
      });
    },
  };
}
