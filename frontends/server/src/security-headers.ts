// The security headers of the web apps (issue 9 defect 9): a Content-Security-Policy derived from the
// configuration, no framing by other sites, a referrer policy and nosniff on every file, HSTS over TLS.
// The same policy is sent by this server (all-in-one), by the web image's nginx and by the chart's nginx
// (deploy/helm/turntable/templates/_security-headers.tpl); tests compare them.
//
// What the policy allows, and why:
// - scripts only from the site and from the remotes' origins: webpack and the Module Federation runtime load
//   remoteEntry.js and chunks with <script src>, never eval or inline script, and the remotes listed in
//   /remotes.json may live on another origin (their manifests are fetched, so their origins are in
//   connect-src too);
// - styles from the same origins: mini-css-extract-plugin emits files loaded with <link>, and React's style
//   props go through the CSSOM, which CSP does not govern, so no 'unsafe-inline';
// - images from the site, data: and blob: URLs and the media origin (MEDIA_BASE_URL may be an S3 bucket or a
//   CDN); media and workers from blob: too (hls.js builds a MediaSource and may run a worker);
// - the players of the outside providers (YouTube, SoundCloud, Spotify, Apple Music) when configured: their
//   scripts, frames, images, media and API origins (PLAYER_SOURCES), plus free extra sources per directive for
//   anything else.
import type { IncomingHttpHeaders } from "node:http";
// The kit's runtime-config module alone: its main entry would load React into the server.
import { AGORA_APP_ID, parseRuntimeConfig, type RemoteEntry, type ServiceUrls } from "@tt/web-kit/runtime-config";

/** One year; subdomains are the operator's business, so they are not included. */
export const HSTS_VALUE = "max-age=31536000";

export type ExtraDirective = "script" | "style" | "img" | "media" | "connect" | "frame" | "font";
export const EXTRA_DIRECTIVES: readonly ExtraDirective[] = [
  "script",
  "style",
  "img",
  "media",
  "connect",
  "frame",
  "font",
];

/** The sources each provider's embedded player needs: its loader script, its iframe, artwork and API. */
export const PLAYER_SOURCES = {
  youtube: {
    script: ["https://www.youtube.com"],
    frame: ["https://www.youtube.com", "https://www.youtube-nocookie.com"],
    img: ["https://i.ytimg.com"],
  },
  soundcloud: {
    script: ["https://w.soundcloud.com"],
    frame: ["https://w.soundcloud.com"],
    img: ["https://*.sndcdn.com"],
  },
  spotify: {
    script: ["https://open.spotify.com", "https://sdk.scdn.co"],
    frame: ["https://open.spotify.com", "https://sdk.scdn.co"],
    img: ["https://i.scdn.co"],
    connect: ["https://api.spotify.com"],
  },
  // MusicKit JS: its script, the Apple Music API and the playback and licence hosts, artwork, and the audio.
  apple: {
    script: ["https://js-cdn.music.apple.com"],
    img: ["https://*.mzstatic.com"],
    media: ["https://*.itunes.apple.com"],
    connect: ["https://api.music.apple.com", "https://*.itunes.apple.com", "https://*.music.apple.com"],
  },
} as const satisfies Record<string, Partial<Record<ExtraDirective, readonly string[]>>>;

/**
 * What the Agora Web SDK (a room's live audio) connects to when the deployment configures Agora: its gateway and
 * edge servers and statistics over HTTPS and WebSocket (the audio itself is WebRTC, which CSP does not govern).
 */
export const AGORA_SOURCES = {
  connect: ["https://*.agora.io", "wss://*.agora.io", "https://*.sd-rtn.com", "wss://*.sd-rtn.com"],
} as const satisfies Partial<Record<ExtraDirective, readonly string[]>>;

export type PlayerName = keyof typeof PLAYER_SOURCES;
export const PLAYER_NAMES = Object.keys(PLAYER_SOURCES) as PlayerName[];

/** The provider variables whose presence turns a player on when WEB_PLAYERS is not set. */
const PLAYER_PROVIDER_VARIABLES: Record<PlayerName, string> = {
  youtube: "GOOGLE_CLIENT_ID",
  soundcloud: "SOUNDCLOUD_CLIENT_ID",
  spotify: "SPOTIFY_CLIENT_ID",
  // The MusicKit key the developer token is signed with (apple-music-token in @tt/providers).
  apple: "APPLE_MUSIC_KEY_ID",
};

export interface ContentSecurityOptions {
  /** The remotes the shell loads (/remotes.json): an entry on another origin adds that origin. */
  remotes?: readonly RemoteEntry[];
  /** The services' base URLs (/remotes.json "services", WEB_SERVICE_URLS): each origin is added to connect-src. */
  services?: ServiceUrls;
  /** MEDIA_BASE_URL: a full URL adds its origin to img-src, media-src and connect-src. */
  mediaBaseUrl?: string;
  /** The providers whose players the pages may embed. */
  players?: readonly PlayerName[];
  /** More sources per directive (an API on another origin goes in connect). */
  extra?: Partial<Record<ExtraDirective, readonly string[]>>;
  /**
   * The Agora app id (AGORA_APP_ID, the user service's): the pages' rooms may join their live audio, so
   * /remotes.json carries it and Agora's servers join connect-src.
   */
  agoraAppId?: string;
}

/** A source the configuration may add: scheme://host[:port][/path], the host may start with "*.". */
const SOURCE = /^(?:https?|wss?):\/\/(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::\d{1,5})?(?:\/[\w\-./~%]*)?$/i;

/** The origin that serves a URL, as a CSP source; undefined for a site-relative URL (the site itself). */
function originOf(url: string): string | undefined {
  if (url.startsWith("//")) {
    // Protocol-relative: a host source without a scheme takes the page's.
    const host = /^\/\/([^/?#]+)/.exec(url)?.[1];
    return host && SOURCE.test(`https://${host}`) ? host.toLowerCase() : undefined;
  }
  if (!/^[a-z][a-z0-9+.-]*:/i.test(url)) return undefined;
  try {
    const { protocol, origin } = new URL(url);
    return (protocol === "http:" || protocol === "https:") && SOURCE.test(origin) ? origin : undefined;
  } catch {
    return undefined;
  }
}

function unique(values: Iterable<string | undefined>): string[] {
  return [...new Set([...values].filter((value): value is string => value !== undefined && value !== ""))];
}

/** The Content-Security-Policy of the web apps for this configuration. */
export function contentSecurityPolicy(options: ContentSecurityOptions = {}): string {
  const remoteOrigins = unique((options.remotes ?? []).map((remote) => originOf(remote.entry)));
  const mediaOrigin = options.mediaBaseUrl ? originOf(options.mediaBaseUrl) : undefined;
  const serviceOrigins = Object.values(options.services ?? {}).map(originOf);
  const sources = (directive: ExtraDirective): string[] => [
    ...(options.players ?? []).flatMap((player) => {
      const preset: Partial<Record<ExtraDirective, readonly string[]>> = PLAYER_SOURCES[player];
      return preset[directive] ?? [];
    }),
    ...(options.agoraAppId
      ? ((AGORA_SOURCES as Partial<Record<ExtraDirective, readonly string[]>>)[directive] ?? [])
      : []),
    ...(options.extra?.[directive] ?? []),
  ];
  const directives: [string, (string | undefined)[]][] = [
    ["default-src", ["'self'"]],
    ["script-src", ["'self'", ...remoteOrigins, ...sources("script")]],
    ["style-src", ["'self'", ...remoteOrigins, ...sources("style")]],
    ["img-src", ["'self'", "data:", "blob:", mediaOrigin, ...remoteOrigins, ...sources("img")]],
    ["media-src", ["'self'", "blob:", mediaOrigin, ...sources("media")]],
    ["font-src", ["'self'", ...remoteOrigins, ...sources("font")]],
    ["connect-src", ["'self'", ...remoteOrigins, ...serviceOrigins, mediaOrigin, ...sources("connect")]],
    ["worker-src", ["'self'", "blob:"]],
    ["frame-src", ["'self'", ...sources("frame")]],
    ["manifest-src", ["'self'"]],
    ["object-src", ["'none'"]],
    ["base-uri", ["'self'"]],
    ["form-action", ["'self'"]],
    ["frame-ancestors", ["'none'"]],
  ];
  return directives.map(([name, values]) => `${name} ${unique(values).join(" ")}`).join("; ");
}

/** Whether the request came over TLS: a TLS socket, or a proxy (the Ingress) saying x-forwarded-proto: https. */
function overTls(req: { headers: IncomingHttpHeaders; socket?: object | null }): boolean {
  if ((req.socket as { encrypted?: boolean } | null | undefined)?.encrypted === true) return true;
  const proto = req.headers["x-forwarded-proto"];
  return (Array.isArray(proto) ? proto[0] : proto)?.split(",")[0]?.trim().toLowerCase() === "https";
}

/**
 * HSTS when the request came over TLS. Trusting x-forwarded-proto is safe without a trusted proxy: browsers
 * ignore Strict-Transport-Security on an answer that did not come over TLS (RFC 6797 §8.1).
 */
export function strictTransportSecurity(req: {
  headers: IncomingHttpHeaders;
  socket?: object | null;
}): string | undefined {
  return overTls(req) ? HSTS_VALUE : undefined;
}

/** Headers of an HTML page: the policy, no framing (frame-ancestors and X-Frame-Options for old browsers). */
export function pageSecurityHeaders(policy: string): Record<string, string> {
  return {
    "Content-Security-Policy": policy,
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Content-Type-Options": "nosniff",
  };
}

/** Headers of every other file (scripts, styles, manifests, remotes.json). */
export const FILE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Content-Type-Options": "nosniff",
};

function listOf(value: string | undefined): string[] {
  return (value ?? "")
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/** WEB_SERVICE_URLS (name=url, comma-separated) under the rules the web kit applies to /remotes.json. */
function parseServiceUrls(value: string | undefined): ServiceUrls | undefined {
  const pairs = listOf(value);
  if (pairs.length === 0) return undefined;
  const services: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new Error(`WEB_SERVICE_URLS: "${pair}" is not name=url (user=http://localhost:8081)`);
    services[pair.slice(0, at)] = pair.slice(at + 1);
  }
  try {
    return parseRuntimeConfig({ services }).services;
  } catch (error) {
    throw new Error(`WEB_SERVICE_URLS: ${(error as Error).message.replace(/^remotes\.json /, "")}`, {
      cause: error,
    });
  }
}

/**
 * The policy's configuration from the environment; throws at start on a malformed value, naming the variable.
 * - WEB_PLAYERS: comma-separated players (youtube, soundcloud, spotify, apple) the pages may embed; unset: each
 *   player whose provider is configured (GOOGLE_CLIENT_ID, SOUNDCLOUD_CLIENT_ID, SPOTIFY_CLIENT_ID,
 *   APPLE_MUSIC_KEY_ID); empty: none.
 * - CSP_SCRIPT_SRC, CSP_STYLE_SRC, CSP_IMG_SRC, CSP_MEDIA_SRC, CSP_CONNECT_SRC, CSP_FRAME_SRC, CSP_FONT_SRC:
 *   extra sources (scheme://host[:port][/path], space- or comma-separated).
 * - MEDIA_BASE_URL: the media's public base URL (its origin when it is a full URL).
 * - WEB_SERVICE_URLS: services whose API is not on the site's origin, name=base URL, comma-separated
 *   (user=http://localhost:8081): served in /remotes.json for the web kit, and their origins join connect-src.
 * - AGORA_APP_ID: the user service's Agora app id; set, /remotes.json carries it (rooms' live audio) and Agora's
 *   servers join connect-src.
 */
export function loadContentSecurityOptions(
  env: Record<string, string | undefined>,
  remotes?: readonly RemoteEntry[],
): ContentSecurityOptions {
  const requested = env["WEB_PLAYERS"];
  const players =
    requested === undefined
      ? PLAYER_NAMES.filter((player) => (env[PLAYER_PROVIDER_VARIABLES[player]] ?? "") !== "")
      : listOf(requested).map((name) => {
          if (!(PLAYER_NAMES as string[]).includes(name)) {
            throw new Error(`WEB_PLAYERS: unknown player "${name}"; known: ${PLAYER_NAMES.join(", ")}`);
          }
          return name as PlayerName;
        });
  const extra: Partial<Record<ExtraDirective, string[]>> = {};
  for (const directive of EXTRA_DIRECTIVES) {
    const variable = `CSP_${directive.toUpperCase()}_SRC`;
    const values = listOf(env[variable]);
    for (const value of values) {
      if (!SOURCE.test(value)) {
        throw new Error(
          `${variable}: "${value}" is not a source; give scheme://host[:port][/path] (https://x.example)`,
        );
      }
    }
    if (values.length > 0) extra[directive] = values;
  }
  const mediaBaseUrl = env["MEDIA_BASE_URL"];
  const services = parseServiceUrls(env["WEB_SERVICE_URLS"]);
  const agoraAppId = env["AGORA_APP_ID"]?.trim() || undefined;
  if (agoraAppId !== undefined && !AGORA_APP_ID.test(agoraAppId)) {
    throw new Error("AGORA_APP_ID: must be the 32 hexadecimal characters from the Agora console");
  }
  return {
    ...(remotes ? { remotes } : {}),
    ...(services ? { services } : {}),
    ...(mediaBaseUrl ? { mediaBaseUrl } : {}),
    players,
    extra,
    ...(agoraAppId ? { agoraAppId } : {}),
  };
}
