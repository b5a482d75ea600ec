import { useAppTranslation } from "@tt/web-kit";
import { Link } from "../router.tsx";
import { SHELL_NAMESPACE, shellTranslations } from "../locales.ts";

export function NotFoundPage() {
  const { t } = useAppTranslation(SHELL_NAMESPACE, shellTranslations);
  return (
    <section className="tt-card">
      <h1 className="tt-page-title">{t("notFound.title")}</h1>
      <Link to="/">{t("notFound.back")}</Link>
    </section>
  );
}
