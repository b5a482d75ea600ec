import { defineEntity, p } from "@mikro-orm/core";

/** Secrets generated on first start and shared by every replica (HLS key URLs, transcoder reports). */
export const UploadSecretSchema = defineEntity({
  name: "UploadSecret",
  tableName: "upload_secret",
  properties: {
    name: p.string().length(64).primary(),
    value: p.string().length(128),
  },
});

export class UploadSecret extends UploadSecretSchema.class {}
UploadSecretSchema.setClass(UploadSecret);
