import { useAppTranslation, useErrorText } from "@tt/web-kit";
import { Button, EmptyState, ErrorMessage, Skeleton, toast } from "@tt/web-kit/ui";
import { Download, ListMusic, Plus } from "lucide-react";
import { lazy, useEffect, useRef } from "react";
import type { Crate } from "../api/crates.ts";
import { IN_PROGRESS, useMyCrates } from "../api/hooks.ts";
import { CRATES_NAMESPACE, en, es } from "../i18n.ts";
import { isSpecial, useCrateName, useSongCount } from "../lib/names.ts";
import { Link } from "../lib/router.tsx";
import { CrateArt } from "./art.tsx";
import { FormDialog } from "./FormDialog.tsx";
import { ImportProgress } from "./ImportProgress.tsx";
import { crateLink } from "./links.ts";
import { StartHereShelf } from "./StartHere.tsx";

function useCratesText() {
  return useAppTranslation(CRATES_NAMESPACE, { en, es });
}

// The forms come with the kit's form entry (react-hook-form and zod), fetched when a dialog first opens.
const CreateCrateForm = lazy(() => import("./crate-forms.tsx").then((m) => ({ default: m.CreateCrateForm })));
const ImportForm = lazy(() => import("./crate-forms.tsx").then((m) => ({ default: m.ImportForm })));

function CreateCrateDialog() {
  const { t } = useCratesText();
  return (
    <FormDialog
      trigger={<Button icon={<Plus aria-hidden="true" />}>{t("create.open")}</Button>}
      title={t("create.title")}
      submitLabel={t("create.submit")}
      cancelLabel={t("crate.cancel")}
      render={(props) => <CreateCrateForm {...props} />}
    />
  );
}

function ImportDialog() {
  const { t } = useCratesText();
  return (
    <FormDialog
      trigger={
        <Button variant="secondary" icon={<Download aria-hidden="true" />}>
          {t("import.open")}
        </Button>
      }
      title={t("import.title")}
      description={t("import.description")}
      submitLabel={t("import.submit")}
      cancelLabel={t("crate.cancel")}
      render={(props) => <ImportForm {...props} />}
    />
  );
}

function CrateCard({ crate }: { crate: Crate }) {
  const crateName = useCrateName();
  const songCount = useSongCount();
  const special = isSpecial(crate.special) ? crate.special : undefined;
  return (
    <li className="tt-linked-card tt-crate-card">
      <Link to={crateLink(crate)} className="tt-linked-card__link tt-crate-card__link">
        <CrateArt special={special} thumbnails={crate.thumbnails} />
        <span className="tt-crate-card__text">
          <strong className="tt-crate-card__name">{crateName(crate)}</strong>
          <span className="tt-crate-card__meta">{songCount(crate.crateSongsNumber)}</span>
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

/**
 * The caller's crates (the queue and likes first), and the ways to make one: create, or import a playlist; on a
 * fresh install, the demo songs to start with.
 */
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
      <StartHereShelf />
    </div>
  );
}
