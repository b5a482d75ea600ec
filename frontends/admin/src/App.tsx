import { Suspense, lazy, useEffect, useState, type ComponentType, type LazyExoticComponent } from "react";
import { useAdminText, type AdminTextKey } from "./i18n.ts";
import "./admin.css";

interface Section {
  id: string;
  title: AdminTextKey;
  screen: LazyExoticComponent<ComponentType>;
}

/** Every section of the console; each screen is its own chunk, loaded when first opened. */
export const SECTIONS: readonly Section[] = [
  { id: "users", title: "section_users", screen: lazy(() => import("./screens/UsersScreen.tsx")) },
  { id: "vouchers", title: "section_vouchers", screen: lazy(() => import("./screens/VouchersScreen.tsx")) },
  { id: "phones", title: "section_phones", screen: lazy(() => import("./screens/PhonesScreen.tsx")) },
  { id: "rooms", title: "section_rooms", screen: lazy(() => import("./screens/RoomsScreen.tsx")) },
  { id: "djs", title: "section_djs", screen: lazy(() => import("./screens/DjsScreen.tsx")) },
  { id: "communities", title: "section_communities", screen: lazy(() => import("./screens/CommunitiesScreen.tsx")) },
  { id: "events", title: "section_events", screen: lazy(() => import("./screens/EventsScreen.tsx")) },
  { id: "avatars", title: "section_avatars", screen: lazy(() => import("./screens/AvatarsScreen.tsx")) },
  { id: "seasons", title: "section_seasons", screen: lazy(() => import("./screens/SeasonsScreen.tsx")) },
  { id: "shop", title: "section_shop", screen: lazy(() => import("./screens/ShopScreen.tsx")) },
  { id: "payments", title: "section_payments", screen: lazy(() => import("./screens/PaymentsScreen.tsx")) },
  { id: "moderation", title: "section_moderation", screen: lazy(() => import("./screens/ModerationLogScreen.tsx")) },
  { id: "analytics", title: "section_analytics", screen: lazy(() => import("./screens/AnalyticsScreen.tsx")) },
  { id: "outbox", title: "section_outbox", screen: lazy(() => import("./screens/OutboxScreen.tsx")) },
];

function sectionFromHash(): string {
  const id = typeof window === "undefined" ? "" : window.location.hash.replace(/^#/, "");
  return SECTIONS.some((s) => s.id === id) ? id : "users";
}

/** The admin console: one navigation, one lazily loaded screen per section (the section is kept in the hash). */
export function App() {
  const { t } = useAdminText();
  const [current, setCurrent] = useState(sectionFromHash);
  useEffect(() => {
    const onHash = () => setCurrent(sectionFromHash());
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  const section = SECTIONS.find((s) => s.id === current) ?? SECTIONS[0]!;
  const Screen = section.screen;
  return (
    <section className="tt-admin" aria-labelledby="admin-title">
      <h1 id="admin-title" className="tt-page-title">
        {t(section.title)}
      </h1>
      <nav className="tt-admin-nav" aria-label={t("nav")}>
        {SECTIONS.map((s) => (
          <a
            key={s.id}
            href={`#${s.id}`}
            aria-current={s.id === section.id ? "page" : undefined}
            onClick={(event) => {
              event.preventDefault();
              if (window.location.hash !== `#${s.id}`) window.history.replaceState(null, "", `#${s.id}`);
              setCurrent(s.id);
            }}
          >
            {t(s.title)}
          </a>
        ))}
      </nav>
      <Suspense fallback={<p className="tt-loading">{t("loading")}</p>}>
        <Screen key={section.id} />
      </Suspense>
    </section>
  );
}
