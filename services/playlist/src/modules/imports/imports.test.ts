// Regression for "an import killed halfway": the process running a playlist import stops while the provider
// hangs on a page; another process (a restart, a replica) takes the job over from its durable consumer and
// resumes at the first page that was not committed. The crate ends COMPLETE with every track exactly once.
import { randomUUID } from "node:crypto";
import {
  createServiceHarness,
  eventually,
  type FakeServer,
  type ServiceHarness,
  startFakeServer,
} from "@tt/kit/testing";
import { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { ImportService } from "@tt/proto/tt/playlist/v1/import_service_pb";
import { afterAll, beforeAll, expect, it } from "vitest";
import { playlistServiceDefinition } from "../../index.ts";
import { fakeSpotifyEnv, spotifyTrackJson } from "../../providers/testing/fixtures.ts";
import { ImportJob } from "./import-job.entity.ts";

let h: ServiceHarness;
let spotify: FakeServer;
const TRACKS = Array.from({ length: 6 }, (_, i) => ({
  ...spotifyTrackJson(`kill${i}${randomUUID().slice(0, 6)}`, `USKIL${String(1000000 + i)}`),
  name: `Killed ${i}`,
}));
let hangAt: number | undefined;

const env = {
  PROVIDER_TIMEOUT_MS: "1000",
  IMPORT_PAGE_SIZE: "2",
  IMPORT_RETRY_MS: "100",
  IMPORT_DURABLE: `playlist-imports-kill-${randomUUID()}`,
};

beforeAll(async () => {
  spotify = await startFakeServer((req) => {
    if (req.path === "/api/token") return { status: 200, json: { access_token: "app", expires_in: 3600 } };
    const offset = Number(req.query.get("offset"));
    if (offset === hangAt) return "hang";
    const items = TRACKS.slice(offset, offset + 2).map((track) => ({ track }));
    return { status: 200, json: { items, total: TRACKS.length, next: offset + 2 < TRACKS.length ? "more" : null } };
  });
  Object.assign(env, fakeSpotifyEnv(spotify.url));
  // The harness's own instance serves the API only; the workers are the instances the test starts and stops.
  h = await createServiceHarness(playlistServiceDefinition, {
    network: false,
    env: { ...env, IMPORT_WORKER: "false" },
  });
});
afterAll(async () => {
  await h?.close();
  await spotify?.close();
});

it("issue 13: an import killed halfway resumes in another process to COMPLETE with no song twice", async () => {
  const token = await h.tokens.user();
  hangAt = 2; // the first page is committed, then the provider hangs on the second
  const first = await h.createInstance({ ...env, IMPORT_WORKER: "true" });
  const crate = (
    await h.client(CrateService, { token }).createCrate({ import: { musicProvider: "spotify", playlistId: "PK" } })
  ).crate!;
  await eventually("the first page to be committed and the second asked for", async () => {
    const job = await h.orm.em.fork().findOne(ImportJob, { crateId: crate.crateUuid });
    return job && job.processed === 2 && spotify.requests.some((r) => r.query.get("offset") === "2") ? job : undefined;
  });

  await first.close?.(); // the worker's process stops mid-job
  hangAt = undefined;
  const second = await h.createInstance({ ...env, IMPORT_WORKER: "true" });
  try {
    const progress = await eventually("the import to complete in the second process", async () => {
      const { progress } = await h.client(ImportService, { token }).getCrateImport({ crateUuid: crate.crateUuid });
      return progress?.importStatus === "COMPLETE" ? progress : undefined;
    });
    expect(progress).toMatchObject({ total: 6, processed: 6, added: 6 });
  } finally {
    await second.close?.();
  }
  const offsets = spotify.requests
    .filter((r) => r.path === "/v1/playlists/PK/tracks")
    .map((r) => r.query.get("offset"));
  expect(offsets).toEqual(["0", "2", "2", "4"]);
  const { songs, total } = await h.client(CrateService, { token }).listCrateSongs({ crateUuid: crate.crateUuid });
  expect(total).toBe(6);
  expect(songs.map((s) => s.trackName)).toEqual(TRACKS.map((t) => t.name));
});
