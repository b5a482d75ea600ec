// Specification 002 §2 magic links: /magic-link/{token}/{encoded path} signs the user in with the short-lived
// token (the user service's validate-magic-link) and opens the path; /magic-link/{token}/subscribe-plan/{encoded
// plan} opens that plan's checkout (the payment service; the plan is a product id or its level). Its own lazy
// chunk: nothing here is on the shell's first paint.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useNavigate, useParams } from "../router.tsx";
import { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import { SubscriptionService } from "@tt/proto/tt/payment/v1/subscription_service_pb";
import { useAppTranslation, useErrorText, useKit } from "@tt/web-kit";
import { toSessionUser, toStoredToken, useClient } from "@tt/web-kit/connect";
import { buttonClass, EmptyState, Loading } from "@tt/web-kit/ui";
import { Link2Off } from "lucide-react";
import { Link } from "../router.tsx";

export const MAGIC_LINK_NAMESPACE = "magicLink";
export const en = {
  signingIn: "Signing you in…",
  opening: "Opening the checkout…",
  noPlan: "This plan is not on sale.",
  failed: "This link did not sign you in",
  failedBody: "Magic links work once and for a short time: log in with your e-mail, or ask for a new link.",
  login: "Log in",
  checkoutFailed: "The checkout did not open",
  checkoutBody: "You are signed in. The plans are in the shop.",
  shop: "Open the shop",
};
export const es: typeof en = {
  signingIn: "Iniciando sesión…",
  opening: "Abriendo el pago…",
  noPlan: "Este plan no está a la venta.",
  failed: "Este enlace no ha iniciado tu sesión",
  failedBody:
    "Los enlaces mágicos sirven una vez y durante poco tiempo. Inicia sesión con tu correo o pide un enlace nuevo.",
  login: "Iniciar sesión",
  checkoutFailed: "No se ha podido abrir el pago",
  checkoutBody: "Has iniciado sesión. Los planes están en la tienda.",
  shop: "Abrir la tienda",
};

/** Where the browser goes for a checkout; replaced in component tests. */
export const magicNavigation = { go: (url: string) => window.location.assign(url) };

/** The target of a magic link's rest: a path of this site (never another origin), or a plan. */
export function targetOf(rest: string): { path: string } | { plan: string } {
  const plan = /^subscribe-plan\/(.+)$/.exec(rest);
  if (plan) return { plan: decodeURIComponent(plan[1]!) };
  let path: string;
  try {
    path = decodeURIComponent(rest || "/");
  } catch {
    path = "/";
  }
  if (!path.startsWith("/")) path = `/${path}`;
  if (path.startsWith("//") || path.startsWith("/\\")) path = "/";
  return { path };
}

export function MagicLinkPage() {
  const { t } = useAppTranslation(MAGIC_LINK_NAMESPACE, { en, es });
  const errorText = useErrorText();
  const { token = "", "*": rest = "" } = useParams();
  const { session } = useKit();
  const queryClient = useQueryClient();
  const accounts = useClient(AccountService);
  const subscriptions = useClient(SubscriptionService);
  const navigate = useNavigate();
  const [error, setError] = useState<string>();
  const [opening, setOpening] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const target = targetOf(rest);
    void (async () => {
      try {
        const res = await accounts.validateMagicLink({ token });
        if (!res.accessToken || !res.user) throw new Error("The server answered without a session");
        queryClient.clear();
        session.signIn(toStoredToken(res.accessToken), toSessionUser(res.user));
        if ("path" in target) {
          navigate(target.path, { replace: true });
          return;
        }
        setOpening(true);
        const { products } = await subscriptions.listSubscriptionProducts({});
        const plan = products.find((p) => p.id === target.plan || p.level === target.plan);
        if (!plan) {
          setError(t("noPlan"));
          return;
        }
        const { session: checkout } = await subscriptions.checkoutSubscription({
          id: plan.id,
          successPath: "/shop",
          cancelPath: "/shop",
        });
        magicNavigation.go(checkout!.url);
      } catch (err) {
        setError(errorText(err));
      }
    })();
  }, [accounts, errorText, navigate, queryClient, rest, session, subscriptions, t, token]);

  return (
    <section className="tt-magic-link" aria-live="polite">
      {error ? (
        // The server's message is the body; the title and the next step say what it means for the reader.
        <div role="alert">
          <EmptyState
            headingLevel={2}
            icon={<Link2Off />}
            title={opening ? t("checkoutFailed") : t("failed")}
            action={
              <Link className={buttonClass()} to={opening ? "/shop" : "/login"}>
                {opening ? t("shop") : t("login")}
              </Link>
            }
          >
            {`${error.replace(/\.$/, "")}. ${opening ? t("checkoutBody") : t("failedBody")}`}
          </EmptyState>
        </div>
      ) : (
        <Loading label={opening ? t("opening") : t("signingIn")} />
      )}
    </section>
  );
}
