import { useAppTranslation, useErrorText } from "@tt/web-kit";
import { Balance } from "../screens/Balance.tsx";
import { en, es, PAYMENT_NAMESPACE } from "./i18n.ts";
import {
  useBuy,
  useMyPlan,
  useOneTimeProducts,
  usePlans,
  usePortal,
  useSubscribe,
  type Product,
} from "./payment-api.ts";

const price = (p: Product) => `${(p.price / 100).toFixed(2)} ${p.currency.toUpperCase()}`;

/** Token packs to buy, the subscription plans, your current plan and the customer portal. */
export function PlansScreen() {
  const { t } = useAppTranslation(PAYMENT_NAMESPACE, { en, es });
  const errorText = useErrorText();
  const products = useOneTimeProducts();
  const plans = usePlans();
  const mine = useMyPlan();
  const buy = useBuy();
  const subscribe = useSubscribe();
  const portal = usePortal();
  const failure = buy.error ?? subscribe.error ?? portal.error;
  return (
    <div className="tt-shop-plans">
      <Balance />
      {failure && <p role="alert">{errorText(failure)}</p>}
      <section className="tt-card" aria-labelledby="tokens-title">
        <h2 id="tokens-title">{t("tokens.title")}</h2>
        {products.isPending ? (
          <p className="tt-loading">{t("loading")}</p>
        ) : products.isError ? (
          <p role="alert">{errorText(products.error)}</p>
        ) : products.data.length === 0 ? (
          <p className="tt-muted">{t("tokens.empty")}</p>
        ) : (
          <ul className="tt-list">
            {products.data.map((p) => (
              <li key={p.id}>
                <button type="button" className="tt-button" disabled={buy.isPending} onClick={() => buy.mutate(p.id)}>
                  {t("tokens.buy", { name: p.name, price: price(p) })}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="tt-card" aria-labelledby="plans-title">
        <h2 id="plans-title">{t("plans.title")}</h2>
        {mine.data && (
          <p data-testid="current-plan">
            {mine.data.level ? t("plans.current", { level: mine.data.level }) : t("plans.none")}
          </p>
        )}
        {mine.data?.subscriptions.length ? (
          <button type="button" className="tt-button" disabled={portal.isPending} onClick={() => portal.mutate()}>
            {t("plans.manage")}
          </button>
        ) : null}
        {plans.isPending ? (
          <p className="tt-loading">{t("loading")}</p>
        ) : plans.isError ? (
          <p role="alert">{errorText(plans.error)}</p>
        ) : plans.data.length === 0 ? (
          <p className="tt-muted">{t("plans.empty")}</p>
        ) : (
          <ul className="tt-list">
            {plans.data.map((p) => (
              <li key={p.id}>
                <button
                  type="button"
                  className="tt-button"
                  disabled={subscribe.isPending || mine.data?.level === p.level}
                  onClick={() => subscribe.mutate(p.id)}
                >
                  {t("plans.subscribe", { name: p.name, price: price(p) })}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
