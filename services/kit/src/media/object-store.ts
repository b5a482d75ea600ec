// Where media files live (profile images, packaged songs): a small key → bytes interface with a filesystem implementation (the default,
// served by the kit's media handler) and an S3-compatible one (AWS S3, MinIO, R2, …) signed with Signature V4.
import { mkdir, readFile, rename, rm, rmdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { createHash, randomUUID } from "node:crypto";
import { assertValidMediaKey, mediaContentType, mediaFilePath } from "./files.ts";
import { AwsClient } from "aws4fetch";

export interface StoredObject {
  body: Uint8Array;
  contentType: string;
}

export interface ObjectStore {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** Null when there is no such object. */
  get(key: string): Promise<StoredObject | null>;
  /** Deleting a missing object is not an error (S3 semantics). */
  delete(key: string): Promise<void>;
}

export class ObjectStoreError extends Error {
  override name = "ObjectStoreError";
}

/** Files under `root`, one per key; the content type follows from the key's extension. */
export class FsObjectStore implements ObjectStore {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The file of a key; never outside root. */
  pathOf(key: string): string {
    return mediaFilePath(this.root, key);
  }

  // The content type follows from the key's extension when the file is served (mediaContentType).
  async put(key: string, body: Uint8Array, _contentType?: string): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const tmp = `${path}.${randomUUID()}.tmp`;
    await writeFile(tmp, body);
    await rename(tmp, path);
  }

  async get(key: string): Promise<StoredObject | null> {
    try {
      return { body: new Uint8Array(await readFile(this.pathOf(key))), contentType: mediaContentType(key) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    await rm(path, { force: true });
    // The key's own folder goes once empty (one per image); its parents stay, so a concurrent put into a
    // sibling folder never loses the directory it just made.
    if (dirname(path) !== this.root) {
      await rmdir(dirname(path)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== "ENOTEMPTY" && err.code !== "ENOENT" && err.code !== "EEXIST") throw err;
      });
    }
  }
}

export interface S3ObjectStoreOptions {
  /** The S3 endpoint, e.g. https://s3.eu-west-1.amazonaws.com or http://minio:9000. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  timeoutMs?: number;
  /** For tests; the global fetch otherwise. */
  fetch?: typeof fetch;
}

/**
 * An S3-compatible bucket through its REST API, path-style (`<endpoint>/<bucket>/<key>`), which every
 * S3-compatible server accepts; requests are signed with AWS Signature V4 (aws4fetch).
 */
export class S3ObjectStore implements ObjectStore {
  private readonly client: AwsClient;
  private readonly base: string;
  private readonly timeoutMs: number;

  constructor(private readonly opts: S3ObjectStoreOptions) {
    // aws4fetch retries 5xx itself; keep it to one retry so a broken store fails a call quickly.
    this.client = new AwsClient({
      accessKeyId: opts.accessKeyId,
      secretAccessKey: opts.secretAccessKey,
      service: "s3",
      region: opts.region,
      retries: 1,
    });
    this.base = `${opts.endpoint.replace(/\/+$/, "")}/${encodeURIComponent(opts.bucket)}`;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  private url(key: string): string {
    assertValidMediaKey(key);
    return `${this.base}/${key.split("/").map(encodeURIComponent).join("/")}`;
  }

  private async send(method: string, key: string, init: RequestInit = {}): Promise<Response> {
    const signed = await this.client.sign(this.url(key), {
      ...init,
      method,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    try {
      return await (this.opts.fetch ?? fetch)(signed);
    } catch (err) {
      throw new ObjectStoreError(`S3 ${method} ${key} failed: ${(err as Error).message}`, { cause: err });
    }
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    const res = await this.send("PUT", key, {
      body: body as Uint8Array<ArrayBuffer>,
      headers: {
        "content-type": contentType,
        "cache-control": "public, max-age=31536000, immutable",
        // Signing the payload's hash (aws4fetch would send UNSIGNED-PAYLOAD for bytes) lets the store
        // refuse a body changed on the way.
        "x-amz-content-sha256": createHash("sha256").update(body).digest("hex"),
      },
    });
    await res.arrayBuffer();
    if (!res.ok) throw new ObjectStoreError(`S3 PUT ${key} answered ${res.status}`);
  }

  async get(key: string): Promise<StoredObject | null> {
    const res = await this.send("GET", key);
    if (res.status === 404) {
      await res.arrayBuffer();
      return null;
    }
    if (!res.ok) {
      await res.arrayBuffer();
      throw new ObjectStoreError(`S3 GET ${key} answered ${res.status}`);
    }
    return {
      body: new Uint8Array(await res.arrayBuffer()),
      contentType: res.headers.get("content-type") ?? mediaContentType(key),
    };
  }

  async delete(key: string): Promise<void> {
    const res = await this.send("DELETE", key);
    await res.arrayBuffer();
    // S3 answers 204 for a missing key too; some compatible servers answer 404.
    if (!res.ok && res.status !== 404) throw new ObjectStoreError(`S3 DELETE ${key} answered ${res.status}`);
  }
}
