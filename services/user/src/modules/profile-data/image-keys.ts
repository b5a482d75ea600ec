import { DEFAULT_IMAGE_SIZE, IMAGE_SIZES } from "./image-processing.ts";

/** Where one size of an image is stored. The id is a fresh uuid, so a key is never rewritten (cacheable forever). */
export function imageKey(imageId: string, size: number): string {
  return `images/${imageId}/${size}.webp`;
}

export function imageKeys(imageId: string): string[] {
  return IMAGE_SIZES.map((size) => imageKey(imageId, size));
}

export { DEFAULT_IMAGE_SIZE, IMAGE_SIZES };
