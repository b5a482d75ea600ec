// CometChat's REST API v3 as the services that call it share it: the user service (users and their auth tokens) and
// the room service (a chat group per room). One app's id and REST key in the headers, JSON bodies, and every failure
// a ProviderError of "comet-chat" whose reason is CometChat's error code (`ERR_UID_ALREADY_EXISTS`, …). Each service
// keeps its own calls and what their codes mean to it.
import { requestJson } from "./provider-http.ts";

export interface CometChatRestOptions {
  /** https://{appId}.api-{region}.cometchat.io (cometChatHost), or a fake's or a proxy's URL; no trailing slash. */
  baseUrl: string;
  appId: string;
  /** A REST API key; it never leaves the server. */
  apiKey: string;
  timeoutMs: number;
}

export interface CometChatRest {
  /** POST {baseUrl}/v3{path} with `json` as the body; the parsed answer, or a ProviderError. */
  post(path: string, json: unknown): Promise<unknown>;
}

export function createCometChatRest(options: CometChatRestOptions): CometChatRest {
  const headers = { appid: options.appId, apikey: options.apiKey };
  return {
    post: (path, json) =>
      requestJson({
        provider: "comet-chat",
        method: "POST",
        url: `${options.baseUrl}/v3${path}`,
        headers,
        json,
        timeoutMs: options.timeoutMs,
      }),
  };
}

/** CometChat's REST host of an app in a region (`us`, `eu`, `in`). */
export function cometChatHost(appId: string, region: string): string {
  return `https://${encodeURIComponent(appId)}.api-${region}.cometchat.io`;
}
