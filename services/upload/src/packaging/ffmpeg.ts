// FFmpeg: one run decodes the upload once and writes the three HLS renditions (AAC in MPEG-TS segments,
// AES-128 encrypted with the song's key and IV through -hls_key_info_file), reporting progress as it goes.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { mkdir, writeFile } from "node:fs/promises";

export interface Quality {
  /** An AudioQuality wire name. */
  name: "low" | "medium" | "high";
  /** AAC bit rate, kbit/s. */
  kbps: number;
}

/** The renditions, lowest first (specification 002 §9: medium is the players' default). */
export const QUALITIES: readonly Quality[] = [
  { name: "low", kbps: 64 },
  { name: "medium", kbps: 128 },
  { name: "high", kbps: 256 },
];

/** Seconds per segment. */
export const SEGMENT_SECONDS = 6;

/** The key URI ffmpeg writes into each variant playlist; the service replaces it per listener when serving. */
export const KEY_URI_PLACEHOLDER = "tt-hls-key";

/** The FFmpeg binary @ffmpeg-installer/linux-x64 ships (a static build: no system package needed). */
export function defaultFfmpegPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve("@ffmpeg-installer/linux-x64/package.json")), "ffmpeg");
}

/** FFmpeg could not make the renditions from this file (it is not decodable audio): final. */
export class FfmpegError extends Error {
  override name = "FfmpegError";
}

export interface PackageOptions {
  ffmpeg: string;
  input: string;
  outDir: string;
  key: Uint8Array;
  iv: Uint8Array;
  /** Seconds of audio, for progress; 0 when unknown. */
  duration: number;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
  qualities?: readonly Quality[];
}

/** Writes `<outDir>/<quality>/index.m3u8` and `<outDir>/<quality>/seg_00000.ts`, … for every quality. */
export async function packageHls(o: PackageOptions): Promise<void> {
  const qualities = o.qualities ?? QUALITIES;
  await mkdir(o.outDir, { recursive: true });
  const keyFile = join(o.outDir, "key.bin");
  const keyInfo = join(o.outDir, "key.info");
  await writeFile(keyFile, o.key);
  await writeFile(keyInfo, `${KEY_URI_PLACEHOLDER}\n${keyFile}\n${Buffer.from(o.iv).toString("hex")}\n`);
  const args = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-progress", "pipe:1"];
  args.push("-i", o.input);
  for (const q of qualities) {
    args.push("-map", "0:a:0", "-vn", "-c:a", "aac", "-b:a", `${q.kbps}k`, "-ac", "2", "-ar", "44100");
    args.push("-f", "hls", "-hls_time", String(SEGMENT_SECONDS), "-hls_playlist_type", "vod");
    args.push("-hls_key_info_file", keyInfo, "-hls_segment_filename", join(o.outDir, q.name, "seg_%05d.ts"));
    args.push(join(o.outDir, q.name, "index.m3u8"));
  }
  for (const q of qualities) await mkdir(join(o.outDir, q.name), { recursive: true });
  await run(o.ffmpeg, args, o);
}

/** Runs FFmpeg with these arguments, writing its standard output to a buffer (synthesised audio). */
export async function runFfmpeg(ffmpeg: string, args: string[], signal?: AbortSignal): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await run(ffmpeg, args, { signal, duration: 0, onStdout: (c) => void chunks.push(c) });
  return Buffer.concat(chunks);
}

function run(
  ffmpeg: string,
  args: string[],
  o: Pick<PackageOptions, "signal" | "timeoutMs" | "duration" | "onProgress"> & {
    onStdout?: (chunk: Buffer) => void;
  },
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (o.signal?.aborted) return reject(o.signal.reason as Error);
    const child = spawn(ffmpeg, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let pending = "";
    let timedOut = false;
    const onAbort = () => child.kill("SIGKILL");
    o.signal?.addEventListener("abort", onAbort, { once: true });
    const timer = o.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          child.kill("SIGKILL");
        }, o.timeoutMs)
      : undefined;
    child.stdout.on("data", (chunk: Buffer) => {
      if (o.onStdout) return o.onStdout(chunk);
      pending += chunk.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const m = /^out_time_(?:us|ms)=(\d+)/.exec(line);
        if (m && o.duration > 0) o.onProgress?.(Math.min(1, Number(m[1]) / 1e6 / o.duration));
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-2000);
    });
    child.once("error", (err) => {
      cleanup();
      reject(err);
    });
    child.once("close", (code) => {
      cleanup();
      if (o.signal?.aborted) return reject(o.signal.reason as Error);
      if (timedOut) return reject(new FfmpegError(`FFmpeg took longer than ${o.timeoutMs} ms`));
      if (code !== 0) return reject(new FfmpegError(`FFmpeg failed (${code}): ${stderr.trim().slice(-400)}`));
      resolve();
    });
    function cleanup() {
      if (timer) clearTimeout(timer);
      o.signal?.removeEventListener("abort", onAbort);
    }
  });
}
