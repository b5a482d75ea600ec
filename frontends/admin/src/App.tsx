import { Loading } from "@tt/web-kit/ui";
import {
  CalendarDays,
  ChartLine,
  CircleUser,
  CreditCard,
  Disc3,
  DoorOpen,
  Gavel,
  Mail,
  Phone,
  Store,
  Ticket,
  Trophy,
  Users,
  UsersRound,
  type LucideIcon,
} from "lucide-react";
import { Suspense, lazy, useEffect, useState, type ComponentType, type LazyExoticComponent } from "react";
import { useAdminText, type AdminTextKey } from "./i18n.ts";
import { AdminsOnly, useMayAdminister } from "./list/AdminsOnly.tsx";
import "./admin.css";

interface Section {
  id: string;
  title: AdminTextKey;
  icon: LucideIcon;
  group: AdminTextKey;
  screen: LazyExoticComponent<ComponentType>;
}

/** Every section of the console, by group; each screen is its own chunk, loaded when first opened. */
export const SECTIONS: readonly Section[] = [
  {
    id: "users",
    title: "section_users",
    icon: Users,
    group: "navGroup_people",
    screen: lazy(() => import("./screens/UsersScreen.tsx")),
  },
  {
    id: "vouchers",
    title: "section_vouchers",
    icon: Ticket,
    group: "navGroup_people",
    screen: lazy(() => import("./screens/VouchersScreen.tsx")),
  },
  {
    id: "phones",
    title: "section_phones",
    icon: Phone,
    group: "navGroup_people",
    screen: lazy(() => import("./screens/PhonesScreen.tsx")),
  },
  {
    id: "rooms",
    title: "section_rooms",
    icon: DoorOpen,
    group: "navGroup_rooms",
    screen: lazy(() => import("./screens/RoomsScreen.tsx")),
  },
  {
    id: "djs",
    title: "section_djs",
    icon: Disc3,
    group: "navGroup_rooms",
    screen: lazy(() => import("./screens/DjsScreen.tsx")),
  },
  {
    id: "communities",
    title: "section_communities",
    icon: UsersRound,
    group: "navGroup_rooms",
    screen: lazy(() => import("./screens/CommunitiesScreen.tsx")),
  },
  {
    id: "events",
    title: "section_events",
    icon: CalendarDays,
    group: "navGroup_rooms",
    screen: lazy(() => import("./screens/EventsScreen.tsx")),
  },
  {
    id: "avatars",
    title: "section_avatars",
    icon: CircleUser,
    group: "navGroup_shop",
    screen: lazy(() => import("./screens/AvatarsScreen.tsx")),
  },
  {
    id: "seasons",
    title: "section_seasons",
    icon: Trophy,
    group: "navGroup_shop",
    screen: lazy(() => import("./screens/SeasonsScreen.tsx")),
  },
  {
    id: "shop",
    title: "section_shop",
    icon: Store,
    group: "navGroup_shop",
    screen: lazy(() => import("./screens/ShopScreen.tsx")),
  },
  {
    id: "payments",
    title: "section_payments",
    icon: CreditCard,
    group: "navGroup_shop",
    screen: lazy(() => import("./screens/PaymentsScreen.tsx")),
  },
  {
    id: "moderation",
    title: "section_moderation",
    icon: Gavel,
    group: "navGroup_insight",
    screen: lazy(() => import("./screens/ModerationLogScreen.tsx")),
  },
  {
    id: "analytics",
    title: "section_analytics",
    icon: ChartLine,
    group: "navGroup_insight",
    screen: lazy(() => import("./screens/AnalyticsScreen.tsx")),
  },
  {
    id: "outbox",
    title: "section_outbox",
    icon: Mail,
    group: "navGroup_insight",
    screen: lazy(() => import("./screens/OutboxScreen.tsx")),
  },
];

const GROUPS = [...new Set(SECTIONS.map((section) => section.group))];

/** The section the address names: `#rooms`, or `#users/<uuid>` (a page inside a section). */
function sectionFromHash(): string {
  const id = typeof window === "undefined" ? "" : (window.location.hash.replace(/^#/, "").split("/")[0] ?? "");
  return SECTIONS.some((s) => s.id === id) ? id : "users";
}

/**
 * The admin console: the sections grouped in a side navigation (a row that scrolls sideways on a narrow
 * screen), one lazily loaded screen per section; the section is kept in the address's hash.
 */
export function App() {
  const { t } = useAdminText();
  const mayAdminister = useMayAdminister();
  const [current, setCurrent] = useState(sectionFromHash);
  useEffect(() => {
    const onHash = () => setCurrent(sectionFromHash());
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  const section = SECTIONS.find((s) => s.id === current) ?? SECTIONS[0]!;
  const Screen = section.screen;
  return (
    <div className="tt-admin">
      <nav className="tt-admin-nav" aria-label={t("nav")}>
        {GROUPS.map((group) => (
          <div key={group} className="tt-admin-nav__group">
            <p className="tt-admin-nav__heading" aria-hidden="true">
              {t(group)}
            </p>
            <ul>
              {SECTIONS.filter((s) => s.group === group).map((s) => {
                const Icon = s.icon;
                return (
                  <li key={s.id}>
                    <a
                      href={`#${s.id}`}
                      aria-current={s.id === section.id ? "page" : undefined}
                      onClick={(event) => {
                        event.preventDefault();
                        if (window.location.hash !== `#${s.id}`) window.history.replaceState(null, "", `#${s.id}`);
                        setCurrent(s.id);
                      }}
                    >
                      <Icon aria-hidden="true" />
                      {t(s.title)}
                    </a>
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </nav>
      <section className="tt-admin-main" aria-labelledby="admin-title">
        <h1 id="admin-title" className="tt-page-title">
          {t(section.title)}
        </h1>
        {mayAdminister ? (
          <Suspense fallback={<Loading label={t("loading")} />}>
            <Screen key={section.id} />
          </Suspense>
        ) : (
          <AdminsOnly />
        )}
      </section>
    </div>
  );
}
