import { lazy, Suspense, type ReactNode } from "react";
import {
  LANGUAGE_NAMES,
  QueryBoundary,
  SUPPORTED_LANGUAGES,
  toLanguage,
  useAppTranslation,
  useSession,
} from "@tt/web-kit";
import { Link, NavLink } from "./router.tsx";
import { SHELL_NAMESPACE, shellTranslations } from "./locales.ts";
import { useRemotes } from "./remotes/RemotesProvider.tsx";

function LanguageSwitch() {
  const { t, i18n } = useAppTranslation(SHELL_NAMESPACE, shellTranslations);
  return (
    <label className="tt-language">
      <span className="tt-visually-hidden">{t("header.language")}</span>
      <select
        value={toLanguage(i18n.language) ?? "en"}
        onChange={(event) => void i18n.changeLanguage(event.target.value)}
        aria-label={t("header.language")}
      >
        {SUPPORTED_LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </label>
  );
}

// A signed-in user's part of the header comes with TanStack Query, after the first screen (issue 24).
const AccountMenu = lazy(() => import("./auth/AccountMenu.tsx").then((m) => ({ default: m.AccountMenu })));

function Account() {
  const { t } = useAppTranslation(SHELL_NAMESPACE, shellTranslations);
  const { signedIn } = useSession();
  if (!signedIn) {
    return (
      <div className="tt-account">
        <span className="tt-muted">{t("header.guest")}</span>
        <Link className="tt-button tt-button--quiet" to="/login">
          {t("header.login")}
        </Link>
        <Link className="tt-button" to="/signup">
          {t("header.signUp")}
        </Link>
      </div>
    );
  }
  return (
    <Suspense fallback={<div className="tt-account" />}>
      <QueryBoundary>
        <AccountMenu />
      </QueryBoundary>
    </Suspense>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const { t } = useAppTranslation(SHELL_NAMESPACE, shellTranslations);
  const { remotes } = useRemotes();
  const { user } = useSession();
  // The admin area is listed for admins only; anyone else who opens it is told it is for admins.
  const navRemotes = remotes.filter((remote) => remote.name !== "admin" || user?.role === "admin");
  return (
    <div className="tt-shell">
      <a className="tt-skip-link" href="#main">
        {t("skipToContent")}
      </a>
      <header className="tt-header">
        <Link to="/" className="tt-brand">
          {t("brand")}
        </Link>
        <nav aria-label={t("nav.label")} className="tt-nav">
          <ul>
            <li>
              <NavLink to="/" end>
                {t("nav.home")}
              </NavLink>
            </li>
            {navRemotes.map((remote) => (
              <li key={remote.name}>
                <NavLink to={`/${remote.name}`}>{t(`nav.${remote.name}`, { defaultValue: remote.name })}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="tt-header-end">
          <LanguageSwitch />
          <Account />
        </div>
      </header>
      <main id="main" className="tt-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
