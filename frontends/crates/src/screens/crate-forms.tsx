// The crates' forms (new crate, import a playlist, rename): a chunk of their own with the kit's form entry, loaded
// when a FormDialog opens.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useAppTranslation, useSession } from "@tt/web-kit";
import { FormError, TextField, useServerErrors, useZodForm, z } from "@tt/web-kit/form";
import { Badge, toast, useNames } from "@tt/web-kit/ui";
import { useEffect } from "react";
import { crateKeys, useCrateClient, type Crate } from "../api/crates.ts";
import { CRATES_NAMESPACE, en, es } from "../i18n.ts";
import { useTrackCrateAction } from "../lib/analytics.ts";
import { providerOfLink } from "../lib/links.ts";
import { navigate } from "../lib/router.tsx";
import type { DialogFormProps } from "./FormDialog.tsx";
import { crateLink } from "./links.ts";

// Spec 002 §5: the refusal for a link of no supported provider.
export const UNSUPPORTED_IMPORT_TEXT = "Sorry, this song does not have any supported music providers to import from";

function useCratesText() {
  return useAppTranslation(CRATES_NAMESPACE, { en, es });
}

export function CreateCrateForm({ formId, setBusy, close }: DialogFormProps) {
  const { t } = useCratesText();
  const client = useCrateClient();
  const queryClient = useQueryClient();
  const userUuid = useSession().user?.uuid ?? "";
  const track = useTrackCrateAction();
  const form = useZodForm(z.object({ crateName: z.string().trim().max(100) }), { defaultValues: { crateName: "" } });
  const { formError, fail } = useServerErrors(form);
  const create = useMutation({
    mutationFn: (crateName: string) => client.createCrate({ crateName }),
    onSuccess: async ({ crate }) => {
      if (crate) track({ crateUuid: crate.crateUuid }, "create");
      await queryClient.invalidateQueries({ queryKey: crateKeys.list(userUuid) });
      close();
      if (crate) {
        toast({ title: t("create.created", { name: crate.crateName }), tone: "success" });
        navigate(crateLink(crate));
      }
    },
    onError: fail,
  });
  useEffect(() => setBusy(create.isPending), [create.isPending, setBusy]);
  return (
    <form id={formId} noValidate onSubmit={form.handleSubmit(({ crateName }) => create.mutate(crateName))}>
      <TextField
        form={form}
        name="crateName"
        label={t("create.name")}
        hint={t("create.nameHint")}
        maxLength={100}
        autoComplete="off"
      />
      <FormError message={formError} />
    </form>
  );
}

export function ImportForm({ formId, setBusy, close }: DialogFormProps) {
  const { t } = useCratesText();
  const name = useNames();
  const client = useCrateClient();
  const queryClient = useQueryClient();
  const userUuid = useSession().user?.uuid ?? "";
  const track = useTrackCrateAction();
  const schema = z.object({
    link: z
      .string()
      .trim()
      .min(1, t("import.linkRequired"))
      .max(2048)
      .refine((value) => providerOfLink(value) !== undefined, UNSUPPORTED_IMPORT_TEXT),
  });
  const form = useZodForm(schema, { defaultValues: { link: "" } });
  const { formError, fail } = useServerErrors(form);
  const detected = providerOfLink(form.watch("link"));
  const importCrate = useMutation({
    mutationFn: ({ musicProvider, url }: { musicProvider: string; url: string }) =>
      client.createCrate({ import: { musicProvider, link: url } }),
    onSuccess: async ({ crate }, { musicProvider }) => {
      track({ crateUuid: crate?.crateUuid ?? "" }, "import", { musicProvider });
      toast({ title: t("import.started", { provider: name("provider", musicProvider) }), tone: "info" });
      close();
      // The new crate shows IN_PROGRESS in the list, which then refreshes every 5 seconds until it ends.
      await queryClient.invalidateQueries({ queryKey: crateKeys.list(userUuid) });
    },
    onError: fail,
  });
  useEffect(() => setBusy(importCrate.isPending), [importCrate.isPending, setBusy]);
  return (
    <form
      id={formId}
      noValidate
      onSubmit={form.handleSubmit(({ link }) =>
        importCrate.mutate({ musicProvider: providerOfLink(link) ?? "", url: link }),
      )}
    >
      <TextField
        form={form}
        name="link"
        type="url"
        label={t("import.link")}
        hint={t("import.linkHint")}
        placeholder="https://open.spotify.com/playlist/…"
        maxLength={2048}
        autoComplete="off"
      />
      {detected ? (
        <p className="tt-import-detected">
          <Badge tone="accent">{t("import.detected", { provider: name("provider", detected) })}</Badge>
        </p>
      ) : null}
      <FormError message={formError} />
    </form>
  );
}

export function RenameForm({ crate, formId, setBusy, close }: DialogFormProps & { crate: Crate }) {
  const { t } = useCratesText();
  const client = useCrateClient();
  const queryClient = useQueryClient();
  const userUuid = useSession().user?.uuid ?? "";
  const track = useTrackCrateAction();
  const schema = z.object({
    crateName: z.string().trim().min(1, t("crate.nameRequired")).max(100),
    description: z.string().trim().max(1000),
  });
  const form = useZodForm(schema, { defaultValues: { crateName: crate.crateName, description: crate.description } });
  const { formError, fail } = useServerErrors(form);
  const rename = useMutation({
    mutationFn: (values: { crateName: string; description: string }) =>
      client.updateCrate({ crateUuid: crate.crateUuid, ...values }),
    onSuccess: async () => {
      track({ crateUuid: crate.crateUuid }, "rename");
      await queryClient.invalidateQueries({ queryKey: crateKeys.all(userUuid) });
      toast({ title: t("crate.saved"), tone: "success" });
      close();
    },
    onError: fail,
  });
  useEffect(() => setBusy(rename.isPending), [rename.isPending, setBusy]);
  return (
    <form id={formId} noValidate onSubmit={form.handleSubmit((values) => rename.mutate(values))}>
      <TextField form={form} name="crateName" label={t("crate.renameLabel")} maxLength={100} autoComplete="off" />
      <TextField form={form} name="description" label={t("crate.descriptionLabel")} maxLength={1000} />
      <FormError message={formError} />
    </form>
  );
}
