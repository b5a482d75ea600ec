import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useAppTranslation, useErrorText, useSession } from "@tt/web-kit";
import { FormError, TextField, useServerErrors, useZodForm, z } from "@tt/web-kit/form";
import {
  Badge,
  Button,
  Dialog,
  DialogClose,
  EmptyState,
  ErrorMessage,
  Skeleton,
  toast,
  useNames,
} from "@tt/web-kit/ui";
import { Download, ListMusic, Plus } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { crateKeys, useCrateClient, type Crate } from "../api/crates.ts";
import { IN_PROGRESS, useMyCrates } from "../api/hooks.ts";
import { CRATES_NAMESPACE, en, es } from "../i18n.ts";
import { useTrackCrateAction } from "../lib/analytics.ts";
import { providerOfLink } from "../lib/links.ts";
import { isSpecial, useCrateName } from "../lib/names.ts";
import { Link, navigate } from "../lib/router.tsx";
import { CrateArt } from "./art.tsx";
import { ImportProgress } from "./ImportProgress.tsx";

/** The in-app path of a crate: the special ones have their own. */
export function crateLink(crate: Pick<Crate, "special" | "crateUuid">): string {
  if (isSpecial(crate.special)) return `/${crate.special}`;
  return `/${encodeURIComponent(crate.crateUuid)}`;
}

function useCratesText() {
  return useAppTranslation(CRATES_NAMESPACE, { en, es });
}

function CreateCrateDialog() {
  const { t } = useCratesText();
  const client = useCrateClient();
  const queryClient = useQueryClient();
  const userUuid = useSession().user?.uuid ?? "";
  const track = useTrackCrateAction();
  const formId = useId();
  const [open, setOpen] = useState(false);
  const form = useZodForm(z.object({ crateName: z.string().trim().max(100) }), { defaultValues: { crateName: "" } });
  const { formError, fail, clear } = useServerErrors(form);
  const create = useMutation({
    mutationFn: (crateName: string) => client.createCrate({ crateName }),
    onSuccess: async ({ crate }) => {
      if (crate) track({ crateUuid: crate.crateUuid }, "create");
      await queryClient.invalidateQueries({ queryKey: crateKeys.list(userUuid) });
      setOpen(false);
      form.reset();
      if (crate) {
        toast({ title: t("create.created", { name: crate.crateName }), tone: "success" });
        navigate(crateLink(crate));
      }
    },
    onError: fail,
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) clear();
      }}
      trigger={<Button icon={<Plus aria-hidden="true" />}>{t("create.open")}</Button>}
      title={t("create.title")}
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t("crate.cancel")}</Button>
          </DialogClose>
          <Button type="submit" form={formId} busy={create.isPending}>
            {t("create.submit")}
          </Button>
        </>
      }
    >
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
    </Dialog>
  );
}

// Spec 002 §5: the refusal for a link of no supported provider.
export const UNSUPPORTED_IMPORT_TEXT = "Sorry, this song does not have any supported music providers to import from";

function ImportDialog() {
  const { t } = useCratesText();
  const name = useNames();
  const client = useCrateClient();
  const queryClient = useQueryClient();
  const userUuid = useSession().user?.uuid ?? "";
  const track = useTrackCrateAction();
  const formId = useId();
  const [open, setOpen] = useState(false);
  const schema = z.object({
    link: z
      .string()
      .trim()
      .min(1, t("import.linkRequired"))
      .max(2048)
      .refine((value) => providerOfLink(value) !== undefined, UNSUPPORTED_IMPORT_TEXT),
  });
  const form = useZodForm(schema, { defaultValues: { link: "" } });
  const { formError, fail, clear } = useServerErrors(form);
  const detected = providerOfLink(form.watch("link"));
  const importCrate = useMutation({
    mutationFn: ({ musicProvider, url }: { musicProvider: string; url: string }) =>
      client.createCrate({ import: { musicProvider, link: url } }),
    onSuccess: async ({ crate }, { musicProvider }) => {
      track({ crateUuid: crate?.crateUuid ?? "" }, "import", { musicProvider });
      toast({ title: t("import.started", { provider: name("provider", musicProvider) }), tone: "info" });
      setOpen(false);
      form.reset();
      // The new crate shows IN_PROGRESS in the list, which then refreshes every 5 seconds until it ends.
      await queryClient.invalidateQueries({ queryKey: crateKeys.list(userUuid) });
    },
    onError: fail,
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) clear();
      }}
      trigger={
        <Button variant="secondary" icon={<Download aria-hidden="true" />}>
          {t("import.open")}
        </Button>
      }
      title={t("import.title")}
      description={t("import.description")}
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t("crate.cancel")}</Button>
          </DialogClose>
          <Button type="submit" form={formId} busy={importCrate.isPending}>
            {t("import.submit")}
          </Button>
        </>
      }
    >
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
    </Dialog>
  );
}

function CrateCard({ crate }: { crate: Crate }) {
  const { t } = useCratesText();
  const crateName = useCrateName();
  const special = isSpecial(crate.special) ? crate.special : undefined;
  return (
    <li className="tt-crate-card">
      <Link to={crateLink(crate)} className="tt-crate-card__link">
        <CrateArt special={special} thumbnails={crate.thumbnails} />
        <span className="tt-crate-card__text">
          <strong className="tt-crate-card__name">{crateName(crate)}</strong>
          <span className="tt-crate-card__meta">{t("list.songs", { count: crate.crateSongsNumber })}</span>
        </span>
      </Link>
      {crate.importStatus ? <ImportProgress crate={crate} /> : null}
    </li>
  );
}

function CardSkeletons() {
  return (
    <ul className="tt-crate-grid" aria-hidden="true">
      {Array.from({ length: 6 }, (_, index) => (
        <li key={index} className="tt-crate-card tt-crate-card--skeleton">
          <Skeleton height="auto" radius="var(--tt-radius)" className="tt-crate-card__art-skeleton" />
          <Skeleton width="70%" height="1rem" />
          <Skeleton width="40%" height="0.8rem" />
        </li>
      ))}
    </ul>
  );
}

/** A crate whose import ended since the last refresh is told as a toast (done, or failed). */
function useImportOutcomes(crates: readonly Crate[]) {
  const { t } = useCratesText();
  const seen = useRef(new Map<string, string>());
  useEffect(() => {
    for (const crate of crates) {
      const before = seen.current.get(crate.crateUuid);
      seen.current.set(crate.crateUuid, crate.importStatus);
      if (before !== IN_PROGRESS || crate.importStatus === IN_PROGRESS) continue;
      if (crate.importStatus === "COMPLETE") {
        toast({
          title: t("list.imported", { name: crate.crateName, count: crate.crateSongsNumber }),
          tone: "success",
        });
      } else if (crate.importStatus === "FAILED") {
        toast({ title: t("list.importFailed", { name: crate.crateName }), tone: "error" });
      }
    }
  }, [crates, t]);
}

/** The caller's crates (the queue and likes first), and the ways to make one: create, or import a playlist. */
export function CratesScreen() {
  const { t } = useCratesText();
  const toText = useErrorText();
  const list = useMyCrates();
  const crates = list.data?.pages.flatMap((page) => page.crates) ?? [];
  // The two special crates lead the list, queue first; the others keep the server's order.
  const rank = (crate: Crate) => (crate.special === "queue" ? 0 : crate.special === "likes" ? 1 : 2);
  const ordered = [...crates].sort((a, b) => rank(a) - rank(b));
  useImportOutcomes(crates);
  let body;
  if (list.isPending) body = <CardSkeletons />;
  else if (list.isError)
    body = (
      <div className="tt-stack">
        <ErrorMessage>{toText(list.error)}</ErrorMessage>
        <div>
          <Button variant="secondary" onClick={() => void list.refetch()}>
            {t("retry")}
          </Button>
        </div>
      </div>
    );
  else if (ordered.length === 0)
    body = (
      <EmptyState icon={<ListMusic />} title={t("list.emptyTitle")} action={<CreateCrateDialog />}>
        {t("list.emptyBody")}
      </EmptyState>
    );
  else
    body = (
      <>
        <ul className="tt-crate-grid" aria-label={t("list.label")}>
          {ordered.map((crate) => (
            <CrateCard key={crate.crateUuid} crate={crate} />
          ))}
        </ul>
        {list.hasNextPage ? (
          <div className="tt-more">
            <Button variant="secondary" busy={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
              {t("list.more")}
            </Button>
          </div>
        ) : null}
      </>
    );
  return (
    <div className="tt-crates-screen">
      <header className="tt-screen-head">
        <h1 className="tt-page-title">{t("title")}</h1>
        <div className="tt-screen-head__actions">
          <ImportDialog />
          <CreateCrateDialog />
        </div>
      </header>
      {body}
    </div>
  );
}
