import { useAppTranslation, useSession } from "@tt/web-kit";
import { buttonClass, EmptyState, Skeleton, useNames } from "@tt/web-kit/ui";
import { Heart, Library, ListMusic, ListOrdered, Search, Upload, type LucideIcon } from "lucide-react";
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

/** The app's sections; the queue and the likes are named by the kit's words for the built-in crates. */
const TABS: readonly { to: string; icon: LucideIcon; text: { key: string } | { crate: string } }[] = [
  { to: "/", icon: Library, text: { key: "nav.crates" } },
  { to: "/queue", icon: ListOrdered, text: { crate: "default" } },
  { to: "/likes", icon: Heart, text: { crate: "tt-stars" } },
  { to: "/search", icon: Search, text: { key: "nav.search" } },
  { to: "/uploads", icon: Upload, text: { key: "nav.uploads" } },
];

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

/** What a screen looks like while its code arrives: a title and a few rows. */
function ScreenSkeleton() {
  return (
    <div className="tt-stack" aria-hidden="true">
      <Skeleton width="14rem" height="2.25rem" />
      {Array.from({ length: 5 }, (_, index) => (
        <Skeleton key={index} height="3.5rem" radius="var(--tt-radius)" />
      ))}
    </div>
  );
}

/** The crates remote: your crates, the queue and likes, a crate's songs, search and import, uploads. */
export function App() {
  const { t } = useAppTranslation(CRATES_NAMESPACE, { en, es });
  const name = useNames();
  const { signedIn } = useSession();
  const { path } = useAppLocation();
  if (!signedIn) {
    return (
      <section className="tt-crates" aria-labelledby="crates-title">
        <h1 id="crates-title" className="tt-page-title">
          {t("title")}
        </h1>
        <EmptyState
          icon={<ListMusic />}
          title={t("guestTitle")}
          action={
            // A plain link: the remote does not depend on the shell's router.
            <a className={buttonClass("primary")} href="/login">
              {t("signIn")}
            </a>
          }
        >
          {t("guestBody")}
        </EmptyState>
      </section>
    );
  }
  // A crate's own page belongs to the "Crates" tab.
  const first = "/" + (path.split("/")[1] ?? "");
  const current = TABS.some((tab) => tab.to === first) ? first : "/";
  return (
    <section className="tt-crates">
      <nav className="tt-nav-tabs tt-crates-nav" aria-label={t("nav.label")}>
        {TABS.map(({ to, icon: Icon, text }) => (
          <Link
            key={to}
            to={to}
            className="tt-nav-tabs__link tt-crates-nav__link"
            aria-current={current === to ? "page" : undefined}
          >
            <Icon aria-hidden="true" />
            {"key" in text ? t(text.key) : name("crate", text.crate)}
          </Link>
        ))}
      </nav>
      <Suspense fallback={<ScreenSkeleton />}>
        <Screen path={path} />
      </Suspense>
    </section>
  );
}
