// Crates as a person names them: the built-in ones ("default", "tt-stars") by the kit's words ("Queue", "Likes"),
// every other one by its own name.
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { useAppTranslation } from "@tt/web-kit";
import { useFormat, useNames } from "@tt/web-kit/ui";
import { useCallback } from "react";
import { CRATES_NAMESPACE, en, es } from "../i18n.ts";

export type Special = "queue" | "likes";

/** The internal name of a built-in crate (the server's crateName for it). */
const BUILT_IN: Record<Special, string> = { queue: "default", likes: "tt-stars" };

export function isSpecial(value: string | undefined): value is Special {
  return value === "queue" || value === "likes";
}

/** `(crate)` → the words for it in the page's language; `special` names a built-in crate not loaded yet. */
export function useCrateName(): (
  crate: { special?: string; crateName?: string } | undefined,
  special?: Special,
) => string {
  const name = useNames();
  return useCallback(
    (crate, special) => {
      const which = special ?? crate?.special;
      if (isSpecial(which)) return name("crate", BUILT_IN[which]);
      return crate?.crateName ?? "";
    },
    [name],
  );
}

/** A protobuf timestamp as a Date, or undefined when the answer had none. */
export function dateOf(timestamp: Timestamp | undefined): Date | undefined {
  return timestamp ? timestampDate(timestamp) : undefined;
}

/** `(count)` → "2,000 songs" in the page's language (the number grouped as the reader writes it). */
export function useSongCount(): (count: number) => string {
  const { t } = useAppTranslation(CRATES_NAMESPACE, { en, es });
  const format = useFormat();
  return useCallback((count) => t("list.songs", { count, number: format.number(count) }), [t, format]);
}
