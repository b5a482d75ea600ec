import { createObjectStore, type ServiceDefinition } from "@tt/kit";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { loadMerchServiceConfig } from "./config.ts";
import type { MerchContext } from "./context.ts";
import { entities } from "./entities.ts";
import { migrationsList } from "./migrations/index.ts";
import { seedDemoStock } from "./modules/demo/demo-stock.ts";
import { startPurchaseConsumer } from "./modules/ledger/payment-consumer.ts";
import { createMedia } from "./modules/media/media.ts";
import { startSongPlayedConsumer } from "./modules/points/song-played-consumer.ts";
import { MERCH_SERVICES, registerMerchRoutes } from "./routes/index.ts";

export const merchServiceDefinition: ServiceDefinition = {
  name: "merch",
  services: [...MERCH_SERVICES],
  entities,
  migrations: migrationsList,
  async create(deps) {
    const { merch, media } = loadMerchServiceConfig(deps.env);
    const store = createObjectStore(media);
    const svc: MerchContext = {
      config: merch,
      mediaConfig: media,
      media: createMedia(media, store),
      logger: deps.logger,
      orm: deps.orm,
      bus: deps.bus,
      // Asked whether a user is linked to Discord (discordOnly avatars).
      profiles: deps.clients.get(ProfileService),
    };
    // The demo shop (npm start): stocked before the routes answer, so the first page already has it.
    // A failure is logged, never the end of the start: the shop then is as an operator left it.
    if (merch.MERCH_DEMO_STOCK) {
      await seedDemoStock({ orm: deps.orm, store, logger: deps.logger }).catch((err: unknown) =>
        deps.logger.error({ err }, "stocking the demo shop failed"),
      );
    }
    // Paid token bundles from the payment service credit the buyer's account once.
    const purchases = await startPurchaseConsumer(deps, merch.MERCH_MAX_BALANCE);
    // The live stage's played songs give their DJ points (issue 14).
    const played = await startSongPlayedConsumer(deps);
    return {
      routes: (router) => registerMerchRoutes(router, svc),
      close: async () => {
        await purchases.unsubscribe();
        await played.unsubscribe();
      },
    };
  },
};

export { MERCH_SERVICES };
export { credit, checkLedger, purchase } from "./modules/ledger/ledger.ts";
export { awardPoints } from "./modules/points/award.ts";
