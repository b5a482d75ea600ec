import { useAppTranslation, useSession } from "@tt/web-kit";
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from "react";
import { CRATES_NAMESPACE, en, es } from "./i18n.ts";
import { Link, useAppLocation } from "./lib/router.tsx";
import "./crates.css";

// Every screen is its own chunk, fetched on first visit (the remote's entry stays small).
const CratesScreen = lazy(() => import("./screens/CratesScreen.tsx").then((m) => ({ default: m.CratesScreen })));
const CrateScreen = lazy(() => import("./screens/CrateScreen.tsx").then((m) => ({ default: m.CrateScreen })));
const SearchScreen = lazy(() => import("./screens/SearchScreen.tsx").then((m) => ({ default: m.SearchScreen })));
const UploadsScreen = lazy(() => import("./upload/UploadsScreen.tsx").then((m) => ({ default: m.UploadsScreen })));

/** The app's routes, by first path segment. The upload screens (src/upload/, another owner) add `uploads` here. */
export const SCREENS: Record<string, LazyExoticComponent<ComponentType>> = {
  "": CratesScreen,
  search: SearchScreen,
  uploads: UploadsScreen,
};

const TABS = [
  { to: "/", key: "crates" },
  { to: "/queue", key: "queue" },
  { to: "/likes", key: "likes" },
  { to: "/search", key: "search" },
  { to: "/uploads", key: "uploads" },
] as const;

function Screen({ path }: { path: string }) {
  const segments = path.split("/").filter(Boolean);
  const [first = "", second] = segments;
  if (segments.length <= 1) {
    if (first === "queue" || first === "likes") return <CrateScreen key={first} special={first} />;
    const Registered = Object.hasOwn(SCREENS, first) ? SCREENS[first] : undefined;
    if (Registered) return <Registered />;
    return <CrateScreen key={first} crateUuid={decodeURIComponent(first)} />;
  }
  if (second === undefined) return null;
  return <CrateScreen key={path} crateUuid={decodeURIComponent(first)} />;
}

/** The crates remote: your crates, the queue and likes, a crate's songs, search and import. */
export function App() {
  const { t } = useAppTranslation(CRATES_NAMESPACE, { en, es });
  const { signedIn } = useSession();
  const { path } = useAppLocation();
  if (!signedIn) {
    return (
      <section className="tt-crates" aria-labelledby="crates-title">
        <h1 id="crates-title" className="tt-page-title">
          {t("title")}
        </h1>
        <div className="tt-card tt-empty" role="status">
          <h2>{t("guestTitle")}</h2>
          <p className="tt-muted">{t("guestBody")}</p>
          {/* A plain link: the remote does not depend on the shell's router. */}
          <a className="tt-button" href="/login">
            {t("signIn")}
          </a>
        </div>
      </section>
    );
  }
  // A crate's own page belongs to the "Crates" tab.
  const first = "/" + (path.split("/")[1] ?? "");
  const current = TABS.some((tab) => tab.to === first) ? first : "/";
  return (
    <section className="tt-crates">
      <nav className="tt-crates-tabs" aria-label={t("nav.label")}>
        {TABS.map((tab) => (
          <Link
            key={tab.key}
            to={tab.to}
            className="tt-crates-tab"
            aria-current={current === tab.to ? "page" : undefined}
          >
            {t(`nav.${tab.key}`)}
          </Link>
        ))}
      </nav>
      <Suspense fallback={<p className="tt-loading">{t("loading")}</p>}>
        <Screen path={path} />
      </Suspense>
    </section>
  );
}
