// ExportService through the host: the refusals (provider not configured, another user's crate, the user's
// account not linked). The whole export with a linked Spotify account runs end to end through the gateway
// (tests/e2e/playlist-imports.e2e.test.ts), where the user service holds the link.
import { randomUUID } from "node:crypto";
import { Code } from "@connectrpc/connect";
import { createServiceHarness, type ServiceHarness, codeAndMessageOf } from "@tt/kit/testing";
import { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { ExportService } from "@tt/proto/tt/playlist/v1/export_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { playlistServiceDefinition } from "../index.ts";
import { fakeSpotifyEnv } from "../providers/testing/fixtures.ts";

let h: ServiceHarness;

beforeAll(async () => {
  h = await createServiceHarness(playlistServiceDefinition, {
    network: false,
    env: {
      ...fakeSpotifyEnv("http://127.0.0.1:9"),
      IMPORT_DURABLE: `playlist-imports-test-${randomUUID()}`,
    },
  });
});
afterAll(() => h?.close());

describe("POST /exports/spotify and /exports/apple", () => {
  it("refuses Apple Music in a deployment without it (412)", async () => {
    const token = await h.tokens.user();
    const crate = (await h.client(CrateService, { token }).createCrate({})).crate!;
    expect(
      await codeAndMessageOf(h.client(ExportService, { token }).exportToApple({ crateUuid: crate.crateUuid })),
    ).toEqual([Code.FailedPrecondition, "Apple Music is not configured"]);
  });

  it("refuses another user's crate (403) and an unknown one (404)", async () => {
    const crate = (await h.client(CrateService, { token: await h.tokens.user() }).createCrate({})).crate!;
    const other = h.client(ExportService, { token: await h.tokens.user() });
    expect(await codeAndMessageOf(other.exportToSpotify({ crateUuid: crate.crateUuid }))).toEqual([
      Code.PermissionDenied,
      "crate belongs to another user",
    ]);
    expect(await codeAndMessageOf(other.exportToSpotify({ crateUuid: randomUUID() }))).toEqual([
      Code.NotFound,
      "crate not found",
    ]);
  });

  it("412 when the user's provider tokens cannot be read (no user service here)", async () => {
    const token = await h.tokens.user();
    const crate = (await h.client(CrateService, { token }).createCrate({})).crate!;
    expect(
      await codeAndMessageOf(h.client(ExportService, { token }).exportToSpotify({ crateUuid: crate.crateUuid })),
    ).toEqual([Code.FailedPrecondition, "the user service is not reachable"]);
  });

  it("is for users only", async () => {
    const guest = h.client(ExportService, { token: await h.tokens.guest() });
    expect((await codeAndMessageOf(guest.exportToSpotify({ crateUuid: randomUUID() })))[0]).toBe(Code.Unauthenticated);
  });
});
