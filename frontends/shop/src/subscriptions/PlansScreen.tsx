import { useAppTranslation, useErrorText } from "@tt/web-kit";
import { Badge, Button, Card, ConfirmDialog, EmptyState, ErrorMessage, humanise, toast } from "@tt/web-kit/ui";
import { Check, Coins, Crown, ExternalLink, Gem } from "lucide-react";
import { ProductSkeletons, ShellLink, useMoney } from "../screens/shared.tsx";
import { en, es, PAYMENT_NAMESPACE } from "./i18n.ts";
import { useBuy, useMyPlan, useOneTimeProducts, usePlans, usePortal, useSubscribe } from "./payment-api.ts";

/** Token packs to buy, the subscription plans, your current plan and the customer portal. */
export function PlansScreen({ onOpenTab }: { onOpenTab?: (tab: "shop") => void }) {
  const { t } = useAppTranslation(PAYMENT_NAMESPACE, { en, es });
  const errorText = useErrorText();
  const money = useMoney();
  const products = useOneTimeProducts();
  const plans = usePlans();
  const mine = useMyPlan();
  const buy = useBuy();
  const subscribe = useSubscribe();
  const portal = usePortal();
  const level = mine.data?.level ?? "";
  const currentPlan = plans.data?.find((p) => p.level === level);
  const planName = currentPlan?.name || humanise(level);
  return (
    <div className="tt-shop-screen">
      <section className="tt-shop-section" aria-labelledby="tokens-title">
        <h2 id="tokens-title" className="tt-shop-section__title">
          {t("tokens.title")}
        </h2>
        {products.isPending ? (
          <ProductSkeletons count={3} />
        ) : products.isError ? (
          <ErrorMessage>{errorText(products.error)}</ErrorMessage>
        ) : products.data.length === 0 ? (
          <EmptyState
            icon={<Coins />}
            title={t("tokens.empty")}
            headingLevel={3}
            action={
              onOpenTab && (
                <Button variant="secondary" onClick={() => onOpenTab("shop")}>
                  {t("tokens.toShop")}
                </Button>
              )
            }
          >
            {t("tokens.emptyBody")}
          </EmptyState>
        ) : (
          <ul className="tt-shop-grid" aria-label={t("tokens.title")}>
            {products.data.map((p) => (
              <li key={p.id}>
                <Card className="tt-shop-product">
                  <span className="tt-shop-product__art tt-shop-product__art--coins" aria-hidden="true">
                    <Coins />
                  </span>
                  <h3 className="tt-shop-product__name">{p.name}</h3>
                  {p.description && <p className="tt-shop-product__description">{p.description}</p>}
                  <span className="tt-shop-product__price">{money(p.price, p.currency)}</span>
                  <ConfirmDialog
                    title={t("tokens.confirmTitle", { name: p.name })}
                    description={t("tokens.confirmBody", { price: money(p.price, p.currency) })}
                    confirmLabel={t("tokens.confirm")}
                    trigger={
                      <Button className="tt-shop-product__buy">
                        {t("tokens.buy", { name: p.name, price: money(p.price, p.currency) })}
                      </Button>
                    }
                    // The browser leaves for the pay page; it comes back to the shop.
                    onConfirm={() => buy.mutateAsync(p.id)}
                  />
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="tt-shop-section" aria-labelledby="plans-title">
        <h2 id="plans-title" className="tt-shop-section__title">
          {t("plans.title")}
        </h2>
        {mine.data && (
          <Card className="tt-shop-current tt-shop-current--plan">
            <span className="tt-icon-tile tt-icon-tile--round tt-shop-current__icon" aria-hidden="true">
              {level ? <Crown /> : <Gem />}
            </span>
            <div>
              <p data-testid="current-plan" className="tt-shop-current__name">
                {level ? t("plans.current", { level: planName }) : t("plans.none")}
              </p>
              <p className="tt-muted">{level ? t("plans.currentBody") : t("plans.noneBody")}</p>
            </div>
            {mine.data.subscriptions.length > 0 && (
              <Button
                variant="secondary"
                icon={<ExternalLink aria-hidden="true" />}
                busy={portal.isPending}
                onClick={() =>
                  portal.mutate(undefined, { onError: (error) => toast({ title: errorText(error), tone: "error" }) })
                }
              >
                {t("plans.manage")}
              </Button>
            )}
          </Card>
        )}
        {plans.isPending ? (
          <ProductSkeletons count={2} />
        ) : plans.isError ? (
          <ErrorMessage>{errorText(plans.error)}</ErrorMessage>
        ) : plans.data.length === 0 ? (
          <EmptyState
            icon={<Crown />}
            title={t("plans.empty")}
            headingLevel={3}
            action={
              <ShellLink to="/room" className="tt-button tt-button--secondary">
                {t("plans.toRooms")}
              </ShellLink>
            }
          >
            {t("plans.emptyBody")}
          </EmptyState>
        ) : (
          <ul className="tt-shop-grid tt-shop-grid--plans" aria-label={t("plans.title")}>
            {plans.data.map((p) => {
              const active = level !== "" && level === p.level;
              return (
                <li key={p.id}>
                  <Card className={`tt-shop-product tt-shop-plan ${active ? "tt-shop-product--selected" : ""}`}>
                    <span className="tt-shop-product__art tt-shop-product__art--plan" aria-hidden="true">
                      <Crown />
                    </span>
                    <h3 className="tt-shop-product__name">{p.name}</h3>
                    {active && <Badge tone="success">{t("plans.yours")}</Badge>}
                    {p.description && <p className="tt-shop-product__description">{p.description}</p>}
                    <span className="tt-shop-product__price">{money(p.price, p.currency)}</span>
                    <ConfirmDialog
                      title={t("plans.confirmTitle", { name: p.name })}
                      description={t("plans.confirmBody", { price: money(p.price, p.currency) })}
                      confirmLabel={t("plans.confirm")}
                      trigger={
                        <Button
                          className="tt-shop-product__buy"
                          variant={active ? "secondary" : "primary"}
                          icon={active ? <Check aria-hidden="true" /> : undefined}
                          disabled={subscribe.isPending || active}
                        >
                          {t("plans.subscribe", { name: p.name, price: money(p.price, p.currency) })}
                        </Button>
                      }
                      onConfirm={() => subscribe.mutateAsync(p.id)}
                    />
                  </Card>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </div>
  );
}
