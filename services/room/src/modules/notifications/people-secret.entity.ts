import { defineEntity, p } from "@mikro-orm/core";

/**
 * A generated secret of the people part (the contact-book hash key, the VAPID key pair) when the deployment does
 * not configure one: made once, under an advisory lock, and kept so every replica and restart uses the same.
 */
export const PeopleSecretSchema = defineEntity({
  name: "PeopleSecret",
  tableName: "social_secret",
  properties: {
    name: p.string().length(64).primary(),
    value: p.text().hidden(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class PeopleSecret extends PeopleSecretSchema.class {}
PeopleSecretSchema.setClass(PeopleSecret);
