// AnalysisService through the host: similar songs for a crate against a recording fake of the music-analysis
// GraphQL endpoint and Spotify (dedupe, thumbnail and duration rules, trackNotAnalyzed enqueues), ownership,
// and the webhook's signature.
import { randomUUID } from "node:crypto";
import { Code } from "@connectrpc/connect";
import {
  createServiceHarness,
  startFakeServer,
  type FakeServer,
  type ServiceHarness,
  codeAndMessageOf,
} from "@tt/kit/testing";
import { AnalysisService } from "@tt/proto/tt/playlist/v1/analysis_service_pb";
import { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { playlistServiceDefinition } from "../index.ts";
import { spotifyTrackJson, fakeSpotifyEnv } from "../providers/testing/fixtures.ts";
import { signWebhook } from "./analysis.ts";

let h: ServiceHarness;
let fake: FakeServer;
const SECRET = "webhook-secret";

/** Similar tracks of each seed: s1 and its duplicate (same names), one without artwork, one of 0 s. */
const SIMILAR: Record<string, string[]> = { seedA: ["s1", "s1dup", "noart", "zero", "s2"], seedB: ["s2", "s3"] };

beforeAll(async () => {
  fake = await startFakeServer((req) => {
    if (req.path === "/api/token") return { status: 200, json: { access_token: "app", expires_in: 3600 } };
    if (req.path === "/graphql") {
      const body = req.json as { query: string; variables: Record<string, unknown> };
      if (body.query.startsWith("mutation")) {
        return { status: 200, json: { data: { spotifyTrackEnqueue: { __typename: "SpotifyTrackEnqueueSuccess" } } } };
      }
      const seed = String(body.variables.spotifyTrackId);
      const ids = SIMILAR[seed];
      const similarTracks = ids
        ? { __typename: "SimilarTracksConnection", edges: ids.map((id) => ({ node: { id } })) }
        : { __typename: "SimilarTracksError", code: "trackNotAnalyzed", message: "not analysed" };
      return { status: 200, json: { data: { spotifyTrack: { __typename: "SpotifyTrack", similarTracks } } } };
    }
    if (req.path.startsWith("/v1/tracks/")) {
      const id = req.path.slice("/v1/tracks/".length);
      const base = { ...spotifyTrackJson(id, `US${id.toUpperCase().padEnd(10, "0")}`), name: `Similar ${id}` };
      if (id === "s1dup") return { status: 200, json: { ...base, name: "SIMILAR S1" } };
      if (id === "noart") return { status: 200, json: { ...base, album: { name: "x", images: [] } } };
      if (id === "zero") return { status: 200, json: { ...base, duration_ms: 0 } };
      return { status: 200, json: base };
    }
    return { status: 404, json: {} };
  });
  h = await createServiceHarness(playlistServiceDefinition, {
    network: false,
    env: {
      ...fakeSpotifyEnv(fake.url),
      MUSIC_ANALYSIS_URL: `${fake.url}/graphql`,
      MUSIC_ANALYSIS_ACCESS_TOKEN: "ma-token",
      MUSIC_ANALYSIS_WEBHOOK_SECRET: SECRET,
      IMPORT_DURABLE: `playlist-imports-test-${randomUUID()}`,
    },
  });
});
afterAll(async () => {
  await h?.close();
  await fake?.close();
});

describe("GET /crate/{crateUuid}/similar", () => {
  it("suggests per song with a Spotify id: deduped by track and artist, only with artwork and a duration", async () => {
    const token = await h.tokens.user();
    const crates = h.client(CrateService, { token });
    const crate = (await crates.createCrate({ crateName: "Seeds" })).crate!;
    await crates.addCrateSongs({
      crateUuid: crate.crateUuid,
      songs: [
        { trackName: "Seed A", artistName: "A", duration: 100, musicProviders: { spotify: "seedA" } },
        { trackName: "Seed B", artistName: "B", duration: 100, musicProviders: { spotify: "seedB" } },
        { trackName: "Seed C", artistName: "C", duration: 100, musicProviders: { spotify: "seedC" } },
        { trackName: "No spotify", artistName: "D", duration: 100, musicProviders: { youtube: "yt1" } },
      ],
    });
    const { songs } = await h.client(AnalysisService, { token }).getSimilarSongs({ crateUuid: crate.crateUuid });
    expect(songs.map((s) => [s.suggestions.map((x) => x.trackName), s.analysisPending])).toEqual([
      [["Similar s1", "Similar s2"], false],
      [["Similar s3"], false],
      [[], true],
    ]);
    const enqueue = fake.requests.find((r) => (r.json as { query?: string })?.query?.startsWith("mutation"));
    expect(enqueue?.json).toMatchObject({ variables: { input: { spotifyTrackId: "seedC" } } });
    expect(enqueue?.headers.authorization).toBe("Bearer ma-token");
  });

  it("refuses another user's crate", async () => {
    const crate = (await h.client(CrateService, { token: await h.tokens.user() }).createCrate({})).crate!;
    const other = h.client(AnalysisService, { token: await h.tokens.user() });
    expect(await codeAndMessageOf(other.getSimilarSongs({ crateUuid: crate.crateUuid }))).toEqual([
      Code.PermissionDenied,
      "crate belongs to another user",
    ]);
  });
});

describe("POST /cyanite/webhook", () => {
  const event = {
    version: "2",
    resource: { type: "SpotifyTrack", id: "seedC" },
    event: { type: "AudioAnalysisV6", status: "finished" },
  };

  it("accepts a body signed with the secret, anonymously", async () => {
    const anonymous = h.client(AnalysisService);
    await expect(anonymous.cyaniteWebhook({ ...event, signature: signWebhook(SECRET, event) })).resolves.toBeDefined();
  });

  it.each([
    ["another secret", signWebhook("other", event)],
    [
      "a signature of another body",
      signWebhook(SECRET, { ...event, event: { type: "AudioAnalysisV6", status: "failed" } }),
    ],
    ["a short signature", "abcd"],
  ])("refuses %s with 401", async (_what, signature) => {
    expect(await codeAndMessageOf(h.client(AnalysisService).cyaniteWebhook({ ...event, signature }))).toEqual([
      Code.Unauthenticated,
      "invalid signature",
    ]);
  });

  it("refuses a body without a signature before the handler", async () => {
    expect(await codeAndMessageOf(h.client(AnalysisService).cyaniteWebhook(event))).toEqual([
      Code.InvalidArgument,
      "signature missing in request",
    ]);
  });
});
