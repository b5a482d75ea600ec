import {
  LANGUAGE_NAMES,
  QueryBoundary,
  subscribeToasts,
  SUPPORTED_LANGUAGES,
  toLanguage,
  useAppTranslation,
  useSession,
  useTheme,
} from "@tt/web-kit";
import { Disc3, Moon, Sun } from "lucide-react";
import { lazy, Suspense, useEffect, useState, type ReactNode } from "react";
import { SHELL_NAMESPACE, shellTranslations } from "./locales.ts";
import { Link, NavLink } from "./router.tsx";
import { useRemotes } from "./remotes/RemotesProvider.tsx";

// What only a signed-in visitor or an action needs comes with the design system's components, in chunks of their
// own: a first visit's page carries neither.
const AccountMenu = lazy(() => import("./auth/AccountMenu.tsx").then((m) => ({ default: m.AccountMenu })));
const NotificationBell = lazy(() =>
  import("./notifications/NotificationBell.tsx").then((m) => ({ default: m.NotificationBell })),
);
const Toaster = lazy(() => import("@tt/web-kit/ui").then((m) => ({ default: m.Toaster })));

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

/** Dark or light, remembered; until the listener chooses, the system's preference. */
function ThemeSwitch() {
  const { t } = useAppTranslation("common");
  const { theme, setChoice } = useTheme();
  const next = theme === "dark" ? "light" : "dark";
  const label = t(next === "dark" ? "ui.theme.toDark" : "ui.theme.toLight");
  return (
    <button
      type="button"
      className="tt-button tt-button--ghost tt-button--icon"
      aria-label={label}
      title={label}
      onClick={() => setChoice(next)}
    >
      {theme === "dark" ? <Sun aria-hidden="true" /> : <Moon aria-hidden="true" />}
    </button>
  );
}

function Account() {
  const { t } = useAppTranslation(SHELL_NAMESPACE, shellTranslations);
  const { signedIn, user } = useSession();
  if (!signedIn || !user) {
    return (
      <div className="tt-account">
        <Link className="tt-button tt-button--ghost" to="/login">
          {t("header.login")}
        </Link>
        <Link className="tt-button" to="/signup">
          {t("header.signUp")}
        </Link>
      </div>
    );
  }
  // The signed-in part comes with TanStack Query and the kit's components, after the first screen.
  return (
    <div className="tt-account tt-account--signed-in">
      {/* Guests have no inbox: the bell is a signed-in person's. */}
      <Suspense fallback={null}>
        <QueryBoundary>
          <NotificationBell />
        </QueryBoundary>
      </Suspense>
      <Suspense fallback={<span className="tt-account-chip">{user.nickname || user.email}</span>}>
        <QueryBoundary>
          <AccountMenu uuid={user.uuid} />
        </QueryBoundary>
      </Suspense>
    </div>
  );
}

/** The toaster joins the page with the first toast, so the first visit does not load it. */
function LazyToaster() {
  const [needed, setNeeded] = useState(false);
  useEffect(() => subscribeToasts((toasts) => toasts.length > 0 && setNeeded(true)), []);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
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
          <Disc3 aria-hidden="true" className="tt-brand__mark" />
          <span className="tt-brand__name">{t("brand")}</span>
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
          <ThemeSwitch />
          <Account />
        </div>
      </header>
      <main id="main" className="tt-main" tabIndex={-1}>
        {children}
      </main>
      <LazyToaster />
    </div>
  );
}
