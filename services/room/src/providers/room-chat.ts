// The room's chat group on the chat platform (CometChat), next to the user service's CometChat users and tokens
// (services/user/src/providers/comet-chat.ts, which has no groups): a group per room (guid = the room's uuid)
// whose members carry the scope their room roles give, banned users banned. A real client in CometChat's REST v3
// shapes and a development one that keeps the groups in memory (the default: no credentials, no internet).
import { z } from "zod";
import { optionalEnvString, parseEnv, unsetIfEmpty } from "@tt/kit";
import { cometChatHost, createCometChatRest, ProviderError, type CometChatRestOptions } from "@tt/providers";

export type ChatScope = "admin" | "moderator" | "participant";

export interface ChatMember {
  uid: string;
  scope: ChatScope;
}

export interface RoomChat {
  /** Creates the group when missing, sets the members' scopes and bans the banned users. */
  syncGroup(
    group: { guid: string; name: string },
    members: readonly ChatMember[],
    banned: readonly string[],
  ): Promise<void>;
  /** Creates the group when missing and adds one member with a scope. */
  joinGroup(group: { guid: string; name: string }, member: ChatMember): Promise<void>;
}

export const roomChatConfigSchema = z.object({
  /** Both set: the real CometChat client; otherwise the development one. */
  COMETCHAT_APP_ID: optionalEnvString,
  COMETCHAT_API_KEY: optionalEnvString,
  COMETCHAT_REGION: z.preprocess(unsetIfEmpty, z.enum(["us", "eu", "in"]).default("us")),
  /** Overrides https://{appId}.api-{region}.cometchat.io (tests, proxies). */
  COMETCHAT_BASE_URL: z.preprocess(unsetIfEmpty, z.url().optional()),
  COMETCHAT_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
});

export type RoomChatConfig = z.output<typeof roomChatConfigSchema>;

export function loadRoomChatConfig(env: Record<string, string | undefined>): RoomChatConfig {
  return parseEnv(roomChatConfigSchema, env);
}

export type HttpRoomChatOptions = CometChatRestOptions;

const GROUP_EXISTS = "ERR_GUID_ALREADY_EXISTS";

/** CometChat REST v3: POST /groups, POST /groups/{guid}/members, POST /groups/{guid}/bannedusers/{uid}. */
export function createHttpRoomChat(options: HttpRoomChatOptions): RoomChat {
  const { post } = createCometChatRest(options);
  async function ensureGroup(group: { guid: string; name: string }): Promise<void> {
    try {
      await post("/groups", { guid: group.guid, name: group.name, type: "public" });
    } catch (error) {
      if (error instanceof ProviderError && error.reason === GROUP_EXISTS) return;
      throw error;
    }
  }
  const path = (guid: string) => `/groups/${encodeURIComponent(guid)}`;
  function membersBody(members: readonly ChatMember[]) {
    const of = (scope: ChatScope) => members.filter((m) => m.scope === scope).map((m) => m.uid);
    return { admins: of("admin"), moderators: of("moderator"), participants: of("participant") };
  }
  return {
    async syncGroup(group, members, banned) {
      await ensureGroup(group);
      if (members.length > 0) await post(`${path(group.guid)}/members`, membersBody(members));
      for (const uid of banned) await post(`${path(group.guid)}/bannedusers/${encodeURIComponent(uid)}`, {});
    },
    async joinGroup(group, member) {
      await ensureGroup(group);
      await post(`${path(group.guid)}/members`, membersBody([member]));
    },
  };
}

/** The development chat: groups kept in memory, readable by tests. */
export interface DevRoomChat extends RoomChat {
  groups: Map<string, { name: string; members: Map<string, ChatScope>; banned: Set<string> }>;
}

export function createDevRoomChat(): DevRoomChat {
  const groups: DevRoomChat["groups"] = new Map();
  const groupOf = (g: { guid: string; name: string }) => {
    let group = groups.get(g.guid);
    if (!group) {
      group = { name: g.name, members: new Map(), banned: new Set() };
      groups.set(g.guid, group);
    }
    return group;
  };
  return {
    groups,
    async syncGroup(g, members, banned) {
      const group = groupOf(g);
      for (const m of members) group.members.set(m.uid, m.scope);
      for (const uid of banned) {
        group.members.delete(uid);
        group.banned.add(uid);
      }
    },
    async joinGroup(g, member) {
      groupOf(g).members.set(member.uid, member.scope);
    },
  };
}

/** The real client when CometChat is configured, the development one otherwise. */
export function createRoomChat(config: RoomChatConfig): { chat: RoomChat; mode: "cometchat" | "dev" } {
  if (config.COMETCHAT_APP_ID && config.COMETCHAT_API_KEY) {
    const baseUrl = config.COMETCHAT_BASE_URL ?? cometChatHost(config.COMETCHAT_APP_ID, config.COMETCHAT_REGION);
    return {
      chat: createHttpRoomChat({
        baseUrl: baseUrl.replace(/\/+$/, ""),
        appId: config.COMETCHAT_APP_ID,
        apiKey: config.COMETCHAT_API_KEY,
        timeoutMs: config.COMETCHAT_TIMEOUT_MS,
      }),
      mode: "cometchat",
    };
  }
  return { chat: createDevRoomChat(), mode: "dev" };
}
