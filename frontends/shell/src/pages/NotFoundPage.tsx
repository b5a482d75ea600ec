import { useAppTranslation } from "@tt/web-kit";
import { Link } from "../router.tsx";
import { SHELL_NAMESPACE, shellTranslations } from "../locales.ts";

// In the shell's first chunk (any unknown path shows it), so it uses the kit's classes, not @tt/web-kit/ui.
export function NotFoundPage() {
  const { t } = useAppTranslation(SHELL_NAMESPACE, shellTranslations);
  return (
    <section className="tt-empty tt-not-found" aria-labelledby="not-found-title">
      <span className="tt-not-found__code" aria-hidden="true">
        404
      </span>
      <h1 id="not-found-title" className="tt-empty__title">
        {t("notFound.title")}
      </h1>
      <p className="tt-empty__body">{t("notFound.body")}</p>
      <div className="tt-empty__action">
        <Link className="tt-button" to="/">
          {t("notFound.back")}
        </Link>
      </div>
    </section>
  );
}
