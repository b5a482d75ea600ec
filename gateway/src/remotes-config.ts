// /remotes.json in a cluster (and in local distributed mode): the shell's remote configuration from the file the
// chart mounts (REMOTES_CONFIG), with what the all-in-one's frontend server adds (issue 14): the outside players the
// live room may load, the deployment's brand, and, while "apple" is among the players and the MusicKit key is
// configured, the current Apple Music developer token ({ appleMusic: { developerToken, expiresAt } }; the issuer
// keeps one token and re-mints it before it expires).
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";

type Request = IncomingMessage | Http2ServerRequest;
type Response = ServerResponse | Http2ServerResponse;

export interface RemotesConfigOptions {
  /** The remotes manifest (REMOTES_CONFIG): an array of remotes, or { remotes, services }. */
  file: string;
  brand?: string;
  players?: readonly string[];
  /** The Agora app id (AGORA_APP_ID, the user service's): rooms with live audio join their voice channel. */
  agoraAppId?: string;
  appleMusicToken?: () => Promise<{ token: string; expiresAt: Date }>;
}

/** Serves the runtime configuration; the file is read once at start so a broken mount fails the start, not the page. */
export async function createRemotesHandler(
  options: RemotesConfigOptions,
): Promise<(req: Request, res: Response) => boolean> {
  const text = await readFile(options.file, "utf8");
  const parsed = JSON.parse(text) as unknown; // only to refuse a malformed file now; the shell validates the entries
  const players = options.players ?? [];
  const extras = {
    ...(players.length > 0 ? { players } : {}),
    ...(options.brand ? { brand: options.brand } : {}),
    ...(options.agoraAppId ? { agoraAppId: options.agoraAppId } : {}),
  };
  const base: unknown =
    Object.keys(extras).length === 0
      ? parsed
      : { ...(Array.isArray(parsed) ? { remotes: parsed, services: {} } : (parsed as object)), ...extras };
  const fixed = Buffer.from(Object.keys(extras).length === 0 ? text : JSON.stringify(base));
  const appleMusicToken = players.includes("apple") ? options.appleMusicToken : undefined;

  const body = async (): Promise<Buffer> => {
    if (!appleMusicToken) return fixed;
    try {
      const current = await appleMusicToken();
      return Buffer.from(
        JSON.stringify({
          ...(base as object),
          appleMusic: { developerToken: current.token, expiresAt: current.expiresAt.toISOString() },
        }),
      );
    } catch {
      // Without a token the page reports the missing configuration (spec 002 §8); everything else works.
      return fixed;
    }
  };

  return (req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/remotes.json" || (req.method !== "GET" && req.method !== "HEAD")) return false;
    void body().then((answer) => {
      (res as ServerResponse).writeHead(200, {
        "content-type": "application/json; charset=utf-8",
        "content-length": String(answer.length),
        // A new release changes the list, and the token is re-minted: the shell must not keep a stale one.
        "cache-control": "no-cache",
      });
      if (req.method === "HEAD") res.end();
      else res.end(answer);
    });
    return true;
  };
}
