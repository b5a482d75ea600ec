// The demo catalogue of the embedded default: a handful of short songs synthesised by FFmpeg itself (no
// downloaded or copyrighted audio), clearly labelled, owned by a system account, public, and packaged like any
// upload, so they reach the catalogue through the same VERIFIED event. Seeding is idempotent: each demo has a
// fixed uuid, and one that exists (in any state) is left alone.
import { randomBytes } from "node:crypto";
import type { MikroORM } from "@mikro-orm/postgresql";
import { DEMO_ACCOUNT, nameBasedUuid, type ObjectStore } from "@tt/kit";
import type { Logger } from "pino";
import { runFfmpeg } from "../../packaging/ffmpeg.ts";
import { enqueuePackaging } from "../../packaging/jobs.ts";
import { sourceKey } from "../songs/song-keys.ts";
import { Song } from "../songs/song.entity.ts";

/** The system account that owns the demo songs (no person signs in as it). */
export const DEMO_OWNER = DEMO_ACCOUNT;

export interface DemoSong {
  slug: string;
  title: string;
  seconds: number;
  /** An aevalsrc expression (commas escaped for the filter graph). */
  expression: string;
}

export const DEMO_SONGS: readonly DemoSong[] = [
  {
    slug: "sine-arpeggio",
    title: "Sine Arpeggio",
    seconds: 32,
    expression: "0.3*sin(2*PI*t*220*pow(2\\,(mod(floor(t*4)\\,4)*4)/12))*(1-mod(t*4\\,1))",
  },
  {
    slug: "pentatonic-walk",
    title: "Pentatonic Walk",
    seconds: 28,
    expression: "0.3*sin(2*PI*t*261.63*pow(2\\,floor(mod(floor(t*3)*3\\,5)*12/5)/12))*exp(-mod(t*3\\,1)*3)",
  },
  {
    slug: "two-voice-drone",
    title: "Two-Voice Drone",
    seconds: 24,
    expression: "0.2*(sin(2*PI*110*t)+sin(2*PI*164.81*t))*(0.75+0.25*sin(2*PI*0.5*t))",
  },
  {
    slug: "bass-and-hats",
    title: "Bass and Hats",
    seconds: 30,
    expression: "0.4*sin(2*PI*55*t)*exp(-mod(t*2\\,1)*6)+0.08*(2*random(0)-1)*exp(-mod(t*8\\,1)*40)",
  },
  {
    slug: "slow-chords",
    title: "Slow Chords",
    seconds: 36,
    expression:
      "0.12*(sin(2*PI*t*196*pow(2\\,mod(floor(t/3)\\,4)*5/12))+sin(2*PI*t*246.94*pow(2\\,mod(floor(t/3)\\,4)*5/12))" +
      "+sin(2*PI*t*293.66*pow(2\\,mod(floor(t/3)\\,4)*5/12)))",
  },
];

/** A demo's fixed uuid (a name-based uuid of its slug). */
export function demoUuid(slug: string): string {
  return nameBasedUuid(`turntable-demo-song:${slug}`);
}

export interface SeedOptions {
  orm: MikroORM;
  store: ObjectStore;
  ffmpeg: string;
  shards: number;
  logger: Logger;
  signal?: AbortSignal;
  songs?: readonly DemoSong[];
}

/** Adds every demo song that is not there yet; answers how many it added. */
export async function seedDemoSongs(o: SeedOptions): Promise<number> {
  let added = 0;
  for (const demo of o.songs ?? DEMO_SONGS) {
    if (o.signal?.aborted) break;
    const uuid = demoUuid(demo.slug);
    if (await o.orm.em.fork().findOne(Song, { uuid })) continue;
    const flac = await runFfmpeg(
      o.ffmpeg,
      ["-hide_banner", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i"]
        .concat([`aevalsrc=exprs=${demo.expression}:s=44100:d=${demo.seconds}`])
        .concat(["-ac", "2", "-c:a", "flac", "-f", "flac", "pipe:1"]),
      o.signal,
    );
    await o.store.put(sourceKey(uuid), flac, "audio/flac");
    try {
      await o.orm.em.fork().transactional(async (em) => {
        em.create(Song, {
          uuid,
          owner: DEMO_OWNER,
          trackName: `Demo: ${demo.title}`,
          artistName: "turntable demo",
          albumName: "Demo catalogue (synthesised)",
          genre: "Demo",
          duration: demo.seconds,
          status: "UNVERIFIED",
          public: true,
          demo: true,
          fileType: "flac",
          sourceBytes: flac.length,
          hlsKey: randomBytes(16),
          hlsIv: randomBytes(16),
        });
        enqueuePackaging(em, uuid, o.shards);
      });
      added++;
    } catch (err) {
      // Another replica seeded it at the same moment (unique uuid): that one stands.
      if (!(await o.orm.em.fork().findOne(Song, { uuid }))) throw err;
    }
  }
  if (added > 0) o.logger.info({ added }, "demo songs seeded; packaging them now");
  return added;
}
