// issue 26: MERCH_DEMO_STOCK stocks every kind the shop shows (avatars of each status, consumables, token bundles,
// a current season), each with a drawn picture served under the media path; once, on an empty shop only, so a
// restart duplicates nothing and an operator's deletions stand; off unless the variable says so.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createLogger, demoProductUuid, FsObjectStore } from "@tt/kit";
import { AvatarService } from "@tt/proto/tt/merch/v1/avatar_service_pb";
import { ConsumableService } from "@tt/proto/tt/merch/v1/consumable_service_pb";
import { PointsService } from "@tt/proto/tt/merch/v1/points_service_pb";
import { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMerchHarness, type MerchHarness } from "../../testing/merch-harness.ts";
import { Avatar } from "../avatars/avatar.entity.ts";
import { Season } from "../points/season.entity.ts";
import { Consumable } from "../shop/consumable.entity.ts";
import { TokenBundle } from "../shop/token-bundle.entity.ts";
import { DEMO_AVATARS, DEMO_BUNDLES, DEMO_CONSUMABLES, DEMO_SEASON_NAME, seedDemoStock } from "./demo-stock.ts";

let on: MerchHarness;
let off: MerchHarness;

beforeAll(async () => {
  [on, off] = await Promise.all([createMerchHarness({ MERCH_DEMO_STOCK: "true" }), createMerchHarness()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([on?.close(), off?.close()]);
});

/** The file a media URL (/media/<key>) names, read from the harness's media directory. */
const fileOf = (h: MerchHarness, url: string) => readFile(join(h.mediaDir, url.replace(/^\/media\//, "")), "utf8");

describe("issue 26: the demo shop", () => {
  it("stocks avatars of every status, consumables, token bundles and a current season, each with a drawing", async () => {
    const avatars = (await on.client(AvatarService).listAllAvatars({ limit: 100 })).avatars;
    expect(avatars.map((a) => a.slug).sort()).toEqual(DEMO_AVATARS.map((a) => a.slug).sort());
    expect(avatars.filter((a) => a.status === "PUBLIC" && a.tokenCost === 0).length).toBeGreaterThanOrEqual(2);
    expect(avatars.filter((a) => a.status === "PUBLIC" && a.tokenCost > 0).length).toBeGreaterThanOrEqual(2);
    expect(avatars.filter((a) => a.status === "SUBSCRIBER_ONLY")).toHaveLength(1);
    const season = (await on.client(PointsService).getCurrentSeason({})).season!;
    expect(season.seasonName).toBe(DEMO_SEASON_NAME);
    expect(avatars.filter((a) => a.status === "SEASON_AWARD")).toEqual([
      expect.objectContaining({ seasonId: season.id, minPoints: 100 }),
    ]);
    const ranking = await on.client(PointsService).getSeasonRanking({ take: 10 });
    expect(ranking.season?.id).toBe(season.id);

    const consumables = await on.client(ConsumableService).listConsumables({ limit: 32 });
    expect(consumables.consumables.map((c) => c.name).sort()).toEqual(DEMO_CONSUMABLES.map((c) => c.name).sort());
    const bundles = await on.client(TokenService).listTokenBundles({ limit: 32 });
    expect(bundles.bundles.map((b) => [b.productId, b.tokens])).toEqual(
      expect.arrayContaining(DEMO_BUNDLES.map((b) => [demoProductUuid(b.product), b.tokens])),
    );

    // Every picture is an SVG in the object store, under the media path the pages' img-src 'self' allows.
    const urls = [
      ...avatars.map((a) => a.imageUrl),
      ...consumables.consumables.map((c) => c.fileUrl),
      ...bundles.bundles.map((b) => b.thumbnailUrl),
    ];
    expect(urls).toHaveLength(DEMO_AVATARS.length + DEMO_CONSUMABLES.length + DEMO_BUNDLES.length);
    for (const url of urls) {
      expect(url).toMatch(/^\/media\/merch\/(avatars|consumables|bundles)\/[a-z0-9-]+\.svg$/);
      expect(await fileOf(on, url)).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^]*<\/svg>\n$/);
    }
    // Varied: no two avatars share a drawing.
    const drawings = await Promise.all(avatars.map((a) => fileOf(on, a.imageUrl)));
    expect(new Set(drawings).size).toBe(avatars.length);
  });

  it("adds nothing on a restart, and an operator's deletion stands", async () => {
    const store = new FsObjectStore(on.mediaDir);
    const logger = createLogger({ service: "demo-stock-test", level: "silent" });
    const counts = async () => {
      const em = on.orm.em.fork();
      return [await em.count(Avatar), await em.count(Consumable), await em.count(TokenBundle), await em.count(Season)];
    };
    const before = await counts();
    expect(await seedDemoStock({ orm: on.orm, store, logger })).toBe(0);
    expect(await counts()).toEqual(before);

    const admin = (await on.user("admin")).token;
    await on.client(AvatarService, { token: admin }).deleteAvatar({ slug: DEMO_AVATARS[0]!.slug });
    expect(await seedDemoStock({ orm: on.orm, store, logger })).toBe(0);
    expect(await on.orm.em.fork().count(Avatar, { slug: DEMO_AVATARS[0]!.slug })).toBe(0);
  });

  it("stays off when MERCH_DEMO_STOCK is unset", async () => {
    const em = off.orm.em.fork();
    expect([
      await em.count(Avatar),
      await em.count(Consumable),
      await em.count(TokenBundle),
      await em.count(Season),
    ]).toEqual([0, 0, 0, 0]);
    expect((await off.client(AvatarService).listAllAvatars({})).avatars).toEqual([]);
  });
});
