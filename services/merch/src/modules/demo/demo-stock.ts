// The demo shop of `npm start` (MERCH_DEMO_STOCK=true): avatars (free, for tokens, subscriber-only, a season's
// award), consumables and token bundles, each with a picture drawn in demo-art.ts, and a current season, so every
// tab of the shop has something on a fresh install. The pictures go to the object store under fixed keys (served
// under MEDIA_BASE_URL like uploaded ones: the pages' img-src 'self'); the rows are written in one transaction.
//
// Stocked once, on an empty shop: when there is no avatar, consumable, token bundle or season yet. A restart adds
// nothing, and once anything is on the shelves (the demo's or an operator's own) nothing is added, changed or
// brought back: an operator's edits and deletions stand.
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import { DEMO_ACCOUNT, demoProductUuid, nameBasedUuid, seedOnce, type ObjectStore } from "@tt/kit";
import type { Logger } from "pino";
import { Avatar } from "../avatars/avatar.entity.ts";
import { Season } from "../points/season.entity.ts";
import { Consumable } from "../shop/consumable.entity.ts";
import { ConsumableFile } from "../shop/consumable-file.entity.ts";
import { TokenBundle } from "../shop/token-bundle.entity.ts";
import { avatarSvg, bundleSvg, consumableSvg, type AvatarArt, type Symbol } from "./demo-art.ts";

export const DEMO_SEASON_NAME = "Demo season";

export interface DemoAvatar extends AvatarArt {
  slug: string;
  name: string;
  status: "PUBLIC" | "SUBSCRIBER_ONLY" | "SEASON_AWARD";
  tokenCost: number;
  /** A season award's points to reach. */
  minPoints: number;
}

export const DEMO_AVATARS: readonly DemoAvatar[] = [
  {
    slug: "demo-vinyl-fox",
    name: "Vinyl Fox",
    status: "PUBLIC",
    tokenCost: 0,
    minPoints: 0,
    creature: "fox",
    sky: "#ffd8a8",
    face: "#f76707",
    accent: "#343a40",
  },
  {
    slug: "demo-cassette-cat",
    name: "Cassette Cat",
    status: "PUBLIC",
    tokenCost: 0,
    minPoints: 0,
    creature: "cat",
    sky: "#d0ebff",
    face: "#868e96",
    accent: "#e64980",
  },
  {
    slug: "demo-bass-bear",
    name: "Bass Bear",
    status: "PUBLIC",
    tokenCost: 0,
    minPoints: 0,
    creature: "bear",
    sky: "#d3f9d8",
    face: "#8d5524",
    accent: "#1c7ed6",
  },
  {
    slug: "demo-night-owl",
    name: "Night Owl",
    status: "PUBLIC",
    tokenCost: 50,
    minPoints: 0,
    creature: "owl",
    sky: "#364fc7",
    face: "#a0855b",
    accent: "#fcc419",
  },
  {
    slug: "demo-synth-frog",
    name: "Synth Frog",
    status: "PUBLIC",
    tokenCost: 120,
    minPoints: 0,
    creature: "frog",
    sky: "#fff3bf",
    face: "#40c057",
    accent: "#7048e8",
  },
  {
    slug: "demo-beat-bot",
    name: "Beat Bot",
    status: "PUBLIC",
    tokenCost: 250,
    minPoints: 0,
    creature: "robot",
    sky: "#e5dbff",
    face: "#adb5bd",
    accent: "#15aabf",
  },
  {
    slug: "demo-headliner-lion",
    name: "Headliner Lion",
    status: "SUBSCRIBER_ONLY",
    tokenCost: 0,
    minPoints: 0,
    creature: "lion",
    sky: "#ffe3e3",
    face: "#f59f00",
    accent: "#c92a2a",
  },
  {
    slug: "demo-gold-record",
    name: "Gold Record",
    status: "SEASON_AWARD",
    tokenCost: 0,
    minPoints: 100,
    creature: "record",
    sky: "#212529",
    face: "#f5c518",
    accent: "#c92a2a",
  },
];

export interface DemoConsumable {
  slug: string;
  name: string;
  tokenCost: number;
  symbol: Symbol;
  sky: string;
}

export const DEMO_CONSUMABLES: readonly DemoConsumable[] = [
  { slug: "confetti", name: "Confetti Burst", tokenCost: 5, symbol: "confetti", sky: "#f3d9fa" },
  { slug: "air-horn", name: "Air Horn", tokenCost: 10, symbol: "horn", sky: "#d0ebff" },
  { slug: "spotlight", name: "Spotlight", tokenCost: 25, symbol: "spotlight", sky: "#343a40" },
  { slug: "big-love", name: "Big Love", tokenCost: 15, symbol: "heart", sky: "#fff0f6" },
];

export interface DemoBundle {
  /** The payment service's demo product it is sold as (demoProductUuid). */
  product: string;
  name: string;
  tokens: number;
  stacks: number;
  sky: string;
}

export const DEMO_BUNDLES: readonly DemoBundle[] = [
  { product: "tokens-100", name: "Handful of tokens", tokens: 100, stacks: 2, sky: "#fff9db" },
  { product: "tokens-500", name: "Crate of tokens", tokens: 500, stacks: 3, sky: "#ffec99" },
];

const SVG = "image/svg+xml";
const demoId = (kind: string, slug: string) => nameBasedUuid(`turntable-demo-stock:${kind}:${slug}`);

/** Whether the shop has anything on its shelves (then the demo stays out). */
async function stocked(em: EntityManager): Promise<boolean> {
  const counts = [
    await em.count(Avatar, {}),
    await em.count(Consumable, {}),
    await em.count(TokenBundle, {}),
    await em.count(Season, {}),
  ];
  return counts.some((n) => n > 0);
}

/** Stocks the demo shop when it is empty; answers how many rows it added (0 when the shop had anything). */
export async function seedDemoStock(o: {
  orm: MikroORM;
  store: ObjectStore;
  logger: Logger;
  now?: Date;
}): Promise<number> {
  if (await stocked(o.orm.em.fork())) return 0;
  // The pictures first (fixed keys: writing one again writes the same bytes), then the rows at once.
  const put = async (key: string, drawing: string) => {
    const bytes = new TextEncoder().encode(drawing);
    await o.store.put(key, bytes, SVG);
    return bytes.length;
  };
  const avatarKeys = new Map<string, string>();
  for (const a of DEMO_AVATARS) {
    const key = `merch/avatars/${a.slug}.svg`;
    await put(key, avatarSvg(a));
    avatarKeys.set(a.slug, key);
  }
  const files = new Map<string, { key: string; size: number }>();
  for (const c of DEMO_CONSUMABLES) {
    const key = `merch/consumables/demo-${c.slug}.svg`;
    files.set(c.slug, { key, size: await put(key, consumableSvg(c.symbol, c.sky)) });
  }
  const thumbnails = new Map<string, string>();
  for (const b of DEMO_BUNDLES) {
    const key = `merch/bundles/demo-${b.product}.svg`;
    await put(key, bundleSvg(b.stacks, b.sky));
    thumbnails.set(b.product, key);
  }
  const now = o.now ?? new Date();
  // Asked again inside the transaction: another replica may have stocked the shop meanwhile.
  const added = await seedOnce(o.orm.em, stocked, (em) => {
    // The season began on the first of this month, so it is the current one at once.
    const season = em.create(Season, {
      id: demoId("season", "demo"),
      seasonName: DEMO_SEASON_NAME,
      seasonStart: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    });
    for (const a of DEMO_AVATARS) {
      em.create(Avatar, {
        id: demoId("avatar", a.slug),
        slug: a.slug,
        name: a.name,
        status: a.status,
        discordOnly: false,
        tokenCost: a.tokenCost,
        seasonId: a.status === "SEASON_AWARD" ? season.id : null,
        minPoints: a.minPoints,
        imageKey: avatarKeys.get(a.slug)!,
      });
    }
    for (const c of DEMO_CONSUMABLES) {
      const file = files.get(c.slug)!;
      em.create(ConsumableFile, {
        id: demoId("consumable-file", c.slug),
        key: file.key,
        contentType: SVG,
        size: file.size,
        createdBy: DEMO_ACCOUNT,
      });
      em.create(Consumable, {
        id: demoId("consumable", c.slug),
        name: c.name,
        tokenCost: c.tokenCost,
        fileId: demoId("consumable-file", c.slug),
      });
    }
    for (const b of DEMO_BUNDLES) {
      em.create(TokenBundle, {
        id: demoId("bundle", b.product),
        productId: demoProductUuid(b.product),
        name: b.name,
        tokens: b.tokens,
        thumbnailKey: thumbnails.get(b.product)!,
      });
    }
    return 1 + DEMO_AVATARS.length + DEMO_CONSUMABLES.length * 2 + DEMO_BUNDLES.length;
  });
  if (added > 0) o.logger.info({ added }, "demo shop stocked");
  return added;
}
