// Resizing uploaded pictures (@tt/image-type's detectImageType checks them first, by their bytes): sharp re-encodes
// every size so nothing the client sent is served as is.
import sharp from "sharp";

/** The stored sizes (the longer side, in pixels); the default one is what `url` points at. */
export const IMAGE_SIZES = [128, 256, 500, 1024] as const;
export const DEFAULT_IMAGE_SIZE = 256;

/** Decoding refuses images above this many pixels (a small file can claim a huge canvas). */
const MAX_INPUT_PIXELS = 50_000_000;

export class ImageDecodeError extends Error {
  override name = "ImageDecodeError";
}

export interface ResizedImage {
  size: number;
  body: Uint8Array;
}

/**
 * Every stored size as WebP, the longer side at most `size` (never enlarged), turned upright per EXIF and
 * without metadata (no GPS position leaves the platform). Animated GIF/WebP keep only their first frame.
 */
export async function resizeImage(bytes: Uint8Array): Promise<ResizedImage[]> {
  try {
    // Each size from the original bytes: keeping one decoded copy in memory would cost more than decoding again.
    return await Promise.all(
      IMAGE_SIZES.map(async (size) => ({
        size,
        body: new Uint8Array(
          await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })
            .rotate()
            .resize(size, size, { fit: "inside", withoutEnlargement: true })
            .webp({ quality: 82 })
            .toBuffer(),
        ),
      })),
    );
  } catch (err) {
    throw new ImageDecodeError("the image could not be read", { cause: err });
  }
}
