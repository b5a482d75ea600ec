import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useAppTranslation, useErrorText, useSession } from "@tt/web-kit";
import { useId, useState, type FormEvent } from "react";
import { crateKeys, useCrateClient, type Crate } from "../api/crates.ts";
import { useMyCrates } from "../api/hooks.ts";
import { CRATES_NAMESPACE, en, es } from "../i18n.ts";
import { useTrackCrateAction } from "../lib/analytics.ts";
import { providerOfLink } from "../lib/links.ts";
import { Link, navigate } from "../lib/router.tsx";
import { ImportProgress } from "./ImportProgress.tsx";

/** The in-app path of a crate: the special ones have their own. */
export function crateLink(crate: Pick<Crate, "special" | "crateUuid">): string {
  if (crate.special === "queue" || crate.special === "likes") return `/${crate.special}`;
  return `/${encodeURIComponent(crate.crateUuid)}`;
}

function CreateCrateForm() {
  const { t } = useAppTranslation(CRATES_NAMESPACE, { en, es });
  const toText = useErrorText();
  const client = useCrateClient();
  const queryClient = useQueryClient();
  const userUuid = useSession().user?.uuid ?? "";
  const [name, setName] = useState("");
  const hintId = useId();
  const track = useTrackCrateAction();
  const create = useMutation({
    mutationFn: (crateName: string) => client.createCrate({ crateName }),
    onSuccess: async ({ crate }) => {
      if (crate) track({ crateUuid: crate.crateUuid }, "create");
      setName("");
      await queryClient.invalidateQueries({ queryKey: crateKeys.list(userUuid) });
      if (crate) navigate(crateLink(crate));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(name.trim());
  };
  return (
    <form onSubmit={submit}>
      <fieldset>
        <legend>{t("create.legend")}</legend>
        <label className="tt-field">
          <span>{t("create.name")}</span>
          <input
            value={name}
            maxLength={100}
            aria-describedby={hintId}
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <p id={hintId} className="tt-field-hint">
          {t("create.nameHint")}
        </p>
        <button type="submit" className="tt-button" disabled={create.isPending}>
          {create.isPending ? t("create.creating") : t("create.submit")}
        </button>
        {create.isError ? (
          <p className="tt-error" role="alert">
            {toText(create.error)}
          </p>
        ) : null}
      </fieldset>
    </form>
  );
}

// Spec 002 §5: the refusal for a link of no supported provider.
export const UNSUPPORTED_IMPORT_TEXT = "Sorry, this song does not have any supported music providers to import from";

function ImportForm() {
  const { t } = useAppTranslation(CRATES_NAMESPACE, { en, es });
  const toText = useErrorText();
  const client = useCrateClient();
  const queryClient = useQueryClient();
  const userUuid = useSession().user?.uuid ?? "";
  const [link, setLink] = useState("");
  const hintId = useId();
  const [refusal, setRefusal] = useState("");
  const track = useTrackCrateAction();
  const importCrate = useMutation({
    mutationFn: ({ musicProvider, url }: { musicProvider: string; url: string }) =>
      client.createCrate({ import: { musicProvider, link: url } }),
    onSuccess: async ({ crate }, { musicProvider }) => {
      track({ crateUuid: crate?.crateUuid ?? "" }, "import", { musicProvider });
      setLink("");
      // The new crate shows IN_PROGRESS in the list, which then refreshes every 5 seconds until it ends.
      await queryClient.invalidateQueries({ queryKey: crateKeys.list(userUuid) });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const musicProvider = providerOfLink(link);
    if (!musicProvider) {
      setRefusal(UNSUPPORTED_IMPORT_TEXT);
      return;
    }
    setRefusal("");
    importCrate.mutate({ musicProvider, url: link.trim() });
  };
  return (
    <form onSubmit={submit}>
      <fieldset>
        <legend>{t("import.legend")}</legend>
        <label className="tt-field">
          <span>{t("import.link")}</span>
          <input
            type="url"
            value={link}
            required
            maxLength={2048}
            placeholder="https://open.spotify.com/playlist/…"
            aria-describedby={hintId}
            onChange={(event) => setLink(event.target.value)}
          />
        </label>
        <p id={hintId} className="tt-field-hint">
          {t("import.linkHint")}
        </p>
        <button type="submit" className="tt-button" disabled={importCrate.isPending}>
          {importCrate.isPending ? t("import.importing") : t("import.submit")}
        </button>
        {refusal || importCrate.isError ? (
          <p className="tt-error" role="alert">
            {refusal || toText(importCrate.error)}
          </p>
        ) : null}
      </fieldset>
    </form>
  );
}

function CrateCard({ crate }: { crate: Crate }) {
  const { t } = useAppTranslation(CRATES_NAMESPACE, { en, es });
  const name = crate.special === "queue" || crate.special === "likes" ? t(`special.${crate.special}`) : crate.crateName;
  const art = crate.thumbnails[0];
  return (
    <li className="tt-card">
      <Link to={crateLink(crate)} className="tt-crate-card">
        {art ? <img className="tt-crate-art" src={art} alt="" loading="lazy" /> : <span className="tt-crate-art" />}
        <span>
          <strong>{name}</strong>
          <br />
          <span className="tt-muted">{t("list.songs", { count: crate.crateSongsNumber })}</span>
        </span>
      </Link>
      {crate.importStatus ? <ImportProgress crate={crate} /> : null}
    </li>
  );
}

/** The caller's crates (the queue and likes first), a form to create one and one to import a playlist. */
export function CratesScreen() {
  const { t } = useAppTranslation(CRATES_NAMESPACE, { en, es });
  const toText = useErrorText();
  const list = useMyCrates();
  const crates = list.data?.pages.flatMap((page) => page.crates) ?? [];
  // The two special crates lead the list, queue first; the others keep the server's order.
  const rank = (crate: Crate) => (crate.special === "queue" ? 0 : crate.special === "likes" ? 1 : 2);
  const ordered = [...crates].sort((a, b) => rank(a) - rank(b));
  let body;
  if (list.isPending) body = <p className="tt-loading">{t("loading")}</p>;
  else if (list.isError)
    body = (
      <div className="tt-error" role="alert">
        <p>{toText(list.error)}</p>
        <button type="button" className="tt-button" onClick={() => void list.refetch()}>
          {t("retry")}
        </button>
      </div>
    );
  else if (ordered.length === 0) body = <p className="tt-card tt-empty">{t("list.empty")}</p>;
  else
    body = (
      <>
        <ul className="tt-crate-list" aria-label={t("list.label")}>
          {ordered.map((crate) => (
            <CrateCard key={crate.crateUuid} crate={crate} />
          ))}
        </ul>
        {list.hasNextPage ? (
          <button
            type="button"
            className="tt-button tt-button--quiet"
            disabled={list.isFetchingNextPage}
            onClick={() => void list.fetchNextPage()}
          >
            {t("list.more")}
          </button>
        ) : null}
      </>
    );
  return (
    <div>
      <h1 className="tt-page-title">{t("title")}</h1>
      <div className="tt-crates-forms">
        <CreateCrateForm />
        <ImportForm />
      </div>
      {body}
    </div>
  );
}
