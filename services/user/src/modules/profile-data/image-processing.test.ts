import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { detectImageType } from "@tt/image-type";
import { ImageDecodeError, resizeImage } from "./image-processing.ts";

const canvas = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 1 } } });

describe("detectImageType", () => {
  it("reads the type from the bytes", async () => {
    expect(detectImageType(await canvas(4, 4).png().toBuffer())).toBe("png");
    expect(detectImageType(await canvas(4, 4).jpeg().toBuffer())).toBe("jpeg");
    expect(detectImageType(await canvas(4, 4).webp().toBuffer())).toBe("webp");
    expect(detectImageType(await canvas(4, 4).gif().toBuffer())).toBe("gif");
  });

  it.each([
    ["SVG", "<svg xmlns='http://www.w3.org/2000/svg'/>"],
    ["HTML", "<!doctype html><script>alert(1)</script>"],
    ["a RIFF that is not WebP (WAV)", "RIFF\u0000\u0000\u0000\u0000WAVEfmt "],
    ["too short", "GIF8"],
    ["empty", ""],
  ])("refuses %s", (_what, text) => {
    expect(detectImageType(new TextEncoder().encode(text))).toBeNull();
  });
});

describe("resizeImage", () => {
  it("makes every size as WebP, the longer side bounded, never enlarged, EXIF orientation applied", async () => {
    // Orientation 6: stored 1200×600, shown rotated to 600×1200.
    const input = await canvas(1200, 600).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const sizes = await resizeImage(new Uint8Array(input));
    const dims = await Promise.all(
      sizes.map(async ({ size, body }) => {
        const meta = await sharp(body).metadata();
        return [size, meta.format, meta.width, meta.height, meta.orientation];
      }),
    );
    expect(dims).toEqual([
      [128, "webp", 64, 128, undefined],
      [256, "webp", 128, 256, undefined],
      [500, "webp", 250, 500, undefined],
      [1024, "webp", 512, 1024, undefined],
    ]);
    const small = await resizeImage(new Uint8Array(await canvas(100, 50).png().toBuffer()));
    expect((await sharp(small[3]!.body).metadata()).width).toBe(100);
  });

  it("fails with ImageDecodeError for bytes that only start like an image", async () => {
    const truncated = (await canvas(300, 300).png().toBuffer()).subarray(0, 60);
    await expect(resizeImage(new Uint8Array(truncated))).rejects.toBeInstanceOf(ImageDecodeError);
  });
});
