import { QueryBoundary, useAppTranslation } from "@tt/web-kit";
import { lazy, Suspense } from "react";
import { Layout } from "./Layout.tsx";
import { SHELL_NAMESPACE, shellTranslations } from "./locales.ts";
import { HomePage } from "./pages/HomePage.tsx";
import { NotFoundPage } from "./pages/NotFoundPage.tsx";
import { RemoteOutlet } from "./remotes/RemoteOutlet.tsx";
import { useRemotes } from "./remotes/RemotesProvider.tsx";
import { Route, Switch, useParams } from "./router.tsx";

// Only the home page is in the first chunk; every other screen is fetched when visited.
const LoginPage = lazy(() => import("./pages/LoginPage.tsx").then((m) => ({ default: m.LoginPage })));
const SignUpPage = lazy(() => import("./pages/SignUpPage.tsx").then((m) => ({ default: m.SignUpPage })));
const PhoneLoginPage = lazy(() => import("./pages/PhoneLoginPage.tsx").then((m) => ({ default: m.PhoneLoginPage })));
// The social screens (friends, fans, a user's profile actions) are their own chunks too.
const PeoplePage = lazy(() => import("./social/PeoplePage.tsx").then((m) => ({ default: m.PeoplePage })));
const ProfilePage = lazy(() => import("./social/ProfilePage.tsx").then((m) => ({ default: m.ProfilePage })));
// Magic links (002 §2): sign in with the link's token, then open its path or its plan's checkout.
// Redeeming a voucher (issue 26), from the account menu and the upload page's "no permission yet".
const VoucherPage = lazy(() => import("./vouchers/VoucherPage.tsx").then((m) => ({ default: m.VoucherPage })));
const MagicLinkPage = lazy(() => import("./magic-link/MagicLinkPage.tsx").then((m) => ({ default: m.MagicLinkPage })));

/** The remotes the shell has names and places for; remotes.json decides which of them exist. */
export const KNOWN_REMOTES = ["room", "crates", "shop", "admin"] as const;

function Page({ children }: { children: React.ReactNode }) {
  const { t } = useAppTranslation(SHELL_NAMESPACE, shellTranslations);
  // Every screen but the home page may query: TanStack Query comes with it, not with the first screen.
  return (
    <Suspense fallback={<p className="tt-loading">{t("common:loading")}</p>}>
      <QueryBoundary>{children}</QueryBoundary>
    </Suspense>
  );
}

/** A remote that remotes.json lists but the shell has no route for still gets a page at /<name>. */
function ConfiguredRemote() {
  const { remote = "" } = useParams();
  const { remotes, status } = useRemotes();
  if (status === "success" && !remotes.some((entry) => entry.name === remote)) return <NotFoundPage />;
  return <RemoteOutlet key={remote} name={remote} title={remote} />;
}

export function App() {
  const { t } = useAppTranslation(SHELL_NAMESPACE, shellTranslations);
  return (
    <Layout>
      <Switch>
        <Route path="/">
          <HomePage />
        </Route>
        <Route path="/login">
          <Page>
            <LoginPage />
          </Page>
        </Route>
        <Route path="/login/phone">
          <Page>
            <PhoneLoginPage />
          </Page>
        </Route>
        <Route path="/signup">
          <Page>
            <SignUpPage />
          </Page>
        </Route>
        <Route path="/magic-link/:token/*?">
          <Page>
            <MagicLinkPage />
          </Page>
        </Route>
        <Route path="/vouchers">
          <Page>
            <VoucherPage />
          </Page>
        </Route>
        <Route path="/people">
          <Page>
            <PeoplePage />
          </Page>
        </Route>
        <Route path="/users/:user">
          <Page>
            <ProfilePage />
          </Page>
        </Route>
        {KNOWN_REMOTES.map((name) => (
          <Route key={name} path={`/${name}/*?`}>
            <RemoteOutlet key={name} name={name} title={t(`nav.${name}`)} />
          </Route>
        ))}
        <Route path="/:remote/*?">
          <ConfiguredRemote />
        </Route>
        <Route>
          <NotFoundPage />
        </Route>
      </Switch>
    </Layout>
  );
}
