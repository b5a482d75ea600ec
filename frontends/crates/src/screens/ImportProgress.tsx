import { useAppTranslation } from "@tt/web-kit";
import { Badge } from "@tt/web-kit/ui";
import type { Crate } from "../api/crates.ts";
import { IN_PROGRESS } from "../api/hooks.ts";
import { CRATES_NAMESPACE, en, es } from "../i18n.ts";
import { useSongCount } from "../lib/names.ts";

/** An import's state: a busy progress bar with the songs so far while IN_PROGRESS, then COMPLETE or FAILED. */
export function ImportProgress({ crate }: { crate: Pick<Crate, "importStatus" | "crateSongsNumber" | "crateName"> }) {
  const { t } = useAppTranslation(CRATES_NAMESPACE, { en, es });
  const songCount = useSongCount();
  const status = crate.importStatus;
  if (status !== IN_PROGRESS && status !== "FAILED" && status !== "COMPLETE") return null;
  return (
    <span className="tt-import-progress" data-status={status}>
      {status === IN_PROGRESS ? <progress className="tt-progress" aria-label={t("import.progress")} /> : null}
      <span role={status === "FAILED" ? "alert" : "status"}>
        {status === IN_PROGRESS ? (
          `${t(`import.${status}`)} ${songCount(crate.crateSongsNumber)}`
        ) : (
          <Badge tone={status === "FAILED" ? "danger" : "success"}>{t(`import.${status}`)}</Badge>
        )}
      </span>
    </span>
  );
}
