import { useAnalytics, useAppTranslation, useSession } from "@tt/web-kit";
import { lazy, Suspense, useState } from "react";
import { en, es, SHOP_NAMESPACE } from "./i18n.ts";
import "./shop.css";

// Every screen is its own chunk, fetched on first visit (the remote's entry stays small).
const ShopScreen = lazy(() => import("./screens/ShopScreen.tsx").then((m) => ({ default: m.ShopScreen })));
const AvatarsScreen = lazy(() => import("./screens/AvatarsScreen.tsx").then((m) => ({ default: m.AvatarsScreen })));
const RankingScreen = lazy(() => import("./screens/RankingScreen.tsx").then((m) => ({ default: m.RankingScreen })));
// Token packs and subscription plans (the payment service, issue 16).
const PlansScreen = lazy(() => import("./subscriptions/PlansScreen.tsx").then((m) => ({ default: m.PlansScreen })));

const TABS = ["shop", "plans", "avatars", "ranking"] as const;
type Tab = (typeof TABS)[number];

/** The shop remote: consumables and token bundles with your balance, avatars, and the season's ranking. */
export function App() {
  const { t } = useAppTranslation(SHOP_NAMESPACE, { en, es });
  const { signedIn } = useSession();
  const [tab, setTab] = useState<Tab>("shop");
  const analytics = useAnalytics();
  if (!signedIn) {
    return (
      <section className="tt-shop" aria-labelledby="shop-title">
        <h1 id="shop-title" className="tt-page-title">
          {t("title")}
        </h1>
        <div className="tt-card tt-empty" role="status">
          <h2>{t("guestTitle")}</h2>
          <p className="tt-muted">{t("guestBody")}</p>
          <a className="tt-button" href="/login">
            {t("signIn")}
          </a>
        </div>
      </section>
    );
  }
  return (
    <section className="tt-shop" aria-labelledby="shop-title">
      <h1 id="shop-title" className="tt-page-title">
        {t("title")}
      </h1>
      <nav className="tt-shop-tabs" aria-label={t("nav.label")}>
        {TABS.map((key) => (
          <button
            key={key}
            type="button"
            className="tt-shop-tab"
            aria-current={tab === key ? "page" : undefined}
            onClick={() => {
              if (key !== tab) analytics.track("shop-action", { action: "open-tab", tab: key });
              setTab(key);
            }}
          >
            {t(`nav.${key}`)}
          </button>
        ))}
      </nav>
      <Suspense fallback={<p className="tt-loading">{t("loading")}</p>}>
        {tab === "shop" ? (
          <ShopScreen />
        ) : tab === "plans" ? (
          <PlansScreen />
        ) : tab === "avatars" ? (
          <AvatarsScreen />
        ) : (
          <RankingScreen />
        )}
      </Suspense>
    </section>
  );
}
