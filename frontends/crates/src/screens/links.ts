import type { Crate } from "../api/crates.ts";
import { isSpecial } from "../lib/names.ts";

/** The in-app path of a crate: the special ones have their own. */
export function crateLink(crate: Pick<Crate, "special" | "crateUuid">): string {
  if (isSpecial(crate.special)) return `/${crate.special}`;
  return `/${encodeURIComponent(crate.crateUuid)}`;
}
