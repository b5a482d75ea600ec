// The merch service on createServiceHarness (real PostgreSQL and NATS), with the user service it asks about
// Discord links configured at an address where nothing listens (the answer is then "not linked"), and a
// media directory of its own.
import { generateKeyPairSync } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Code } from "@connectrpc/connect";
import { createServiceHarness, refusalOf, type ServiceHarness } from "@tt/kit/testing";
import { merchServiceDefinition } from "../index.ts";
import { freePort } from "@tt/kit";

export interface MerchHarness extends ServiceHarness {
  mediaDir: string;
  /** A user token and its uuid. */
  user(role?: string): Promise<{ token: string; uuid: string }>;
}

export async function createMerchHarness(env: Record<string, string> = {}): Promise<MerchHarness> {
  const mediaDir = await mkdtemp(join(tmpdir(), "merch-media-"));
  const h = await createServiceHarness(merchServiceDefinition, {
    env: {
      // Nothing listens there: a port the system gave out and took back.
      USER_SERVICE_URL: `http://127.0.0.1:${await freePort()}`,
      SERVICE_TOKEN_PRIVATE_KEY: generateKeyPairSync("ed25519")
        .privateKey.export({ type: "pkcs8", format: "pem" })
        .toString(),
      MEDIA_DIR: mediaDir,
      ...env,
    },
  });
  const close = h.close.bind(h);
  return Object.assign(h, {
    mediaDir,
    async user(role = "user") {
      const token = await h.tokens.user(role as never);
      return { token, uuid: (await h.identityOf(token)).subject };
    },
    async close() {
      await close();
      await rm(mediaDir, { recursive: true, force: true });
    },
  });
}

/** The code and message a call was refused with (fails when it was not refused). */
export async function refusal(call: Promise<unknown>): Promise<{ code: Code; message: string; status?: string }> {
  const e = await refusalOf(call);
  return { code: e.code, message: e.rawMessage, status: e.metadata.get("tt-http-status") ?? undefined };
}

/** A 1×1 PNG. */
export const PNG = Uint8Array.from(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    "base64",
  ),
);
