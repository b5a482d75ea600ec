import { useAppTranslation, useErrorText } from "@tt/web-kit";
import { useAvatars, useBuyAvatar, useChooseAvatar, useOwnProfile } from "../api/merch.ts";
import { en, es, SHOP_NAMESPACE } from "../i18n.ts";
import { Balance } from "./Balance.tsx";

/**
 * Avatars you own and can choose, and those on sale. Choosing one sets the profile's avatarId in the user
 * service, which the shell and the room read (one source of truth).
 */
export function AvatarsScreen() {
  const { t } = useAppTranslation(SHOP_NAMESPACE, { en, es });
  const errorText = useErrorText();
  const avatars = useAvatars();
  const profile = useOwnProfile();
  const choose = useChooseAvatar();
  const buy = useBuyAvatar();
  const current = profile.data?.avatarId ?? "";
  if (avatars.isPending) return <p className="tt-loading">{t("loading")}</p>;
  if (avatars.isError) return <p role="alert">{errorText(avatars.error)}</p>;
  return (
    <div className="tt-shop-screen">
      <Balance />
      <p>{current ? t("avatars.current", { slug: current }) : t("avatars.noCurrent")}</p>
      {(choose.isError || buy.isError) && <p role="alert">{errorText(choose.error ?? buy.error)}</p>}
      <h2>{t("avatars.title")}</h2>
      <ul className="tt-shop-grid" aria-label={t("avatars.title")}>
        {avatars.data.choosable.map((a) => (
          <li key={a.slug} className="tt-card">
            {a.imageUrl && <img src={a.imageUrl} alt="" width={64} height={64} loading="lazy" />}
            <span>{a.name}</span>
            <button
              type="button"
              className="tt-button"
              disabled={a.slug === current || choose.isPending}
              aria-label={`${a.name}: ${a.slug === current ? t("avatars.chosen") : t("avatars.choose")}`}
              onClick={() => choose.mutate(a.slug)}
            >
              {a.slug === current ? t("avatars.chosen") : t("avatars.choose")}
            </button>
          </li>
        ))}
      </ul>
      <h2>{t("avatars.onSale")}</h2>
      {avatars.data.onSale.length === 0 ? (
        <p className="tt-muted">{t("avatars.noneOnSale")}</p>
      ) : (
        <ul className="tt-shop-grid" aria-label={t("avatars.onSale")}>
          {avatars.data.onSale.map((a) => (
            <li key={a.slug} className="tt-card">
              {a.imageUrl && <img src={a.imageUrl} alt="" width={64} height={64} loading="lazy" />}
              <span>{a.name}</span>
              <button
                type="button"
                className="tt-button"
                disabled={buy.isPending}
                aria-label={`${a.name}: ${t("avatars.buy", { count: a.tokenCost })}`}
                onClick={() => buy.mutate(a.slug)}
              >
                {t("avatars.buy", { count: a.tokenCost })}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
