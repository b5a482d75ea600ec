// Secrets of the people part that a deployment may leave unset (the contact-book hash key, the VAPID key pair):
// generated once and stored, under an advisory lock so replicas starting together agree, like the user service's
// signing keys. A configured value always wins and is never stored.
import { randomBytes } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import { advisoryXactLock } from "@tt/kit";
import { PeopleSecret } from "./modules/notifications/people-secret.entity.ts";
import { generateVapidKeys } from "./providers/web-push.ts";
import type { PeopleConfig } from "./people-config.ts";

const LOCK = "tt.room.people-secrets";

async function stored(em: EntityManager, name: string, make: () => string): Promise<string> {
  return em.fork().transactional(async (tx) => {
    await advisoryXactLock(tx, LOCK);
    const row = await tx.findOne(PeopleSecret, { name });
    if (row) return row.value;
    const value = make();
    tx.create(PeopleSecret, { name, value });
    return value;
  });
}

export interface PeopleSecrets {
  contactKey: Buffer;
  vapid: { publicKey: string; privateKey: string };
}

export async function loadPeopleSecrets(em: EntityManager, config: PeopleConfig): Promise<PeopleSecrets> {
  const contactKey = config.CONTACT_HASH_KEY
    ? Buffer.from(config.CONTACT_HASH_KEY, "utf8")
    : Buffer.from(await stored(em, "contact-hash-key", () => randomBytes(32).toString("base64")), "base64");
  const vapid =
    config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY
      ? { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY }
      : (JSON.parse(
          await stored(em, "vapid-keys", () => JSON.stringify(generateVapidKeys())),
        ) as PeopleSecrets["vapid"]);
  return { contactKey, vapid };
}
