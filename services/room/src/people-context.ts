// What the people areas need beyond the room service's context: their configuration, the push providers, the
// stored or configured secrets, and the user service's contact matching. Built once in create().
import type { Client } from "@connectrpc/connect";
import type { ServiceDeps } from "@tt/kit";
import { ContactService } from "@tt/proto/tt/user/v1/contact_service_pb";
import {
  createDevelopmentPushProvider,
  createFcmProvider,
  parseServiceAccount,
  type MobilePushProvider,
} from "./providers/mobile-push.ts";
import { consumeRoomDeleted } from "./modules/communities/room-deleted.ts";
import { createWebPushSender, type WebPushSender } from "./providers/web-push.ts";
import type { PeopleConfig } from "./people-config.ts";
import { loadPeopleSecrets } from "./people-secrets.ts";

export interface PeopleServices {
  config: PeopleConfig;
  push: MobilePushProvider;
  webPush: WebPushSender;
  vapidPublicKey: string;
  /** The contact book's HMAC key. */
  contactKey: Buffer;
  /** The user service's contact area (MatchContacts), called with the room service's token. */
  contacts: Client<typeof ContactService>;
  /** Stops the people part's event consumers (the instance's close()). */
  close(): Promise<void>;
}

export async function createPeopleServices(deps: ServiceDeps, config: PeopleConfig): Promise<PeopleServices> {
  const secrets = await loadPeopleSecrets(deps.orm.em, config);
  const push =
    config.MOBILE_PUSH_PROVIDER === "fcm"
      ? createFcmProvider({
          account: parseServiceAccount(config.FCM_SERVICE_ACCOUNT_JSON!),
          apiBaseUrl: config.FCM_API_BASE_URL,
          tokenUrl: config.FCM_TOKEN_URL,
          timeoutMs: config.PUSH_TIMEOUT_MS,
        })
      : createDevelopmentPushProvider(deps.logger);
  deps.logger.info({ push: push.mode }, `mobile push provider: ${push.mode}`);
  const roomDeleted = await consumeRoomDeleted(deps.bus, deps.orm, deps.logger);
  return {
    config,
    push,
    webPush: createWebPushSender({
      vapid: { ...secrets.vapid, subject: config.VAPID_SUBJECT },
      timeoutMs: config.PUSH_TIMEOUT_MS,
      ttlSeconds: config.WEB_PUSH_TTL_SECONDS,
      allowHttp: config.WEB_PUSH_ALLOW_HTTP,
    }),
    vapidPublicKey: secrets.vapid.publicKey,
    contactKey: secrets.contactKey,
    contacts: deps.clients.get(ContactService),
    close: () => roomDeleted.unsubscribe(),
  };
}
