import { useAppTranslation, useSession } from "@tt/web-kit";
import { Link } from "../router.tsx";
import { SHELL_NAMESPACE, shellTranslations } from "../locales.ts";

export function HomePage() {
  const { t } = useAppTranslation(SHELL_NAMESPACE, shellTranslations);
  const { signedIn, user } = useSession();
  // The session's nickname, which the header keeps up to date from the profile (auth/use-account.ts).
  const name = user?.nickname || user?.email;
  return (
    <section className="tt-hero" aria-labelledby="home-title">
      <h1 id="home-title" className="tt-hero-title">
        {t("home.title")}
      </h1>
      <p className="tt-hero-intro">{t("home.intro")}</p>
      <p className="tt-muted">{signedIn ? t("home.welcome", { name }) : t("home.guestHint")}</p>
      <Link className="tt-button" to="/room">
        {t("home.browse")}
      </Link>
    </section>
  );
}
