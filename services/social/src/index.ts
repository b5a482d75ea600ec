import type { ServiceDefinition } from "@tt/kit";
import { loadSocialServiceConfig } from "./config.ts";
import type { SocialContext } from "./context.ts";
import { entities } from "./entities.ts";
import { migrationsList } from "./migrations/index.ts";
import { registerSocialRoutes, SOCIAL_SERVICES } from "./routes/index.ts";

/** The social service (issue 14): the rooms' live stages, chat and presence. */
export const socialServiceDefinition: ServiceDefinition = {
  name: "social",
  services: [...SOCIAL_SERVICES],
  entities,
  migrations: migrationsList,
  async create(deps) {
    const { stage } = loadSocialServiceConfig(deps.env);
    const svc: SocialContext = { stageConfig: stage, logger: deps.logger, orm: deps.orm, bus: deps.bus };
    return { routes: (router) => registerSocialRoutes(router, svc) };
  },
};

export { SOCIAL_SERVICES };
