import type { ReactNode } from "react";
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES, toLanguage, useAppTranslation, useSession } from "@tt/web-kit";
import { Link, NavLink, useNavigate } from "./router.tsx";
import { useCurrentAvatar, useDisplayName, useLogout } from "./auth/use-account.ts";
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

function Account() {
  const { t } = useAppTranslation(SHELL_NAMESPACE, shellTranslations);
  const { signedIn } = useSession();
  const name = useDisplayName();
  const avatar = useCurrentAvatar().data;
  const logout = useLogout();
  const navigate = useNavigate();
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
    <div className="tt-account">
      {avatar &&
        (avatar.imageUrl ? (
          <img
            className="tt-header-avatar"
            src={avatar.imageUrl}
            alt={t("header.avatar", { name: avatar.name })}
            width={28}
            height={28}
          />
        ) : (
          <span className="tt-header-avatar" data-testid="current-avatar">
            {t("header.avatar", { name: avatar.name })}
          </span>
        ))}
      <span data-testid="signed-in-user">{t("header.signedInAs", { name })}</span>
      <Link className="tt-button tt-button--quiet" to="/people">
        {t("header.people")}
      </Link>
      <button
        type="button"
        className="tt-button tt-button--quiet"
        disabled={logout.isPending}
        onClick={() => logout.mutate(undefined, { onSettled: () => void navigate("/") })}
      >
        {logout.isPending ? t("header.loggingOut") : t("header.logout")}
      </button>
    </div>
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
