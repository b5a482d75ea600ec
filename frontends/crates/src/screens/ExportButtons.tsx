import { useMutation } from "@tanstack/react-query";
import { ExportService } from "@tt/proto/tt/playlist/v1/export_service_pb";
import { useAppTranslation, useErrorText } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";
import { CRATES_NAMESPACE, en, es } from "../i18n.ts";
import { useTrackCrateAction } from "../lib/analytics.ts";

const TARGETS = [
  { provider: "spotify", name: "Spotify" },
  { provider: "apple", name: "Apple Music" },
] as const;

/** Export a crate to the user's Spotify or Apple Music account (002 §7 POST /exports/spotify, /exports/apple). */
export function ExportButtons({ crateUuid }: { crateUuid: string }) {
  const { t } = useAppTranslation(CRATES_NAMESPACE, { en, es });
  const toText = useErrorText();
  const client = useClient(ExportService);
  const track = useTrackCrateAction();
  const exportCrate = useMutation({
    mutationFn: async (provider: "spotify" | "apple") =>
      provider === "spotify" ? client.exportToSpotify({ crateUuid }) : client.exportToApple({ crateUuid }),
    onSuccess: (_result, provider) => track({ crateUuid }, "export", { provider }),
  });
  const done = TARGETS.find((target) => target.provider === exportCrate.variables);
  return (
    <>
      {TARGETS.map((target) => (
        <button
          key={target.provider}
          type="button"
          className="tt-button tt-button--quiet"
          disabled={exportCrate.isPending}
          onClick={() => exportCrate.mutate(target.provider)}
        >
          {t("crate.exportTo", { provider: target.name })}
        </button>
      ))}
      {exportCrate.isSuccess && done ? (
        <span role="status">
          {exportCrate.data.link ? (
            <a href={exportCrate.data.link} target="_blank" rel="noreferrer">
              {t("crate.exported", { provider: done.name })}
            </a>
          ) : (
            t("crate.exported", { provider: done.name })
          )}
        </span>
      ) : null}
      {exportCrate.isError ? (
        <span className="tt-error" role="alert">
          {toText(exportCrate.error)}
        </span>
      ) : null}
    </>
  );
}
