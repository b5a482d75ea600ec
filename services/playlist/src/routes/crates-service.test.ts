// The live stage's service-only crate calls (issue 14): the DJ's next song rotates to the back of their queue; a like
// stars a song in the likes crate, a grab copies it to a crate; both refuse what is not the user's. The chat's crate
// preview: an ordinary crate's name, owner, count and first songs; never a special crate; services only.
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceHarness, type ServiceHarness, codeAndMessageOf } from "@tt/kit/testing";
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
    expect(
      await codeAndMessageOf(service.serviceAddUserCrateSong({ userUuid, songId, crateUuid: theirs.crateUuid })),
    ).toEqual([Code.NotFound, "crate not found"]);
    expect(
      await codeAndMessageOf(
        service.serviceAddUserCrateSong({ userUuid, songId: crypto.randomUUID(), special: "likes" }),
      ),
    ).toEqual([Code.NotFound, "song not found"]);
  });

  it("is for services only", async () => {
    const token = await h.tokens.user();
    const me = h.client(CrateService, { token });
    const userUuid = (await h.identityOf(token)).subject;
    expect((await codeAndMessageOf(me.serviceTakeQueueSong({ userUuid })))[0]).toBe(Code.Unauthenticated);
  });
});

describe("crate preview (the live room's chat)", () => {
  it("answers an ordinary crate's name, owner, count, thumbnails and first songs, for anyone's crate", async () => {
    const token = await h.tokens.user();
    const owner = h.client(CrateService, { token });
    const userUuid = (await h.identityOf(token)).subject;
    const service = h.client(CrateService, { token: await h.tokens.service("social") });
    const crate = (await owner.createCrate({ crateName: "Road trip" })).crate!;
    await owner.addCrateSongs({
      crateUuid: crate.crateUuid,
      songs: [1, 2, 3, 4].map((n) => ({ ...song(20 + n), thumbnails: { spotify: `https://img.test/${n}.jpg` } })),
    });

    const { preview } = await service.serviceGetCratePreview({ crateUuid: crate.crateUuid.toUpperCase() });
    expect(preview).toMatchObject({
      crateUuid: crate.crateUuid,
      crateName: "Road trip",
      userUuid,
      totalSongs: 4,
      provider: "",
    });
    expect(preview!.thumbnails).toContain("https://img.test/1.jpg");
    expect(preview!.songs.map((s) => [s.trackName, s.artistName, s.artwork])).toEqual([
      ["Stage Track 21", "Stage Artist", "https://img.test/1.jpg"],
      ["Stage Track 22", "Stage Artist", "https://img.test/2.jpg"],
      ["Stage Track 23", "Stage Artist", "https://img.test/3.jpg"],
    ]);
    const one = await service.serviceGetCratePreview({ crateUuid: crate.crateUuid, songs: 1 });
    expect(one.preview!.songs.map((s) => s.trackName)).toEqual(["Stage Track 21"]);

    const empty = (await owner.createCrate({ crateName: "Empty" })).crate!;
    const none = await service.serviceGetCratePreview({ crateUuid: empty.crateUuid });
    expect([none.preview!.totalSongs, none.preview!.songs, none.preview!.thumbnails]).toEqual([0, [], []]);
  });

  it("refuses special crates and unknown crates (404), bad ids (400), user and bot tokens", async () => {
    const token = await h.tokens.user();
    const owner = h.client(CrateService, { token });
    const service = h.client(CrateService, { token: await h.tokens.service("social") });
    const queue = (await owner.getQueue({})).crate!;
    const likes = (await owner.getLikes({})).crate!;
    for (const crateUuid of [queue.crateUuid, likes.crateUuid, crypto.randomUUID()]) {
      expect(await codeAndMessageOf(service.serviceGetCratePreview({ crateUuid }))).toEqual([
        Code.NotFound,
        "crate not found",
      ]);
    }
    expect((await codeAndMessageOf(service.serviceGetCratePreview({ crateUuid: "not-a-uuid" })))[0]).toBe(
      Code.InvalidArgument,
    );
    expect((await codeAndMessageOf(service.serviceGetCratePreview({ crateUuid: "" })))[0]).toBe(Code.InvalidArgument);

    const crate = (await owner.createCrate({ crateName: "mine" })).crate!;
    expect((await codeAndMessageOf(owner.serviceGetCratePreview({ crateUuid: crate.crateUuid })))[0]).toBe(
      Code.Unauthenticated,
    );
    const bot = h.client(CrateService, { token: await h.tokens.bot() });
    expect((await codeAndMessageOf(bot.serviceGetCratePreview({ crateUuid: crate.crateUuid })))[0]).toBe(
      Code.Unauthenticated,
    );
  });
});
