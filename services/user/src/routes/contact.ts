import type { ServiceImpl } from "@connectrpc/connect";
import type { UserService } from "@tt/proto/tt/user/v1/user_service_pb";
import { loadContactConfig, type ContactConfig } from "../modules/contact/contact-config.ts";
import type { UserServiceContext } from "../user-context.ts";
import { emailRoutes } from "./contact-emails.ts";
import { mobileRoutes } from "./contact-mobile.ts";
import { phoneRoutes } from "./contact-phones.ts";

/** RPCs of the contact area: e-mails and their verification, mobile auth codes, the phone whitelist, phone validation, admin phone numbers, the dev outbox, throttling. */
export function contactRoutes(svc: UserServiceContext): Partial<ServiceImpl<typeof UserService>> {
  // Read on first use: building the routes touches nothing in the context (the completeness test builds them
  // with none). A bad variable still stops the start, where the dev outbox reads the same configuration.
  let config: ContactConfig | undefined;
  const contactConfig = () => (config ??= loadContactConfig(svc.env));
  return {
    ...emailRoutes(svc, contactConfig),
    ...mobileRoutes(svc, contactConfig),
    ...phoneRoutes(svc, contactConfig),
  };
}
