import { useAppTranslation } from "@tt/web-kit";
import { IconButton, Slider } from "@tt/web-kit/ui";
import { Volume1, Volume2, VolumeX } from "lucide-react";
import { useEffect, useState } from "react";
import { LIVE_NAMESPACE, liveTranslations } from "./locales.ts";

/** Where the listener's volume is kept between visits (0–100). */
export const VOLUME_KEY = "tt-room-volume";
const DEFAULT_VOLUME = 80;

function storedVolume(): number {
  try {
    const value = Number(localStorage.getItem(VOLUME_KEY));
    return localStorage.getItem(VOLUME_KEY) !== null && Number.isFinite(value)
      ? Math.min(100, Math.max(0, value))
      : DEFAULT_VOLUME;
  } catch {
    return DEFAULT_VOLUME;
  }
}

/**
 * The room's volume (the kit's Slider) and a mute button, applied to the player's media element; kept between
 * visits. `playKey` changes with each play, so a new media source gets the same volume.
 */
export function Volume({ media, playKey }: { media: () => HTMLMediaElement | null | undefined; playKey: string }) {
  const { t } = useAppTranslation(LIVE_NAMESPACE, liveTranslations);
  const [volume, setVolume] = useState(storedVolume);
  const [muted, setMuted] = useState(false);
  useEffect(() => {
    const element = media();
    if (!element) return;
    element.volume = volume / 100;
    element.muted = muted;
  }, [media, volume, muted, playKey]);
  const change = (next: number) => {
    setVolume(next);
    if (next > 0) setMuted(false);
    try {
      localStorage.setItem(VOLUME_KEY, String(next));
    } catch {
      // Private mode: the volume lasts for this page.
    }
  };
  const silent = muted || volume === 0;
  const Icon = silent ? VolumeX : volume < 50 ? Volume1 : Volume2;
  return (
    <div className="tt-live-volume">
      <IconButton
        size="sm"
        icon={<Icon aria-hidden="true" />}
        label={t("mute")}
        aria-pressed={silent}
        onClick={() => (volume === 0 ? change(DEFAULT_VOLUME) : setMuted(!muted))}
      />
      <Slider
        label={t("volume")}
        value={silent ? 0 : volume}
        onValueChange={change}
        valueText={t("volumeValue", { value: silent ? 0 : volume })}
      />
    </div>
  );
}
