// Spec 002 §9: in catalogue plus SoundCloud results, the first five catalogue results come first, then the
// two lists alternate (SoundCloud, catalogue, SoundCloud, …); whichever list is longer ends the page.
export const CATALOGUE_HEAD = 5;

export function mergeCatalogueAndSoundCloud<T>(catalogue: readonly T[], soundcloud: readonly T[]): T[] {
  const merged = catalogue.slice(0, CATALOGUE_HEAD);
  const restCatalogue = catalogue.slice(CATALOGUE_HEAD);
  const longest = Math.max(restCatalogue.length, soundcloud.length);
  for (let i = 0; i < longest; i++) {
    if (i < soundcloud.length) merged.push(soundcloud[i] as T);
    if (i < restCatalogue.length) merged.push(restCatalogue[i] as T);
  }
  return merged;
}
