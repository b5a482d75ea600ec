// Spec 002 §5: a song can be imported only from one of these providers, checked in this order; §8 words the
// refusals.
export const IMPORT_PROVIDER_ORDER = ["sevenDigital", "soundCloudPublic", "spotify", "apple", "uploadService"] as const;
export type ImportProvider = (typeof IMPORT_PROVIDER_ORDER)[number];

export const NO_SUPPORTED_PROVIDER = "Sorry, this song does not have any supported music providers to import from";
export const NOT_IN_CATALOG = "Sorry, this song is not in our catalog and can't be imported.";

/** The first supported provider the song has an id with, in §5's order, or undefined. */
export function importProviderOf(
  musicProviders: Readonly<Record<string, string | undefined>>,
): { provider: ImportProvider; id: string } | undefined {
  for (const provider of IMPORT_PROVIDER_ORDER) {
    const id = musicProviders[provider];
    if (id !== undefined && id !== "") return { provider, id };
  }
  return undefined;
}

export function isImportProvider(provider: string): provider is ImportProvider {
  return (IMPORT_PROVIDER_ORDER as readonly string[]).includes(provider);
}
