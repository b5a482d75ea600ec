import { Heart, ListMusic, ListOrdered, Music } from "lucide-react";
import type { Special } from "../lib/names.ts";

/** The first artwork a song has, whichever provider gave it. */
export function artworkOf(thumbnails: Record<string, string> | undefined): string | undefined {
  return Object.values(thumbnails ?? {}).find((url) => url !== "");
}

/** A song's cover, or a note on a tile when it has none; decorative (the row says the title). */
export function SongArt({ src }: { src: string | undefined }) {
  return src ? (
    <img className="tt-art tt-art--song" src={src} alt="" loading="lazy" decoding="async" />
  ) : (
    <span className="tt-art tt-art--song tt-art--empty" aria-hidden="true">
      <Music />
    </span>
  );
}

/**
 * A crate's cover: the queue and the likes their own tile, any other crate a mosaic of its first songs' artwork
 * (one image when it has fewer than four), a tile when it has none. Decorative.
 */
export function CrateArt({
  special,
  thumbnails,
  size = "md",
}: {
  special?: Special | undefined;
  thumbnails: readonly string[];
  size?: "md" | "lg";
}) {
  const className = `tt-art tt-art--crate tt-art--${size}`;
  if (special) {
    const Icon = special === "queue" ? ListOrdered : Heart;
    return (
      <span className={`${className} tt-art--${special}`} aria-hidden="true">
        <Icon />
      </span>
    );
  }
  const images = thumbnails.filter(Boolean);
  if (images.length >= 4) {
    return (
      <span className={`${className} tt-art--mosaic`} aria-hidden="true">
        {images.slice(0, 4).map((src, index) => (
          <img key={`${index}-${src}`} src={src} alt="" loading="lazy" decoding="async" />
        ))}
      </span>
    );
  }
  if (images[0]) return <img className={className} src={images[0]} alt="" loading="lazy" decoding="async" />;
  return (
    <span className={`${className} tt-art--empty`} aria-hidden="true">
      <ListMusic />
    </span>
  );
}
