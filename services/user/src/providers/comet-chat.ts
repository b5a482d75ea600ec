// CometChat users and auth tokens for room chat (spec 000: /comet-chat/create-users, /user-token,
// /ghost-token). Guests share one read-only "ghost" CometChat user, so a guest visit creates nothing.
import { createCometChatRest, type CometChatRestOptions } from "@tt/providers";
import { notConfigured, ProviderError } from "./provider-error.ts";
import { isRecord, requireString } from "./provider-http.ts";

export interface CometChatUser {
  uid: string;
  name: string;
  avatar?: string;
}

export interface CometChatToken {
  uid: string;
  authToken: string;
}

export interface CometChat {
  /** Creates each user; users that already exist are reported, not treated as errors. */
  createUsers(users: readonly CometChatUser[]): Promise<{ created: string[]; existing: string[] }>;
  /** A new auth token for an existing user; ProviderError status 404 when CometChat has no such user. */
  userToken(uid: string): Promise<CometChatToken>;
  /** The shared guest user's token: the user is created on first use and the token cached. */
  ghostToken(): Promise<CometChatToken>;
}

/** `apiKey`: a REST API key with auth-only or full access. */
export interface HttpCometChatOptions extends CometChatRestOptions {
  ghostUid: string;
}

const UID_EXISTS = "ERR_UID_ALREADY_EXISTS";

export function createHttpCometChat(options: HttpCometChatOptions): CometChat {
  const { post } = createCometChatRest(options);

  async function create(user: CometChatUser): Promise<"created" | "existing"> {
    try {
      await post("/users", { uid: user.uid, name: user.name, ...(user.avatar ? { avatar: user.avatar } : {}) });
      return "created";
    } catch (error) {
      if (error instanceof ProviderError && error.reason === UID_EXISTS) return "existing";
      throw error;
    }
  }

  async function userToken(uid: string): Promise<CometChatToken> {
    const body = await post(`/users/${encodeURIComponent(uid)}/auth_tokens`, { force: false });
    const data = isRecord(body) ? body.data : undefined;
    return { uid, authToken: requireString("comet-chat", data, "authToken") };
  }

  let ghost: Promise<CometChatToken> | undefined;
  return {
    async createUsers(users) {
      const created: string[] = [];
      const existing: string[] = [];
      // One at a time: CometChat rate-limits per app, and a batch of profiles is small.
      for (const user of users) {
        if ((await create(user)) === "created") created.push(user.uid);
        else existing.push(user.uid);
      }
      return { created, existing };
    },
    userToken,
    ghostToken() {
      ghost ??= create({ uid: options.ghostUid, name: "Guest" })
        .then(() => userToken(options.ghostUid))
        .catch((error: unknown) => {
          ghost = undefined;
          throw error;
        });
      return ghost;
    },
  };
}

export function createDevCometChat(): CometChat {
  const unavailable = () => Promise.reject(notConfigured("comet-chat", "Chat (CometChat)"));
  return { createUsers: unavailable, userToken: unavailable, ghostToken: unavailable };
}
