// The image area's part of the environment (validated with the kit's parseEnv, like the service config): the
// kit's object-store variables and the largest image accepted.
import { z } from "zod";
import { checkMediaStore, mediaStoreShape, parseEnv } from "@tt/kit";

export const mediaConfigSchema = z
  .object({
    ...mediaStoreShape,
    MEDIA_MAX_IMAGE_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(10 * 1024 * 1024),
  })
  .superRefine(checkMediaStore);

export type MediaConfig = z.output<typeof mediaConfigSchema>;

export function loadMediaConfig(env: Record<string, string | undefined>): MediaConfig {
  return parseEnv(mediaConfigSchema, env);
}
