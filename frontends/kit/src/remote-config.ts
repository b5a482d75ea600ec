// The page's runtime configuration, /remotes.json: which remotes the shell loads and, optionally, where each
// service's API lives (spec 002 §1: each service's prefix can be redirected, e.g. to a local port in
// development). Two forms are accepted:
//   [{ "name": "room", "entry": "/remotes/room/mf-manifest.json" }, …]            remotes only
//   { "remotes": [ … ], "services": { "user": "http://localhost:8081" } }       remotes and service base URLs
// A service missing from "services" is on the page's own origin (/api/<name>-service/…, /tt.<name>.v1.X/…).

/** One remote in /remotes.json: its federation name and where its manifest (or remoteEntry.js) is. */
export interface RemoteEntry {
  name: string;
  entry: string;
}

/**
 * Base URL per service: the key is a service's name ("user", from its proto package tt.user.v1) or one proto
 * service's full name ("tt.user.v1.AuthService", which wins over its package's name).
 */
export type ServiceUrls = Record<string, string>;

export interface RuntimeConfig {
  remotes: RemoteEntry[];
  services: ServiceUrls;
  /** The outside players the deployment configured (youtube, spotify, apple, soundcloud): the live room loads only these. */
  players?: string[];
  /** The deployment's brand ("hangout" plays by its own provider priority, spec 002 §9); absent: the default. */
  brand?: string;
  /**
   * The Agora app id when the deployment configures Agora (AGORA_APP_ID, as the user service signs its tokens
   * with): rooms with live audio then join their voice channel; absent: live audio is unavailable.
   */
  agoraAppId?: string;
  /**
   * The Apple Music developer token MusicKit JS is configured with, while the deployment plays Apple Music (issue
   * 14: signed by the server that answers /remotes.json, which re-mints it before `expiresAt`).
   */
  appleMusic?: { developerToken: string; expiresAt?: string };
}

export const REMOTES_CONFIG_PATH = "/remotes.json";

/** http(s)://host[:port][/path] or a site path (/dev/user); never //host, which would leave the site. */
const BASE_URL = /^(?:https?:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::\d{1,5})?|(?=\/[\w\-.~%]))(?:\/[\w\-.~%]+)*\/?$/i;
/** An Agora app id, as the Agora console shows it (the user service checks AGORA_APP_ID the same way). */
export const AGORA_APP_ID = /^[0-9a-fA-F]{32}$/;
const SERVICE_KEY = /^(?:[a-z][a-z0-9_]*|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)$/;

/** Validates /remotes.json, so that a broken configuration fails with a message, not deep in the runtime. */
export function parseRemoteConfig(value: unknown): RemoteEntry[] {
  if (!Array.isArray(value)) throw new Error("remotes.json must be a JSON array");
  return value.map((item, index) => {
    const record = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
    const { name, entry } = record;
    if (typeof name !== "string" || !/^[a-z][a-z0-9_]*$/.test(name)) {
      throw new Error(`remotes.json[${index}].name must be a lower-case identifier`);
    }
    if (typeof entry !== "string" || entry === "") throw new Error(`remotes.json[${index}].entry must be a URL`);
    return { name, entry };
  });
}

/** Either form of /remotes.json; the base URLs lose a trailing slash. */
export function parseRuntimeConfig(value: unknown): RuntimeConfig {
  if (Array.isArray(value)) return { remotes: parseRemoteConfig(value), services: {} };
  if (typeof value !== "object" || value === null) {
    throw new Error('remotes.json must be a JSON array or an object { "remotes": [], "services": {} }');
  }
  const { remotes = [], services = {}, players, brand, agoraAppId, appleMusic } = value as Record<string, unknown>;
  if (
    players !== undefined &&
    (!Array.isArray(players) || !players.every((name) => typeof name === "string" && /^[a-z][a-z0-9]*$/.test(name)))
  ) {
    throw new Error("remotes.json players must be a list of player names");
  }
  if (brand !== undefined && (typeof brand !== "string" || !/^[a-z][a-z0-9-]*$/.test(brand))) {
    throw new Error("remotes.json brand must be a lower-case name");
  }
  if (agoraAppId !== undefined && (typeof agoraAppId !== "string" || !AGORA_APP_ID.test(agoraAppId))) {
    throw new Error("remotes.json agoraAppId must be the 32 hexadecimal characters of an Agora app id");
  }
  const apple = (appleMusic ?? {}) as { developerToken?: unknown; expiresAt?: unknown };
  if (
    appleMusic !== undefined &&
    (typeof appleMusic !== "object" ||
      appleMusic === null ||
      typeof apple.developerToken !== "string" ||
      !/^[\w-]+\.[\w-]+\.[\w-]+$/.test(apple.developerToken) ||
      (apple.expiresAt !== undefined &&
        (typeof apple.expiresAt !== "string" || Number.isNaN(Date.parse(apple.expiresAt)))))
  ) {
    throw new Error("remotes.json appleMusic must be { developerToken: a JWT, expiresAt?: a date }");
  }
  if (typeof services !== "object" || services === null || Array.isArray(services)) {
    throw new Error("remotes.json services must be an object of service name to base URL");
  }
  const urls: ServiceUrls = {};
  for (const [key, url] of Object.entries(services)) {
    if (!SERVICE_KEY.test(key)) throw new Error(`remotes.json services: "${key}" is not a service name`);
    if (typeof url !== "string" || !BASE_URL.test(url)) {
      throw new Error(`remotes.json services.${key} must be an http(s) URL or a path`);
    }
    urls[key] = url.replace(/\/+$/, "");
  }
  return {
    remotes: parseRemoteConfig(remotes),
    services: urls,
    ...(players ? { players: players as string[] } : {}),
    ...(brand ? { brand: brand as string } : {}),
    ...(agoraAppId ? { agoraAppId: agoraAppId as string } : {}),
    ...(appleMusic
      ? {
          appleMusic: {
            developerToken: apple.developerToken as string,
            ...(apple.expiresAt ? { expiresAt: apple.expiresAt as string } : {}),
          },
        }
      : {}),
  };
}

/** The service a proto service belongs to: tt.<name>.v<n>.<Service> → <name>. */
export function serviceNameOf(typeName: string): string | undefined {
  return /^tt\.([a-z][a-z0-9_]*)\.v\d+\w*\.\w+$/.exec(typeName)?.[1];
}

/**
 * Where a service's API is: its full proto name in the map, else its name (the package's), else `fallback`
 * (the page's origin).
 */
export function serviceBaseUrl(service: string, services: ServiceUrls, fallback: string): string {
  return services[service] ?? services[serviceNameOf(service) ?? ""] ?? fallback;
}

/** A REST path of a service: /api/<name>-service<path> under its base URL. */
export function serviceRestUrl(service: string, path: string, services: ServiceUrls, fallback: string): string {
  return `${serviceBaseUrl(service, services, fallback)}/api/${service}-service${path.startsWith("/") ? "" : "/"}${path}`;
}

let loading: Promise<RuntimeConfig> | undefined;

/**
 * /remotes.json, fetched once per page (the shell and the kit share it); a failure is fetched again next time, and
 * `fresh` fetches it again for everyone (a token in it is about to expire).
 */
export function loadRuntimeConfig(url: string = REMOTES_CONFIG_PATH, fresh = false): Promise<RuntimeConfig> {
  if (!loading || fresh) {
    loading = (async () => {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      return parseRuntimeConfig(await response.json());
    })();
    loading.catch(() => (loading = undefined));
  }
  return loading;
}
