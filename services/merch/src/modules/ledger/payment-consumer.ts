// The payment service's ProductPurchased: a paid token bundle (the bundle whose productId is the product)
// credits tokens × quantity to the buyer, once. Exactly once twice over: the durable consumer's mark skips a
// redelivered event, and the credit's reasonId (the purchase id) makes a second credit change nothing.
import type { MikroORM } from "@mikro-orm/postgresql";
import { type Bus, consumeEvents, deploymentDurable } from "@tt/kit";
import { ProductPurchasedSchema } from "@tt/proto/tt/payment/v1/events_pb";
import type { Logger } from "pino";
import { TokenBundle } from "../shop/token-bundle.entity.ts";
import { credit } from "./ledger.ts";

/** Durable name shared by the replicas of one deployment (a hash of its database name). */
export function purchasesDurable(orm: MikroORM): string {
  return deploymentDurable(orm, "merch-purchases");
}

export async function startPurchaseConsumer(deps: { bus: Bus; orm: MikroORM; logger: Logger }, maxBalance: number) {
  return consumeEvents(
    deps.bus,
    ProductPurchasedSchema,
    async (event, ctx) => {
      const bundle = await ctx.em.findOne(TokenBundle, { productId: event.productId });
      if (!bundle) return; // not a token bundle (another kind of product)
      const quantity = Math.max(1, event.quantity);
      // The credit commits in a transaction of its own (on a fresh fork: the account it may create must be
      // visible to it); a redelivery after a failed mark finds the credit by its reasonId.
      await credit(deps.orm.em.fork(), event.userUuid, bundle.tokens * quantity, `payment:${event.purchaseId}`, {
        reason: `purchase of ${bundle.name || bundle.productId}`,
        maxBalance,
      });
    },
    { durable: purchasesDurable(deps.orm), orm: deps.orm, logger: deps.logger },
  );
}
