// Test helpers of the upload service: audio made by FFmpeg, users with and without uploadMusic made through the
// real user service (alongside in the harness), and polling with a deadline instead of sleeps.
import { randomUUID } from "node:crypto";
import type { ServiceHarness } from "@tt/kit/testing";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import { defaultFfmpegPath, runFfmpeg } from "../packaging/ffmpeg.ts";

export const ADMIN_ENV = { ADMIN_EMAIL: "root@example.org", ADMIN_PASSWORD: "upload tests admin password" };

export interface TestUser {
  uuid: string;
  token: string;
}

export async function signUp(h: ServiceHarness): Promise<TestUser> {
  const res = await h
    .client(AuthService)
    .signUp({ email: `${randomUUID()}@example.org`, password: "correct-horse-battery-1" });
  return { uuid: res.user!.uuid, token: res.accessToken!.token };
}

export async function adminUser(h: ServiceHarness): Promise<TestUser> {
  const res = await h.client(AuthService).login({ email: ADMIN_ENV.ADMIN_EMAIL, password: ADMIN_ENV.ADMIN_PASSWORD });
  return { uuid: res.user!.uuid, token: res.accessToken!.token };
}

/** A new user holding uploadMusic, granted by the admin through the user service. */
export async function uploader(h: ServiceHarness, admin: TestUser): Promise<TestUser> {
  const user = await signUp(h);
  await h.client(ModerationService, { token: admin.token }).addCapability({ id: user.uuid, capability: "uploadMusic" });
  return user;
}

export interface AudioOptions {
  seconds: number;
  format?: "mp3" | "wav" | "flac" | "ogg" | "m4a" | "aac";
  title?: string;
  artist?: string;
  frequency?: number;
}

const MUXERS = { mp3: "mp3", wav: "wav", flac: "flac", ogg: "ogg", m4a: "ipod", aac: "adts" } as const;
const CODECS = { mp3: "libmp3lame", wav: "pcm_s16le", flac: "flac", ogg: "libvorbis", m4a: "aac", aac: "aac" } as const;

/** A sine tone of that length in that container, with title and artist tags when given. */
export async function makeAudio(o: AudioOptions): Promise<Uint8Array> {
  const format = o.format ?? "mp3";
  const args = ["-hide_banner", "-nostdin", "-loglevel", "error", "-f", "lavfi"];
  args.push("-i", `sine=frequency=${o.frequency ?? 440}:duration=${o.seconds}:sample_rate=44100`);
  if (o.title) args.push("-metadata", `title=${o.title}`);
  if (o.artist) args.push("-metadata", `artist=${o.artist}`);
  args.push("-c:a", CODECS[format]);
  if (format === "m4a") args.push("-movflags", "frag_keyframe+empty_moov");
  args.push("-f", MUXERS[format], "pipe:1");
  return new Uint8Array(await runFfmpeg(defaultFfmpegPath(), args));
}
