// Checking and resizing uploaded pictures. The declared content type and file name are never trusted: the
// bytes' own signature decides, and sharp re-encodes every size so nothing the client sent is served as is.
import sharp from "sharp";

export type ImageType = "jpeg" | "png" | "webp" | "gif";

/** The stored sizes (the longer side, in pixels); the default one is what `url` points at. */
export const IMAGE_SIZES = [128, 256, 500, 1024] as const;
export const DEFAULT_IMAGE_SIZE = 256;

/** Decoding refuses images above this many pixels (a small file can claim a huge canvas). */
const MAX_INPUT_PIXELS = 50_000_000;

/** The image type its first bytes say, or null when they are none of JPEG, PNG, WebP and GIF. */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0xff, 0xd8, 0xff])) return "jpeg";
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  // "GIF87a" / "GIF89a"
  if (starts([0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return "gif";
  // "RIFF" <size> "WEBP"
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "webp";
  return null;
}

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
