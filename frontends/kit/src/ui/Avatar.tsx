import { useState, useSyncExternalStore } from "react";
import type * as AvatarArt from "./avatar-art.ts";

export type AvatarSize = "xs" | "sm" | "md" | "lg" | "xl";

type ArtModule = typeof AvatarArt;
let art: ArtModule | undefined;
let artLoading: Promise<ArtModule> | undefined;

function loadArt(): Promise<ArtModule> {
  artLoading ??= import("./avatar-art.ts").then((module) => (art = module));
  return artLoading;
}

const onArt = (listener: () => void) => {
  if (art) return art.onAvatarDrawn(listener);
  let live = true;
  let stop: (() => void) | undefined;
  void loadArt().then((module) => {
    if (!live) return;
    stop = module.onAvatarDrawn(listener);
    listener();
  });
  return () => {
    live = false;
    stop?.();
  };
};

/**
 * The generated avatar of `seed` once its chunk is here and its bitmap is drawn (at once on later renders; the art
 * caches each seed), else undefined: the placeholder shows meanwhile.
 */
function useGenerated(seed: string): string | undefined {
  return useSyncExternalStore(
    onArt,
    () => art?.avatarImage(seed),
    () => undefined,
  );
}

/** A stable hue for the placeholder while the generated avatar loads. */
function hueOf(seed: string): number {
  let hash = 0;
  for (const char of seed) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % 360;
}

export interface AvatarProps {
  /** The user's id: the generated default is drawn from it. */
  id: string;
  /** The user's display name: the image's text alternative. */
  name: string;
  /** The avatar the user wears (a shop avatar's image), when they wear one. */
  src?: string | undefined;
  size?: AvatarSize;
  /** Beside the user's name, the avatar is decoration and hidden from screen readers. */
  decorative?: boolean;
  className?: string;
}

/**
 * A person's avatar: the image they wear, else a default generated from their id (the same in the booth, the
 * crowd, chat, profile cards and the header). An image that fails falls back to the generated one.
 */
export function Avatar({ id, name, src, size = "md", decorative = false, className }: AvatarProps) {
  const [failed, setFailed] = useState<string | undefined>(undefined);
  const generated = useGenerated(id);
  const image = src && failed !== src ? src : generated;
  const classes = `tt-avatar tt-avatar--${size} ${className ?? ""}`.trim();
  const alt = decorative ? "" : name;
  if (!image) {
    return (
      <span
        className={classes}
        style={{ ["--tt-avatar-bg" as string]: `hsl(${hueOf(id)} 45% 35%)` }}
        role={decorative ? undefined : "img"}
        aria-label={decorative ? undefined : name}
        aria-hidden={decorative || undefined}
        // Drawn by CSS, not as text: inside a button or link it would otherwise become part of the visible label
        // that the accessible name has to contain (WCAG 2.5.3).
        data-initial={name.trim().charAt(0).toUpperCase()}
      />
    );
  }
  return (
    <span className={classes} aria-hidden={decorative || undefined}>
      <img
        src={image}
        alt={alt}
        loading="lazy"
        decoding="async"
        draggable={false}
        onError={image === src ? () => setFailed(src) : undefined}
      />
    </span>
  );
}
