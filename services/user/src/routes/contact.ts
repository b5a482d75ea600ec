import type { ServiceImpl } from "@connectrpc/connect";
import type { ContactService } from "@tt/proto/tt/user/v1/contact_service_pb";
import type { UserServiceContext } from "../user-context.ts";
import { emailRoutes } from "./contact-emails.ts";
import { contactMatchRoutes } from "./contact-match.ts";
import { mobileRoutes } from "./contact-mobile.ts";
import { phoneRoutes } from "./contact-phones.ts";

/** RPCs of the contact area: e-mails and their verification, mobile auth codes, the phone whitelist, phone validation, admin phone numbers, the dev outbox, throttling. */
export function contactRoutes(svc: UserServiceContext): Partial<ServiceImpl<typeof ContactService>> {
  const config = svc.areas.contact;
  return {
    ...emailRoutes(svc, config),
    ...mobileRoutes(svc, config),
    ...phoneRoutes(svc, config),
    ...contactMatchRoutes(),
  };
}
