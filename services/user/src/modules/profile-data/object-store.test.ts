import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AwsV4Signer } from "aws4fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMediaConfig } from "./media-config.ts";
import { createObjectStore, FsObjectStore, MediaKeyError, ObjectStoreError, S3ObjectStore } from "@tt/kit";

const bytes = new Uint8Array([0, 1, 2, 254, 255]);

describe("FsObjectStore", () => {
  let root: string;
  let store: FsObjectStore;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "tt-fs-store-"));
    store = new FsObjectStore(root);
  });
  afterAll(async () => rm(root, { recursive: true, force: true }));

  it("puts, gets and deletes by key; a missing key is null and deleting it again is no error", async () => {
    await store.put("images/a/128.webp", bytes, "image/webp");
    expect(new Uint8Array(await readFile(join(root, "images/a/128.webp")))).toEqual(bytes);
    expect(await store.get("images/a/128.webp")).toEqual({ body: bytes, contentType: "image/webp" });
    await store.delete("images/a/128.webp");
    expect(await store.get("images/a/128.webp")).toBeNull();
    await expect(store.delete("images/a/128.webp")).resolves.toBeUndefined();
    await expect(readdir(join(root, "images/a"))).rejects.toMatchObject({ code: "ENOENT" });
    expect(await readdir(join(root, "images"))).toEqual([]);
  });

  it.each(["../outside", "images/../../x", "/etc/passwd", "a//b", "a\\b", "a/./b", "", "a\0b"])(
    "refuses the key %j",
    async (key) => {
      await expect(store.put(key, bytes, "image/webp")).rejects.toBeInstanceOf(MediaKeyError);
      await expect(store.get(key)).rejects.toBeInstanceOf(MediaKeyError);
    },
  );
});

interface S3Request {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A fake S3: objects in a map, every request recorded, and every signature checked by recomputing it. */
async function startFakeS3(
  secret: string,
): Promise<{ url: string; requests: S3Request[]; badSignatures: number; server: Server }> {
  const objects = new Map<string, { body: Buffer; type: string }>();
  const state = { url: "", requests: [] as S3Request[], badSignatures: 0, server: undefined as unknown as Server };
  state.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const path = req.url ?? "/";
        state.requests.push({ method: req.method ?? "", path, headers: req.headers, body });
        const auth = String(req.headers.authorization ?? "");
        const match =
          /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
            auth,
          );
        const signedHeaders = match?.[4]?.split(";") ?? [];
        const headers: Record<string, string> = {};
        for (const name of signedHeaders) if (name !== "host") headers[name] = String(req.headers[name] ?? "");
        const expected = match
          ? await new AwsV4Signer({
              method: req.method,
              url: `${state.url}${path}`,
              headers,
              body: body.length > 0 ? body : undefined,
              accessKeyId: match[1]!,
              secretAccessKey: secret,
              service: "s3",
              region: match[3]!,
              datetime: String(req.headers["x-amz-date"]),
            }).authHeader()
          : "";
        const payloadHash = String(req.headers["x-amz-content-sha256"]);
        const hashOk =
          payloadHash === "UNSIGNED-PAYLOAD"
            ? body.length === 0
            : payloadHash === createHash("sha256").update(body).digest("hex");
        if (!match || expected !== auth || !hashOk) {
          state.badSignatures++;
          res.writeHead(403).end("SignatureDoesNotMatch");
          return;
        }
        if (req.method === "PUT") {
          objects.set(path, { body, type: String(req.headers["content-type"]) });
          res.writeHead(200).end();
        } else if (req.method === "GET") {
          const obj = objects.get(path);
          if (!obj) res.writeHead(404).end("NoSuchKey");
          else res.writeHead(200, { "content-type": obj.type }).end(obj.body);
        } else if (req.method === "DELETE") {
          objects.delete(path);
          res.writeHead(204).end();
        } else res.writeHead(405).end();
      })();
    });
  });
  await new Promise<void>((resolve) => state.server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  return state;
}

describe("S3ObjectStore", () => {
  let s3: Awaited<ReturnType<typeof startFakeS3>>;
  let store: S3ObjectStore;
  beforeAll(async () => {
    s3 = await startFakeS3("s3cret");
    store = new S3ObjectStore({
      endpoint: `${s3.url}/`,
      bucket: "pictures",
      region: "eu-central-1",
      accessKeyId: "AKIDEXAMPLE",
      secretAccessKey: "s3cret",
    });
  });
  afterAll(async () => new Promise<void>((resolve) => s3.server.close(() => resolve())));

  it("PUTs, GETs and DELETEs path-style, each request signed with Signature V4", async () => {
    await store.put("images/x/256.webp", bytes, "image/webp");
    expect(await store.get("images/x/256.webp")).toEqual({ body: bytes, contentType: "image/webp" });
    await store.delete("images/x/256.webp");
    expect(await store.get("images/x/256.webp")).toBeNull();

    expect(s3.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "PUT /pictures/images/x/256.webp",
      "GET /pictures/images/x/256.webp",
      "DELETE /pictures/images/x/256.webp",
      "GET /pictures/images/x/256.webp",
    ]);
    expect(s3.badSignatures).toBe(0);
    const put = s3.requests[0]!;
    expect(new Uint8Array(put.body)).toEqual(bytes);
    expect(put.headers["content-type"]).toBe("image/webp");
    expect(put.headers["x-amz-content-sha256"]).toMatch(/^[0-9a-f]{64}$/);
    expect(put.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-central-1\/s3\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/,
    );
  });

  it("fails with an ObjectStoreError when the server refuses (a wrong secret)", async () => {
    const wrong = new S3ObjectStore({
      endpoint: s3.url,
      bucket: "pictures",
      region: "eu-central-1",
      accessKeyId: "AKIDEXAMPLE",
      secretAccessKey: "not the secret",
    });
    const before = s3.badSignatures;
    await expect(wrong.put("images/y/128.webp", bytes, "image/webp")).rejects.toThrow(
      new ObjectStoreError("S3 PUT images/y/128.webp answered 403"),
    );
    expect(s3.badSignatures).toBe(before + 1);
  });

  it("fails with an ObjectStoreError when the server cannot be reached", async () => {
    const gone = new S3ObjectStore({
      endpoint: "http://127.0.0.1:9",
      bucket: "b",
      region: "us-east-1",
      accessKeyId: "a",
      secretAccessKey: "s",
    });
    await expect(gone.get("images/z/128.webp")).rejects.toBeInstanceOf(ObjectStoreError);
  });
});

describe("media configuration", () => {
  it("uses the filesystem by default and S3 once a bucket and its credentials are set", () => {
    expect(createObjectStore(loadMediaConfig({}))).toBeInstanceOf(FsObjectStore);
    const config = loadMediaConfig({
      MEDIA_S3_BUCKET: "b",
      MEDIA_S3_ACCESS_KEY_ID: "a",
      MEDIA_S3_SECRET_ACCESS_KEY: "s",
      MEDIA_S3_ENDPOINT: "http://minio:9000",
    });
    expect(createObjectStore(config)).toBeInstanceOf(S3ObjectStore);
    expect(config).toMatchObject({ MEDIA_BASE_URL: "/media", MEDIA_MAX_IMAGE_BYTES: 10 * 1024 * 1024 });
    expect(loadMediaConfig({}).MEDIA_DIR).toMatch(/\/\.data\/media$/);
  });

  it("names every missing S3 variable when only some are set", () => {
    expect(() => loadMediaConfig({ MEDIA_S3_BUCKET: "b" })).toThrow(
      /MEDIA_S3_ACCESS_KEY_ID[\s\S]*MEDIA_S3_SECRET_ACCESS_KEY/,
    );
  });
});
