// The demo products of `npm start` (PAYMENT_DEMO_PRODUCTS=true): two token packs sold once (the merch service's
// demo token bundles name them, so a development checkout credits their tokens) and one subscription plan, so the
// shop's "Tokens and plans" tab has something on a fresh install. Stocked once, on an empty product table, in one
// transaction: a restart adds nothing, and an operator's own products, edits and deletions are left alone.
import type { MikroORM } from "@mikro-orm/postgresql";
import { demoProductUuid, seedOnce } from "@tt/kit";
import type { Logger } from "pino";
import { Product } from "../product.entity.ts";

export interface DemoProduct {
  slug: string;
  name: string;
  description: string;
  paymentType: "one_time" | "recurring";
  /** In cents. */
  price: number;
  level: string;
}

export const DEMO_PRODUCTS: readonly DemoProduct[] = [
  {
    slug: "tokens-100",
    name: "Handful of tokens",
    description: "100 tokens for consumables and avatars (demo: no money moves).",
    paymentType: "one_time",
    price: 199,
    level: "",
  },
  {
    slug: "tokens-500",
    name: "Crate of tokens",
    description: "500 tokens, the best value (demo: no money moves).",
    paymentType: "one_time",
    price: 799,
    level: "",
  },
  {
    slug: "supporter-plan",
    name: "Supporter",
    description: "Wear the subscriber-only avatars and support the deployment (demo: no money moves).",
    paymentType: "recurring",
    price: 499,
    level: "supporter",
  },
];

/** Stocks the demo products when the product table is empty; answers how many it added. */
export async function seedDemoProducts(o: { orm: MikroORM; logger: Logger }): Promise<number> {
  const added = await seedOnce(
    o.orm.em,
    async (em) => (await em.count(Product, {})) > 0,
    (em) => {
      for (const p of DEMO_PRODUCTS) {
        em.create(Product, {
          id: demoProductUuid(p.slug),
          name: p.name,
          description: p.description,
          paymentType: p.paymentType,
          price: p.price,
          currency: "usd",
          stripePriceId: "",
          level: p.level,
          active: true,
        });
      }
      return DEMO_PRODUCTS.length;
    },
  );
  if (added > 0) o.logger.info({ added }, "demo products stocked");
  return added;
}
