import { connectNodeAdapter } from "@connectrpc/connect-node";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import type { JSONWebKeySet } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../logger.ts";
import { createServer, type RunningServer } from "../transport/server.ts";
import { createTestTokenIssuer, type TestTokenIssuer } from "../testing/index.ts";
import { DEFAULT_TOKEN_AUDIENCE, DEFAULT_TOKEN_ISSUER } from "./claims.ts";
import { remoteKeySource } from "./key-source.ts";
import { createTokenVerifier } from "./verifier.ts";

// A stand-in for the user service's GetJwks, served over the kit's real server (HTTP/2).
let server: RunningServer;
let issuer: TestTokenIssuer;
let served: JSONWebKeySet;
let calls = 0;

beforeAll(async () => {
  issuer = await createTestTokenIssuer({ kid: "remote-1" });
  served = issuer.jwks;
  server = await createServer({
    handler: connectNodeAdapter({
      routes: (router) =>
        router.service(AuthService, {
          getJwks() {
            calls++;
            return {
              keys: served.keys.map((k) => ({ kty: k.kty, crv: k.crv, x: k.x, kid: k.kid, alg: k.alg, use: k.use })),
            };
          },
        }),
    }),
    port: 0,
    host: "127.0.0.1",
    ready: async () => true,
    logger: createLogger({ service: "jwks-test", level: "silent" }),
  });
});

afterAll(async () => {
  await server?.close();
});

describe("remoteKeySource", () => {
  it("fetches the key set over gRPC, caches it, and refetches on request", async () => {
    const keys = remoteKeySource(server.url, { ttlMs: 60_000 });
    const before = calls;
    const set = await keys();
    expect(set.keys).toEqual([
      { kty: "OKP", crv: "Ed25519", x: issuer.jwks.keys[0]?.x, kid: "remote-1", alg: "EdDSA", use: "sig" },
    ]);
    await Promise.all([keys(), keys(), keys()]);
    expect(calls - before).toBe(1);
    await keys({ refresh: true });
    expect(calls - before).toBe(2);
  });

  it("lets a verifier follow a key rotation on the user service", async () => {
    const verifier = createTokenVerifier({
      issuer: DEFAULT_TOKEN_ISSUER,
      audience: DEFAULT_TOKEN_AUDIENCE,
      keys: remoteKeySource(server.url),
      revocations: { isRevoked: () => false },
      minRefreshIntervalMs: 0,
    });
    expect((await verifier.verify(await issuer.sign({ sub: "a" }))).subject).toBe("a");
    const rotated = await createTestTokenIssuer({ kid: "remote-2" });
    served = { keys: [...issuer.jwks.keys, ...rotated.jwks.keys] };
    expect((await verifier.verify(await rotated.sign({ sub: "b" }))).subject).toBe("b");
  });

  it("rejects when the user service is unreachable", async () => {
    await expect(remoteKeySource("http://127.0.0.1:1", { timeoutMs: 1_000 })()).rejects.toThrow();
  });
});
