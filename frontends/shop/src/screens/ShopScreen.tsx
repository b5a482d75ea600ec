import { Code } from "@connectrpc/connect";
import { errorCode, useAppTranslation, useErrorText } from "@tt/web-kit";
import { useState } from "react";
import {
  itemsOf,
  useConsumables,
  usePurchase,
  useTokenAccount,
  useTokenBundles,
  type Consumable,
} from "../api/merch.ts";
import { en, es, SHOP_NAMESPACE } from "../i18n.ts";
import { Balance } from "./Balance.tsx";

/** Consumables and token bundles, 32 a page, with the balance and the optimistic purchase. */
export function ShopScreen() {
  const { t } = useAppTranslation(SHOP_NAMESPACE, { en, es });
  const errorText = useErrorText();
  const consumables = useConsumables();
  const bundles = useTokenBundles();
  const purchase = usePurchase();
  const account = useTokenAccount();
  const [bought, setBought] = useState<string | null>(null);

  const buy = (c: Consumable) => {
    setBought(null);
    purchase.mutate({ consumable: c, account: account.data }, { onSuccess: () => setBought(c.name) });
  };
  const purchaseError = purchase.isError
    ? errorCode(purchase.error) === Code.NotFound
      ? t("errors.noAccount")
      : errorText(purchase.error)
    : null;

  return (
    <div className="tt-shop-screen">
      <Balance />
      {purchaseError && <p role="alert">{purchaseError}</p>}
      {bought && <p role="status">{t("consumables.bought", { name: bought })}</p>}
      <h2>{t("consumables.title")}</h2>
      {consumables.isPending ? (
        <p className="tt-loading">{t("loading")}</p>
      ) : consumables.isError ? (
        <p role="alert">{errorText(consumables.error)}</p>
      ) : itemsOf(consumables.data).length === 0 ? (
        <p className="tt-muted">{t("consumables.empty")}</p>
      ) : (
        <ul className="tt-shop-grid" aria-label={t("consumables.title")}>
          {itemsOf(consumables.data).map((c) => (
            <li key={c.id} className="tt-card">
              {c.fileUrl && <img src={c.fileUrl} alt="" width={64} height={64} loading="lazy" />}
              <span>{c.name}</span>
              <button
                type="button"
                className="tt-button"
                disabled={purchase.isPending}
                aria-label={`${c.name}: ${t("consumables.buy", { count: c.tokenCost })}`}
                onClick={() => buy(c)}
              >
                {purchase.isPending && purchase.variables?.consumable.id === c.id
                  ? t("consumables.buying")
                  : t("consumables.buy", { count: c.tokenCost })}
              </button>
            </li>
          ))}
        </ul>
      )}
      {consumables.hasNextPage && (
        <button type="button" className="tt-button" onClick={() => void consumables.fetchNextPage()}>
          {t("consumables.more")}
        </button>
      )}
      <h2>{t("bundles.title")}</h2>
      {bundles.isPending ? (
        <p className="tt-loading">{t("loading")}</p>
      ) : itemsOf(bundles.data).length === 0 ? (
        <p className="tt-muted">{t("bundles.empty")}</p>
      ) : (
        <ul className="tt-shop-grid" aria-label={t("bundles.title")}>
          {itemsOf(bundles.data).map((b) => (
            <li key={b.id} className="tt-card">
              {b.thumbnailUrl && <img src={b.thumbnailUrl} alt="" width={64} height={64} loading="lazy" />}
              <span>{b.name}</span>
              <span className="tt-muted">{t("bundles.tokens", { count: b.tokens })}</span>
            </li>
          ))}
        </ul>
      )}
      {bundles.hasNextPage && (
        <button type="button" className="tt-button" onClick={() => void bundles.fetchNextPage()}>
          {t("consumables.more")}
        </button>
      )}
    </div>
  );
}
