import { useAppTranslation } from "@tt/web-kit";
import { Skeleton, useFormat } from "@tt/web-kit/ui";
import { Coins } from "lucide-react";
import { useCallback, type MouseEvent, type ReactNode } from "react";
import { en, es, SHOP_NAMESPACE } from "../i18n.ts";

export function useShopT() {
  return useAppTranslation(SHOP_NAMESPACE, { en, es });
}

/** "1,250 tokens" in the page's language (the number through useFormat). */
export function useTokens(): (count: number) => string {
  const { t } = useShopT();
  const format = useFormat();
  return (count) => t("tokens", { count, formatted: format.number(count) });
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** A price in minor units ("499", "usd") as the reader writes money: "$4.99", "4,99 US$". */
export function useMoney(): (minor: number, currency: string) => string {
  const { i18n } = useShopT();
  const language = i18n.language;
  return useCallback(
    (minor: number, currency: string) => {
      const code = (currency || "usd").toUpperCase();
      const key = `${language}:${code}`;
      let format = moneyFormats.get(key);
      if (!format) {
        format = new Intl.NumberFormat(language, { style: "currency", currency: code });
        moneyFormats.set(key, format);
      }
      return format.format(minor / 100);
    },
    [language],
  );
}

/** A token cost, as a chip with the token's coin. */
export function TokenCost({ count }: { count: number }) {
  const tokens = useTokens();
  return (
    <span className="tt-shop-cost">
      <Coins aria-hidden="true" />
      {tokens(count)}
    </span>
  );
}

/**
 * A link to a page of the shell (the rooms, the log-in): the shell's router follows the shared history, so the
 * page changes without a reload; a modified click opens it as the browser would.
 */
export function ShellLink({ to, className, children }: { to: string; className?: string; children: ReactNode }) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    window.history.pushState(null, "", to);
    window.dispatchEvent(new PopStateEvent("popstate"));
  };
  return (
    <a href={to} className={className} onClick={follow}>
      {children}
    </a>
  );
}

/** Cards in the shape of products while a list loads. */
export function ProductSkeletons({ count = 4 }: { count?: number }) {
  return (
    <ul className="tt-shop-grid" aria-hidden="true">
      {Array.from({ length: count }, (_, card) => (
        <li key={card}>
          <div className="tt-card tt-shop-product">
            <Skeleton className="tt-shop-product__art" width="5rem" height="5rem" radius="var(--tt-radius-lg)" />
            <Skeleton width="70%" height="1rem" />
            <Skeleton width="40%" height="0.8rem" />
            <Skeleton width="100%" height="2.5rem" radius="999px" />
          </div>
        </li>
      ))}
    </ul>
  );
}
