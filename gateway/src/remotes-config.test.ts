// /remotes.json as the gateway serves it in a cluster (issue 14): the chart's file plus the players, the brand and
// the Apple Music developer token, signed with the MusicKit key and verified here with its public key.
import { generateKeyPairSync, verify, type KeyObject } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAppleMusicTokenIssuer } from "@tt/providers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRemotesHandler, type RemotesConfigOptions } from "./remotes-config.ts";

const REMOTES = [{ name: "room", entry: "/remotes/room/mf-manifest.json" }];

/** A compact ES256 JWS checked with node:crypto alone: its header and payload, or a throw when the signature fails. */
function verifyEs256(token: string, publicKey: KeyObject) {
  const [header = "", payload = "", signature = ""] = token.split(".");
  const signed = verify(
    "sha256",
    Buffer.from(`${header}.${payload}`),
    { key: publicKey, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  if (!signed) throw new Error("bad signature");
  const json = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString()) as Record<string, unknown>;
  return {
    header: json(header),
    payload: json(payload) as { iss: string; iat: number; exp: number; origin?: string[] },
  };
}

describe("the gateway's /remotes.json (issue 14)", () => {
  let dir: string;
  let file: string;
  const servers: Server[] = [];

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "tt-remotes-"));
    file = path.join(dir, "remotes.json");
    writeFileSync(file, JSON.stringify(REMOTES));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    rmSync(dir, { recursive: true, force: true });
  });

  async function serve(options: Omit<RemotesConfigOptions, "file">) {
    const handle = await createRemotesHandler({ file, ...options });
    const server = createServer((req, res) => {
      if (handle(req, res)) return;
      res.statusCode = 404;
      res.end();
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/remotes.json`;
    return async () => {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-cache");
      return (await res.json()) as Record<string, unknown>;
    };
  }

  it("serves the chart's file unchanged when nothing is added", async () => {
    expect(await (await serve({}))()).toEqual(REMOTES);
  });

  it("adds the players and the brand", async () => {
    const get = await serve({ brand: "hangout", players: ["youtube"] });
    expect(await get()).toEqual({ remotes: REMOTES, services: {}, players: ["youtube"], brand: "hangout" });
  });

  it("adds the Agora app id when Agora is configured (rooms' live audio)", async () => {
    const get = await serve({ agoraAppId: "0123456789abcdef0123456789abcdef" });
    expect(await get()).toEqual({ remotes: REMOTES, services: {}, agoraAppId: "0123456789abcdef0123456789abcdef" });
  });

  it("carries a developer token signed with the MusicKit key only while apple is a player", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    const issuer = createAppleMusicTokenIssuer({
      teamId: "TEAM123456",
      keyId: "KEY1234567",
      privateKey: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
      ttlSeconds: 3 * 3600,
      origin: "https://music.example.org",
    });
    const appleMusicToken = () => issuer.developerToken();
    const get = await serve({ players: ["apple", "youtube"], appleMusicToken });
    const first = await get();
    const { developerToken, expiresAt } = first.appleMusic as { developerToken: string; expiresAt: string };
    const { header, payload } = verifyEs256(developerToken, publicKey);
    expect(header).toEqual({ alg: "ES256", kid: "KEY1234567" });
    expect(payload).toMatchObject({ iss: "TEAM123456", origin: ["https://music.example.org"] });
    expect(new Date(expiresAt).getTime()).toBe(payload.exp * 1000);
    expect(payload.exp - payload.iat).toBe(3 * 3600);
    // Another key pair's public key does not verify it.
    expect(() =>
      verifyEs256(developerToken, generateKeyPairSync("ec", { namedCurve: "prime256v1" }).publicKey),
    ).toThrow("bad signature");
    // Not minted per request: the next answer carries the same token.
    expect(((await get()).appleMusic as { developerToken: string }).developerToken).toBe(developerToken);

    const withoutApple = await (await serve({ players: ["youtube"], appleMusicToken }))();
    expect(withoutApple).not.toHaveProperty("appleMusic");
    const unconfigured = await (await serve({ players: ["apple"] }))();
    expect(unconfigured).toEqual({ remotes: REMOTES, services: {}, players: ["apple"] });
  });

  it("refuses a malformed file at start", async () => {
    const bad = path.join(dir, "bad.json");
    writeFileSync(bad, "{not json");
    await expect(createRemotesHandler({ file: bad })).rejects.toThrow(SyntaxError);
  });
});
