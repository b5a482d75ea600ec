// The HMAC secrets of key URLs and transcoder reports: from the environment when given, else generated once
// and kept in the database, so every replica (and every restart) signs and checks with the same one.
import { randomBytes } from "node:crypto";
import type { MikroORM } from "@mikro-orm/postgresql";
import { autoCommitDb } from "../../db.ts";
import { UploadSecret } from "./secret.entity.ts";

export interface UploadSecrets {
  keyUrl: Buffer;
  callback: Buffer;
}

async function stored(orm: MikroORM, name: string): Promise<Buffer> {
  const em = orm.em.fork();
  await autoCommitDb(em)
    .insertInto("upload_secret")
    .values({ name, value: randomBytes(48).toString("base64url") })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row = await em.findOneOrFail(UploadSecret, { name });
  return Buffer.from(row.value, "utf8");
}

export async function loadSecrets(
  orm: MikroORM,
  env: { HLS_KEY_SIGNING_SECRET?: string; TRANSCODER_CALLBACK_SECRET?: string },
): Promise<UploadSecrets> {
  return {
    keyUrl: env.HLS_KEY_SIGNING_SECRET
      ? Buffer.from(env.HLS_KEY_SIGNING_SECRET, "utf8")
      : await stored(orm, "hls-key-url"),
    callback: env.TRANSCODER_CALLBACK_SECRET
      ? Buffer.from(env.TRANSCODER_CALLBACK_SECRET, "utf8")
      : await stored(orm, "transcoder-callback"),
  };
}
