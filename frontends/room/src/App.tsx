import { Skeleton } from "@tt/web-kit/ui";
import { CalendarDays, Compass, Plus, Users } from "lucide-react";
import { lazy, Suspense, useEffect, useRef, type ComponentType, type LazyExoticComponent } from "react";
import { Link, useAppLocation } from "./lib/router.tsx";
import { useRoomT } from "./lib/ui.tsx";
import "./room.css";

// Every screen is its own chunk, fetched on first visit (the remote's entry stays small).
const DirectoryScreen = lazy(() =>
  import("./screens/DirectoryScreen.tsx").then((m) => ({ default: m.DirectoryScreen })),
);
const CreateRoomScreen = lazy(() =>
  import("./screens/CreateRoomScreen.tsx").then((m) => ({ default: m.CreateRoomScreen })),
);
const RoomScreen = lazy(() => import("./screens/RoomScreen.tsx").then((m) => ({ default: m.RoomScreen })));
const SettingsScreen = lazy(() => import("./screens/SettingsScreen.tsx").then((m) => ({ default: m.SettingsScreen })));
const CommunitiesScreen = lazy(() =>
  import("./screens/CommunitiesScreen.tsx").then((m) => ({ default: m.CommunitiesScreen })),
);
const EventsScreen = lazy(() => import("./screens/EventsScreen.tsx").then((m) => ({ default: m.EventsScreen })));

const SCREENS: Record<string, LazyExoticComponent<ComponentType>> = {
  "": DirectoryScreen,
  create: CreateRoomScreen,
  communities: CommunitiesScreen,
  events: EventsScreen,
};

const TABS = [
  { to: "/", key: "directory", icon: Compass },
  { to: "/create", key: "create", icon: Plus },
  { to: "/communities", key: "communities", icon: Users },
  { to: "/events", key: "events", icon: CalendarDays },
] as const;

/** Routes: /, /create, /communities[/<id>], /events, /r/<slug or uuid>, /r/<slug or uuid>/settings. */
function Screen({ path }: { path: string }) {
  const [first = "", second, third] = path.split("/").filter(Boolean);
  if (first === "r" && second) {
    const id = decodeURIComponent(second);
    return third === "settings" ? <SettingsScreen key={id} id={id} /> : <RoomScreen key={id} id={id} />;
  }
  if (first === "communities" && second) return <CommunitiesScreen key={second} id={decodeURIComponent(second)} />;
  const Registered = Object.hasOwn(SCREENS, first) ? SCREENS[first] : undefined;
  return Registered ? <Registered /> : <DirectoryScreen />;
}

/** While a screen's chunk loads: a title and a block, the shape every screen starts with. */
function ScreenSkeleton() {
  const { t } = useRoomT();
  return (
    <div className="tt-room-screen-skeleton" role="status" aria-label={t("loading")}>
      <Skeleton width="14rem" height="2rem" />
      <Skeleton height="12rem" radius="var(--tt-radius-lg)" />
    </div>
  );
}

/** The room remote: the directory, creating a room, a room's page and settings, communities and events. */
export function App() {
  const { t } = useRoomT();
  const { path } = useAppLocation();
  const first = "/" + (path.split("/")[1] ?? "");
  const current = TABS.some((tab) => tab.to === first) ? first : undefined;
  // On a narrow screen the sections scroll sideways: the current one is brought into view (without moving the page).
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    const box = nav.current;
    const link = box?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!box || !link) return;
    if (link.offsetLeft + link.offsetWidth > box.scrollLeft + box.clientWidth || link.offsetLeft < box.scrollLeft) {
      box.scrollLeft = link.offsetLeft - 16;
    }
  }, [current]);
  return (
    <section className="tt-room">
      <nav ref={nav} className="tt-nav-tabs" aria-label={t("nav.label")}>
        {TABS.map(({ to, key, icon: Icon }) => (
          <Link key={key} to={to} className="tt-nav-tabs__link" aria-current={current === to ? "page" : undefined}>
            <Icon aria-hidden="true" />
            {t(`nav.${key}`)}
          </Link>
        ))}
      </nav>
      <Suspense fallback={<ScreenSkeleton />}>
        <Screen path={path} />
      </Suspense>
    </section>
  );
}
