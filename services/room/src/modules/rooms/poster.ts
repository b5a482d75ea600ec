// Room posters: checked by their bytes, re-encoded as WebP (at most 1024 px on the longer side, no metadata) and
// kept in the same object store as profile images (the kit's; MEDIA_DIR or S3 with the same variables).
import sharp from "sharp";
import { z } from "zod";
import { checkMediaStore, mediaStoreShape, parseEnv } from "@tt/kit";

export const posterConfigSchema = z
  .object({
    ...mediaStoreShape,
    ROOM_POSTER_MAX_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(5 * 1024 * 1024),
  })
  .superRefine(checkMediaStore);

export type PosterConfig = z.output<typeof posterConfigSchema>;

export function loadPosterConfig(env: Record<string, string | undefined>): PosterConfig {
  return parseEnv(posterConfigSchema, env);
}

/** Where a poster is kept; a fresh id per upload, so a key is never rewritten. */
export function posterKey(posterId: string): string {
  return `posters/${posterId}.webp`;
}

/** The poster as WebP, upright, without metadata; throws when the image cannot be decoded. */
export async function encodePoster(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp(bytes, { limitInputPixels: 50_000_000, failOn: "error" })
      .rotate()
      .resize(1024, 1024, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer(),
  );
}
