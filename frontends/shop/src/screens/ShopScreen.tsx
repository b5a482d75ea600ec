import { Code, ConnectError } from "@connectrpc/connect";
import { errorCode, useErrorText } from "@tt/web-kit";
import { Button, Card, ConfirmDialog, EmptyState, ErrorMessage } from "@tt/web-kit/ui";
import { useState } from "react";
import { Coins, PackageOpen, Sparkles, UserRound } from "lucide-react";
import {
  itemsOf,
  useConsumables,
  usePurchase,
  useTokenAccount,
  useTokenBundles,
  type Consumable,
} from "../api/merch.ts";
import { ProductSkeletons, TokenCost, useShopT, useTokens } from "./shared.tsx";

/** A consumable as a product card; buying it asks first, with what the balance will be after. */
function ConsumableCard({ consumable }: { consumable: Consumable }) {
  const { t } = useShopT();
  const tokens = useTokens();
  const account = useTokenAccount();
  const purchase = usePurchase();
  // The balance as it was when the dialog opened: the purchase lowers it at once (optimistic), and the dialog
  // should not then say that even less will remain.
  const [seen, setSeen] = useState<number | undefined>(undefined);
  const balance = seen ?? account.data?.balance;
  return (
    <li>
      <Card className="tt-shop-product">
        <span className="tt-shop-product__art" aria-hidden="true">
          {consumable.fileUrl ? <img src={consumable.fileUrl} alt="" loading="lazy" /> : <Sparkles />}
        </span>
        <h3 className="tt-shop-product__name">{consumable.name}</h3>
        <TokenCost count={consumable.tokenCost} />
        <ConfirmDialog
          title={t("consumables.confirmTitle", { name: consumable.name })}
          description={
            balance === undefined
              ? undefined
              : t("consumables.confirmBody", {
                  cost: tokens(consumable.tokenCost),
                  after: tokens(Math.max(0, balance - consumable.tokenCost)),
                })
          }
          confirmLabel={t("consumables.confirm", { cost: tokens(consumable.tokenCost) })}
          onOpenChange={(open) => setSeen(open ? account.data?.balance : undefined)}
          trigger={
            <Button
              className="tt-shop-product__buy"
              aria-label={`${consumable.name}: ${t("consumables.buy", { count: consumable.tokenCost })}`}
            >
              {t("consumables.buy", { count: consumable.tokenCost })}
            </Button>
          }
          onConfirm={async () => {
            try {
              // The account as the client saw it when the user confirmed (read before the optimistic change).
              await purchase.mutateAsync({ consumable, account: account.data });
            } catch (failure) {
              // Spec 002 §8: a missing token account has its own sentence.
              if (errorCode(failure) === Code.NotFound) throw new ConnectError(t("errors.noAccount"), Code.NotFound);
              throw failure;
            }
          }}
          successMessage={t("consumables.bought", { name: consumable.name })}
        />
      </Card>
    </li>
  );
}

/** Consumables and token bundles, 32 a page, with the optimistic purchase. */
export function ShopScreen({ onOpenTab }: { onOpenTab?: (tab: "plans" | "avatars") => void }) {
  const { t } = useShopT();
  const errorText = useErrorText();
  const tokens = useTokens();
  const consumables = useConsumables();
  const bundles = useTokenBundles();
  const consumableItems = itemsOf(consumables.data);
  const bundleItems = itemsOf(bundles.data);
  return (
    <div className="tt-shop-screen">
      <section className="tt-shop-section" aria-labelledby="consumables-title">
        <h2 id="consumables-title" className="tt-shop-section__title">
          {t("consumables.title")}
        </h2>
        {consumables.isPending ? (
          <ProductSkeletons />
        ) : consumables.isError ? (
          <ErrorMessage>{errorText(consumables.error)}</ErrorMessage>
        ) : consumableItems.length === 0 ? (
          <EmptyState
            icon={<PackageOpen />}
            title={t("consumables.empty")}
            headingLevel={3}
            action={
              onOpenTab && (
                <Button
                  variant="secondary"
                  icon={<UserRound aria-hidden="true" />}
                  onClick={() => onOpenTab("avatars")}
                >
                  {t("consumables.toAvatars")}
                </Button>
              )
            }
          >
            {t("consumables.emptyBody")}
          </EmptyState>
        ) : (
          <ul className="tt-shop-grid" aria-label={t("consumables.title")}>
            {consumableItems.map((c) => (
              <ConsumableCard key={c.id} consumable={c} />
            ))}
          </ul>
        )}
        {consumables.hasNextPage && (
          <Button
            variant="secondary"
            className="tt-shop-more"
            busy={consumables.isFetchingNextPage}
            onClick={() => void consumables.fetchNextPage()}
          >
            {t("consumables.more")}
          </Button>
        )}
      </section>
      <section className="tt-shop-section" aria-labelledby="bundles-title">
        <h2 id="bundles-title" className="tt-shop-section__title">
          {t("bundles.title")}
        </h2>
        {bundles.isPending ? (
          <ProductSkeletons count={2} />
        ) : bundles.isError ? (
          <ErrorMessage>{errorText(bundles.error)}</ErrorMessage>
        ) : bundleItems.length === 0 ? (
          <EmptyState
            icon={<Coins />}
            title={t("bundles.empty")}
            headingLevel={3}
            action={
              onOpenTab && (
                <Button variant="secondary" onClick={() => onOpenTab("plans")}>
                  {t("bundles.toPlans")}
                </Button>
              )
            }
          >
            {t("bundles.emptyBody")}
          </EmptyState>
        ) : (
          <ul className="tt-shop-grid" aria-label={t("bundles.title")}>
            {bundleItems.map((b) => (
              <li key={b.id}>
                <Card className="tt-shop-product tt-shop-product--bundle">
                  <span className="tt-shop-product__art tt-shop-product__art--coins" aria-hidden="true">
                    {b.thumbnailUrl ? <img src={b.thumbnailUrl} alt="" loading="lazy" /> : <Coins />}
                  </span>
                  <h3 className="tt-shop-product__name">{b.name}</h3>
                  <span className="tt-shop-product__tokens">{tokens(b.tokens)}</span>
                  {onOpenTab && (
                    <Button variant="secondary" className="tt-shop-product__buy" onClick={() => onOpenTab("plans")}>
                      {t("bundles.buy")}
                    </Button>
                  )}
                </Card>
              </li>
            ))}
          </ul>
        )}
        {bundles.hasNextPage && (
          <Button
            variant="secondary"
            className="tt-shop-more"
            busy={bundles.isFetchingNextPage}
            onClick={() => void bundles.fetchNextPage()}
          >
            {t("consumables.more")}
          </Button>
        )}
      </section>
    </div>
  );
}
