// The live stage's service-only crate calls (issue 14): the DJ's next song rotates to the back of their queue; a like
// stars a song in the likes crate, a grab copies it to a crate; both refuse what is not the user's.
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceHarness, type ServiceHarness } from "@tt/kit/testing";
import { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { playlistServiceDefinition } from "../index.ts";

let h: ServiceHarness;

beforeAll(async () => {
  h = await createServiceHarness(playlistServiceDefinition, { network: false });
});
afterAll(() => h?.close());

const song = (n: number) => ({
  trackName: `Stage Track ${n}`,
  artistName: "Stage Artist",
  duration: 120 + n,
  musicProviders: { spotify: `sp-stage-${n}-${Math.random().toString(36).slice(2, 8)}` },
});

async function codeOf(p: Promise<unknown>): Promise<[Code, string]> {
  try {
    await p;
  } catch (err) {
    const e = ConnectError.from(err);
    return [e.code, e.rawMessage];
  }
  throw new Error("expected a refusal");
}

describe("service crate calls (the live stage)", () => {
  it("takes the DJ's queue top and rotates it to the back; an empty queue has no song", async () => {
    const token = await h.tokens.user();
    const dj = h.client(CrateService, { token });
    const userUuid = (await h.identityOf(token)).subject;
    const service = h.client(CrateService, { token: await h.tokens.service("social") });

    expect((await service.serviceTakeQueueSong({ userUuid })).song).toBeUndefined();
    await dj.addQueueSongs({ songs: [song(1), song(2), song(3)] });
    const first = await service.serviceTakeQueueSong({ userUuid });
    expect(first.song?.trackName).toBe("Stage Track 1");
    expect((await dj.listQueueSongs({})).songs.map((s) => s.trackName)).toEqual([
      "Stage Track 2",
      "Stage Track 3",
      "Stage Track 1",
    ]);
    expect((await service.serviceTakeQueueSong({ userUuid })).song?.trackName).toBe("Stage Track 2");
    expect((await service.serviceTakeQueueSong({ userUuid })).song?.trackName).toBe("Stage Track 3");
    expect((await service.serviceTakeQueueSong({ userUuid })).song?.trackName).toBe("Stage Track 1");
  });

  it("stars a song in the likes crate once, copies it to a crate of the user's, refuses another's crate", async () => {
    const token = await h.tokens.user();
    const me = h.client(CrateService, { token });
    const userUuid = (await h.identityOf(token)).subject;
    const other = h.client(CrateService, { token: await h.tokens.user() });
    const service = h.client(CrateService, { token: await h.tokens.service("social") });
    const songId = (await me.addQueueSongs({ songs: [song(9)] })).songs[0]!.songId;

    const liked = await service.serviceAddUserCrateSong({ userUuid, songId, special: "likes" });
    expect(liked.added).toBe(true);
    expect((await me.listLikesSongs({})).songs.map((s) => s.songId)).toEqual([songId]);
    const again = await service.serviceAddUserCrateSong({ userUuid, songId, special: "likes" });
    expect([again.added, again.song?.crateSongUuid]).toEqual([false, liked.song?.crateSongUuid]);

    const crate = (await me.createCrate({ crateName: "grabs" })).crate!;
    const grabbed = await service.serviceAddUserCrateSong({ userUuid, songId, crateUuid: crate.crateUuid });
    expect([grabbed.added, grabbed.crateUuid]).toEqual([true, crate.crateUuid]);

    const theirs = (await other.createCrate({ crateName: "theirs" })).crate!;
    expect(await codeOf(service.serviceAddUserCrateSong({ userUuid, songId, crateUuid: theirs.crateUuid }))).toEqual([
      Code.NotFound,
      "crate not found",
    ]);
    expect(
      await codeOf(service.serviceAddUserCrateSong({ userUuid, songId: crypto.randomUUID(), special: "likes" })),
    ).toEqual([Code.NotFound, "song not found"]);
  });

  it("is for services only", async () => {
    const token = await h.tokens.user();
    const me = h.client(CrateService, { token });
    const userUuid = (await h.identityOf(token)).subject;
    expect((await codeOf(me.serviceTakeQueueSong({ userUuid })))[0]).toBe(Code.Unauthenticated);
  });
});
