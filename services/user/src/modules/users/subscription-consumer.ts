// The payment service owns subscriptions and announces a user's level (SubscriptionChanged); the user service
// keeps it on the user (subscriptionLevel on User and Profile), so every service and client reads it here.
import type { MikroORM } from "@mikro-orm/postgresql";
import { type Bus, consumeEvents, deploymentDurable, sql } from "@tt/kit";
import { SubscriptionChangedSchema } from "@tt/proto/tt/payment/v1/events_pb";
import type { Logger } from "pino";
import { db } from "../../db.ts";

export function subscriptionsDurable(orm: MikroORM): string {
  return deploymentDurable(orm, "user-subscriptions");
}

export async function startSubscriptionConsumer(deps: { bus: Bus; orm: MikroORM; logger: Logger }) {
  return consumeEvents(
    deps.bus,
    SubscriptionChangedSchema,
    async (event, ctx) => {
      // Unknown users (another deployment's, or deleted) change nothing; the update commits with the mark.
      // Compared as text: a user uuid that is not a uuid matches nobody rather than failing the event.
      await db(ctx.em)
        .updateTable("users")
        .set({ subscription_level: event.level.slice(0, 50) })
        .where((eb) => eb(sql<string>`${eb.ref("id")}::text`, "=", event.userUuid.toLowerCase()))
        .execute();
    },
    { durable: subscriptionsDurable(deps.orm), orm: deps.orm, logger: deps.logger },
  );
}
