import { UserService } from "@tt/proto/tt/user/v1/user_service_pb";
import type { ServiceDefinition } from "@tt/kit";
import { bootstrapAdmin } from "./admin-bootstrap.ts";
import { loadUserConfig } from "./config.ts";
import { entities } from "./entities.ts";
import { migrationsList } from "./migrations/index.ts";
import { userServiceImpl } from "./routes/index.ts";
import { createTokenIssuer } from "./tokens.ts";
import type { UserServiceContext } from "./user-context.ts";

export const userServiceDefinition: ServiceDefinition = {
  name: "user",
  services: [UserService],
  entities,
  migrations: migrationsList,
  async create(deps) {
    const config = loadUserConfig(deps.env);
    // The host's logger is already bound to this service's name.
    const logger = deps.logger;
    const tokens = await createTokenIssuer(deps.orm.em, config);
    await bootstrapAdmin(deps.orm.em, logger, { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD });
    const svc: UserServiceContext = { tokens, revocations: deps.revocations, bus: deps.bus, logger };
    return {
      routes(router) {
        router.service(UserService, userServiceImpl(svc));
      },
      verificationKeys: () => tokens.verificationKeys(),
    };
  },
};

export { USER_CREATED_SUBJECT } from "./events.ts";
export type { UserCreatedEvent } from "./events.ts";
