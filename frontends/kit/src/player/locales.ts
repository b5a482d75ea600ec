import type { Translations } from "../i18n.ts";

export const PLAYER_NAMESPACE = "player";

const en = {
  quality: "Audio quality",
  qualities: { low: "Low", medium: "Medium", high: "High" },
  errors: {
    missingPlayHandler: "Missing play handler for {{detail}}",
    missingUrl: "Missing URL to play from {{detail}}",
    missingId: "Missing ID to play from {{detail}}",
    unknownProvider: "Unknown provider",
    noSoundCloudToken: "No SoundCloud public token",
    noSpotifyToken: "No Spotify token",
    missingConfig: "key:{{detail}}",
    mediaFailed: "Failed to play song",
  },
};

const es: typeof en = {
  quality: "Calidad de audio",
  qualities: { low: "Baja", medium: "Media", high: "Alta" },
  errors: {
    missingPlayHandler: "Falta el reproductor para {{detail}}",
    missingUrl: "Falta la URL desde la que reproducir {{detail}}",
    missingId: "Falta el ID con el que reproducir {{detail}}",
    unknownProvider: "Proveedor desconocido",
    noSoundCloudToken: "No hay token público de SoundCloud",
    noSpotifyToken: "No hay token de Spotify",
    missingConfig: "key:{{detail}}",
    mediaFailed: "No se pudo reproducir la canción",
  },
};

export const playerTranslations: Translations = { en, es };
