import type { ServiceDefinition } from "@tt/kit";
import { bootstrapAdmin } from "./admin-bootstrap.ts";
import { seedDemoVoucher } from "./modules/accounts/demo-voucher.ts";
import { loadUserServiceConfig } from "./config.ts";
import { loadMediaConfig } from "./modules/profile-data/media-config.ts";
import { entities } from "./entities.ts";
import { migrationsList } from "./migrations/index.ts";
import { createTableDevOutbox } from "./modules/contact/dev-outbox-store.ts";
import { createProviders } from "./providers/index.ts";
import { registerUserRoutes, USER_SERVICES } from "./routes/index.ts";
import { startModerationSweeper } from "./routes/moderation.ts";
import { startSubscriptionConsumer } from "./modules/users/subscription-consumer.ts";
import { createTokenIssuer } from "./tokens.ts";
import type { UserServiceContext } from "./user-context.ts";

export const userServiceDefinition: ServiceDefinition = {
  name: "user",
  services: [...USER_SERVICES],
  entities,
  migrations: migrationsList,
  async create(deps) {
    // Every area's variables are read here, once: a bad deployment fails at start naming each bad variable.
    const { service: config, areas } = loadUserServiceConfig(deps.env);
    // The host's logger is already bound to this service's name.
    const logger = deps.logger;
    const tokens = await createTokenIssuer(deps.orm.em, config);
    await bootstrapAdmin(deps.orm.em, logger, { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD });
    if (config.USER_DEMO_VOUCHER) await seedDemoVoucher(deps.orm.em, logger);
    const devOutbox = createTableDevOutbox(deps.orm, areas.contact.DEV_OUTBOX_CAPACITY);
    const providers = createProviders(deps.env, { devOutbox });
    logger.info({ providers: providers.modes }, `providers: ${providers.summary}`);
    // The events' stream and outbox relay are the host's (this definition lists outboxMigration). The ban sweeper
    // has its own signal, so close() can stop it whether or not the host has aborted deps.signal yet, and wait for
    // its last round before the ORM it uses is closed.
    const lifetime = new AbortController();
    deps.signal.addEventListener("abort", () => lifetime.abort(), { once: true });
    const svc: UserServiceContext = {
      tokens,
      revocations: deps.revocations,
      bus: deps.bus,
      logger,
      config,
      areas,
      providers: providers.providers,
      devOutbox,
      orm: deps.orm,
      signal: lifetime.signal,
    };
    // Ended temporary bans are swept (and announced) from the start, not only after the next ban.
    const sweeper = startModerationSweeper(svc);
    // The payment service's subscription level, kept on the user (exactly once per event).
    const subscriptions = await startSubscriptionConsumer(deps);
    return {
      routes(router) {
        registerUserRoutes(router, svc);
      },
      verificationKeys: () => tokens.verificationKeys(),
      async close() {
        lifetime.abort();
        await sweeper.stopped;
        await subscriptions.unsubscribe();
        providers.close();
      },
    };
  },
};

export { loadMediaConfig, USER_SERVICES };
