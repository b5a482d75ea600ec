import { useMutation } from "@tanstack/react-query";
import { ExportService } from "@tt/proto/tt/playlist/v1/export_service_pb";
import { useAppTranslation, useErrorText } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";
import { Button, Menu, MenuItem, MenuLabel, toast, useNames } from "@tt/web-kit/ui";
import { ExternalLink, Upload } from "lucide-react";
import { CRATES_NAMESPACE, en, es } from "../i18n.ts";
import { useTrackCrateAction } from "../lib/analytics.ts";

/** The services a crate can be exported to (002 §7 POST /exports/spotify, /exports/apple), by provider wire name. */
const TARGETS = ["spotify", "apple"] as const;
type Target = (typeof TARGETS)[number];

/**
 * Export a crate to the listener's Spotify or Apple Music account: a menu of the providers by name, the outcome as a
 * toast, and a link to the new playlist once there is one.
 */
export function ExportMenu({ crateUuid }: { crateUuid: string }) {
  const { t } = useAppTranslation(CRATES_NAMESPACE, { en, es });
  const name = useNames();
  const toText = useErrorText();
  const client = useClient(ExportService);
  const track = useTrackCrateAction();
  const exportCrate = useMutation({
    mutationFn: async (provider: Target) =>
      provider === "spotify" ? client.exportToSpotify({ crateUuid }) : client.exportToApple({ crateUuid }),
    onSuccess: (result, provider) => {
      track({ crateUuid }, "export", { provider });
      toast({
        title: t("crate.exported", { provider: name("provider", provider) }),
        description: t("crate.exportedCount", { count: result.exported }),
        tone: "success",
      });
    },
    onError: (error) => toast({ title: toText(error), tone: "error" }),
  });
  const done = exportCrate.isSuccess && exportCrate.data.link ? exportCrate.variables : undefined;
  return (
    <>
      <Menu
        trigger={
          <Button variant="secondary" icon={<Upload aria-hidden="true" />} busy={exportCrate.isPending}>
            {t("crate.export")}
          </Button>
        }
      >
        <MenuLabel>{t("crate.exportTo")}</MenuLabel>
        {TARGETS.map((provider) => (
          <MenuItem key={provider} onSelect={() => exportCrate.mutate(provider)}>
            {name("provider", provider)}
          </MenuItem>
        ))}
      </Menu>
      {done ? (
        <a className="tt-export-link" href={exportCrate.data?.link} target="_blank" rel="noreferrer">
          {t("crate.exportedLink", { provider: name("provider", done) })}
          <ExternalLink aria-hidden="true" />
        </a>
      ) : null}
    </>
  );
}
