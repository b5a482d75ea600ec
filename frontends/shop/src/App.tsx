import { useAnalytics, useSession } from "@tt/web-kit";
import { buttonClass, EmptyState, Loading, PageHead, Tab, TabList, TabPanel, Tabs } from "@tt/web-kit/ui";
import { LogIn, ShoppingBag } from "lucide-react";
import { lazy, Suspense, useRef, useState, type ReactNode } from "react";
import { Balance } from "./screens/Balance.tsx";
import { ShellLink, useShopT } from "./screens/shared.tsx";
import "./shop.css";

// Every screen is its own chunk, fetched on first visit (the remote's entry stays small).
const ShopScreen = lazy(() => import("./screens/ShopScreen.tsx").then((m) => ({ default: m.ShopScreen })));
const AvatarsScreen = lazy(() => import("./screens/AvatarsScreen.tsx").then((m) => ({ default: m.AvatarsScreen })));
const RankingScreen = lazy(() => import("./screens/RankingScreen.tsx").then((m) => ({ default: m.RankingScreen })));
// Token packs and subscription plans (the payment service, issue 16).
const PlansScreen = lazy(() => import("./subscriptions/PlansScreen.tsx").then((m) => ({ default: m.PlansScreen })));

const TABS = ["shop", "plans", "avatars", "ranking"] as const;
type ShopTab = (typeof TABS)[number];

/** The tab a link asked for (`/shop?tab=plans`, as magic links and checkouts use), else the consumables. */
function initialTab(): ShopTab {
  const asked = new URLSearchParams(globalThis.location?.search ?? "").get("tab");
  return TABS.find((tab) => tab === asked) ?? "shop";
}

function Header({ children }: { children?: ReactNode }) {
  const { t } = useShopT();
  return (
    <PageHead titleId="shop-title" title={t("title")} intro={t("intro")} introClassName="tt-shop-intro">
      {children}
    </PageHead>
  );
}

/** The shop remote: consumables and token bundles with your balance, plans, avatars, and the season's ranking. */
export function App() {
  const { t } = useShopT();
  const { signedIn } = useSession();
  const [tab, setTab] = useState<ShopTab>(initialTab);
  // Radix reports a tab chosen by the pointer twice (press, then focus) before the page re-renders: the ref
  // knows the tab already open, so it is sent once.
  const shown = useRef(tab);
  const analytics = useAnalytics();
  if (!signedIn) {
    return (
      <section className="tt-shop" aria-labelledby="shop-title">
        <Header />
        <div role="status">
          <EmptyState
            icon={<ShoppingBag />}
            title={t("guestTitle")}
            action={
              <ShellLink to="/login" className={buttonClass()}>
                <LogIn aria-hidden="true" />
                {t("signIn")}
              </ShellLink>
            }
          >
            {t("guestBody")}
          </EmptyState>
        </div>
      </section>
    );
  }
  const open = (key: string) => {
    const next = TABS.find((candidate) => candidate === key) ?? "shop";
    if (next !== shown.current) analytics.track("shop-action", { action: "open-tab", tab: next });
    shown.current = next;
    setTab(next);
  };
  const loading = <Loading label={t("loading")} />;
  return (
    <section className="tt-shop" aria-labelledby="shop-title">
      <Header>
        <Balance />
      </Header>
      <Tabs value={tab} onValueChange={open}>
        <TabList label={t("nav.label")}>
          {TABS.map((key) => (
            <Tab key={key} value={key}>
              {t(`nav.${key}`)}
            </Tab>
          ))}
        </TabList>
        <TabPanel value="shop">
          <Suspense fallback={loading}>
            <ShopScreen onOpenTab={open} />
          </Suspense>
        </TabPanel>
        <TabPanel value="plans">
          <Suspense fallback={loading}>
            <PlansScreen onOpenTab={open} />
          </Suspense>
        </TabPanel>
        <TabPanel value="avatars">
          <Suspense fallback={loading}>
            <AvatarsScreen />
          </Suspense>
        </TabPanel>
        <TabPanel value="ranking">
          <Suspense fallback={loading}>
            <RankingScreen />
          </Suspense>
        </TabPanel>
      </Tabs>
    </section>
  );
}
