import { useAppTranslation, useErrorText } from "@tt/web-kit";
import { useCreateTokenAccount, useTokenAccount } from "../api/merch.ts";
import { en, es, SHOP_NAMESPACE } from "../i18n.ts";

/** The caller's token balance (refetched when the window regains focus), or a way to open an account. */
export function Balance() {
  const { t } = useAppTranslation(SHOP_NAMESPACE, { en, es });
  const errorText = useErrorText();
  const account = useTokenAccount();
  const create = useCreateTokenAccount();
  if (account.isPending) return <p className="tt-loading">{t("loading")}</p>;
  if (account.isError) return <p role="alert">{errorText(account.error)}</p>;
  if (!account.data) {
    return (
      <div className="tt-card tt-shop-balance">
        <p>{t("balance.none")}</p>
        <button type="button" className="tt-button" disabled={create.isPending} onClick={() => create.mutate()}>
          {t("balance.create")}
        </button>
        {create.isError && <p role="alert">{errorText(create.error)}</p>}
      </div>
    );
  }
  return (
    <div className="tt-card tt-shop-balance" aria-live="polite">
      <span className="tt-muted">{t("balance.label")}</span>{" "}
      <strong data-testid="token-balance">{t("balance.tokens", { count: account.data.balance })}</strong>
      {account.data.status === "disabled" && <p role="alert">{t("balance.disabled")}</p>}
    </div>
  );
}
