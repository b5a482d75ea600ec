import { useErrorText } from "@tt/web-kit";
import { Badge, Button, Skeleton, toast } from "@tt/web-kit/ui";
import { Coins, TriangleAlert } from "lucide-react";
import { useCreateTokenAccount, useTokenAccount } from "../api/merch.ts";
import { useShopT, useTokens } from "./shared.tsx";

/** The caller's token balance as a chip (refetched when the window regains focus), or a way to open an account. */
export function Balance() {
  const { t } = useShopT();
  const errorText = useErrorText();
  const tokens = useTokens();
  const account = useTokenAccount();
  const create = useCreateTokenAccount();
  if (account.isPending) {
    return (
      <span className="tt-shop-balance" aria-busy="true">
        <Coins aria-hidden="true" className="tt-shop-balance__coin" />
        <span className="tt-visually-hidden">{t("balance.label")}</span>
        <Skeleton width="5rem" height="1rem" />
      </span>
    );
  }
  if (account.isError) {
    return (
      <Badge tone="danger" role="alert" icon={<TriangleAlert aria-hidden="true" />}>
        {errorText(account.error)}
      </Badge>
    );
  }
  if (!account.data) {
    return (
      <span className="tt-shop-balance tt-shop-balance--none">
        <span className="tt-muted">{t("balance.none")}</span>
        <Button
          size="sm"
          busy={create.isPending}
          onClick={() =>
            create.mutate(undefined, {
              onSuccess: () => toast({ title: t("balance.opened"), tone: "success" }),
              onError: (error) => toast({ title: errorText(error), tone: "error" }),
            })
          }
        >
          {t("balance.create")}
        </Button>
      </span>
    );
  }
  return (
    <span className="tt-shop-balance" aria-live="polite">
      <Coins aria-hidden="true" className="tt-shop-balance__coin" />
      <span className="tt-visually-hidden">{t("balance.label")}: </span>
      <strong data-testid="token-balance">{tokens(account.data.balance)}</strong>
      {account.data.status === "disabled" && (
        <Badge tone="danger" role="alert">
          {t("balance.disabled")}
        </Badge>
      )}
    </span>
  );
}
