// Voice/video (Agora) and chat (CometChat) tokens.
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { ProviderTokenService } from "@tt/proto/tt/user/v1/provider_token_service_pb";
import { checkUuid } from "@tt/kit";
import { callProvider } from "@tt/providers";
import { Profile } from "../modules/profiles/profile.entity.ts";
import { User } from "../modules/users/user.entity.ts";
import { AGORA_MAX_TTL_SECONDS, isUnauthorized, type CometChatUser } from "../providers/index.ts";
import type { UserServiceContext } from "../user-context.ts";
import { callEm, callIdentity } from "./call.ts";

const AGORA = "Voice and video (Agora)";
const COMETCHAT = "Chat (CometChat)";
const AGORA_DEFAULT_TTL_SECONDS = 3600;
const AGORA_MIN_TTL_SECONDS = 60;
const MAX_CHAT_USERS = 100;

export function chatRoutes(svc: UserServiceContext): Partial<ServiceImpl<typeof ProviderTokenService>> {
  const { agora, cometChat } = svc.providers;

  return {
    async createAgoraToken(req, ctx) {
      const uid = callIdentity(ctx).subject;
      const channel = req.channel.trim();
      if (channel === "") throw new ConnectError("channel is required", Code.InvalidArgument);
      if (req.role !== "PUBLISHER" && req.role !== "SUBSCRIBER") {
        throw new ConnectError("role must be PUBLISHER or SUBSCRIBER", Code.InvalidArgument);
      }
      const ttlSeconds = req.ttlSeconds === 0 ? AGORA_DEFAULT_TTL_SECONDS : req.ttlSeconds;
      if (ttlSeconds < AGORA_MIN_TTL_SECONDS || ttlSeconds > AGORA_MAX_TTL_SECONDS) {
        throw new ConnectError(
          `ttlSeconds must be from ${AGORA_MIN_TTL_SECONDS} to ${AGORA_MAX_TTL_SECONDS}`,
          Code.InvalidArgument,
        );
      }
      let token;
      try {
        token = await callProvider(AGORA, () =>
          agora.rtcToken({ channel, uid, role: req.role as "PUBLISHER", ttlSeconds }),
        );
      } catch (error) {
        // The signer's own input checks (Agora's channel alphabet, 64 characters).
        if (error instanceof RangeError)
          throw new ConnectError(error.message, Code.InvalidArgument, undefined, undefined, error);
        throw error;
      }
      return { token: token.token, appId: token.appId, uid, channel, expiresAt: timestampFromDate(token.expiresAt) };
    },

    async getCometChatUserToken(_req, ctx) {
      const uid = callIdentity(ctx).subject;
      const em = callEm(ctx);
      const token = await callProvider(COMETCHAT, async () => {
        try {
          return await cometChat.userToken(uid);
        } catch (error) {
          // First use: CometChat has no such user yet (404); create it with the profile's name, once.
          if (!isUnauthorized(error, [404])) throw error;
          const profile = await em.findOne(Profile, { user: uid });
          await cometChat.createUsers([{ uid, name: profile?.nickname ?? "user" }]);
          return cometChat.userToken(uid);
        }
      });
      return { uid: token.uid, authToken: token.authToken };
    },

    async getCometChatGhostToken() {
      const token = await callProvider(COMETCHAT, () => cometChat.ghostToken());
      return { uid: token.uid, authToken: token.authToken };
    },

    async createCometChatUsers(req, ctx) {
      if (req.uuids.length === 0 || req.uuids.length > MAX_CHAT_USERS) {
        throw new ConnectError(`uuids must list 1 to ${MAX_CHAT_USERS} users`, Code.InvalidArgument);
      }
      const uuids = [...new Set(req.uuids.map((id) => checkUuid(id, "uuids")))];
      const em = callEm(ctx);
      const users = await em.find(User, { id: { $in: uuids } });
      const profiles = await em.find(Profile, { user: { $in: users.map((user) => user.id) } });
      const names = new Map(profiles.map((profile) => [profile.user.id, profile.nickname]));
      const known = new Set(users.map((user) => user.id));
      const toCreate: CometChatUser[] = uuids
        .filter((id) => known.has(id))
        .map((id) => ({ uid: id, name: names.get(id) ?? "user" }));
      const result =
        toCreate.length === 0
          ? { created: [], existing: [] }
          : await callProvider(COMETCHAT, () => cometChat.createUsers(toCreate));
      return { created: result.created, existing: result.existing, unknown: uuids.filter((id) => !known.has(id)) };
    },
  };
}
