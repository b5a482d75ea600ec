import { useErrorText, useSession } from "@tt/web-kit";
import type { Avatar as ShopAvatar } from "@tt/proto/tt/merch/v1/merch_pb";
import {
  Avatar,
  Badge,
  Button,
  Card,
  ConfirmDialog,
  EmptyState,
  ErrorMessage,
  humanise,
  toast,
  useNames,
} from "@tt/web-kit/ui";
import { Check, Headphones, Store } from "lucide-react";
import { useAvatars, useBuyAvatar, useChooseAvatar, useOwnProfile, useTokenAccount } from "../api/merch.ts";
import { ProductSkeletons, ShellLink, TokenCost, useShopT, useTokens } from "./shared.tsx";

/** An avatar's picture: its image, else the default drawn from its slug. */
function Preview({ avatar, size = "xl" }: { avatar: ShopAvatar; size?: "lg" | "xl" }) {
  return <Avatar id={avatar.slug} name={avatar.name} src={avatar.imageUrl || undefined} size={size} decorative />;
}

/**
 * Avatars you own and can choose, and those on sale. Choosing one sets the profile's avatarId in the user
 * service, which the shell and the room read (one source of truth).
 */
export function AvatarsScreen() {
  const { t } = useShopT();
  const errorText = useErrorText();
  const names = useNames();
  const tokens = useTokens();
  const me = useSession().user?.uuid ?? "";
  const avatars = useAvatars();
  const profile = useOwnProfile();
  const account = useTokenAccount();
  const choose = useChooseAvatar();
  const buy = useBuyAvatar();
  const current = profile.data?.avatarId ?? "";
  const currentAvatar = avatars.data?.choosable.find((a) => a.slug === current);
  const currentName = currentAvatar?.name || (current ? humanise(current) : "");
  const balance = account.data?.balance;

  if (avatars.isPending) return <ProductSkeletons count={4} />;
  if (avatars.isError) return <ErrorMessage>{errorText(avatars.error)}</ErrorMessage>;
  return (
    <div className="tt-shop-screen">
      <Card className="tt-shop-current">
        {currentAvatar ? (
          <Preview avatar={currentAvatar} />
        ) : (
          // The default is drawn from the user's id: the same face as in the header and the rooms.
          <Avatar id={me} name={currentName} size="xl" decorative />
        )}
        <div>
          <h2 className="tt-eyebrow">{t("avatars.wearing")}</h2>
          <p className="tt-shop-current__name">
            {current ? t("avatars.current", { name: currentName }) : t("avatars.noCurrent")}
          </p>
          <p className="tt-muted">{t("avatars.everywhere")}</p>
        </div>
      </Card>

      <section className="tt-shop-section" aria-labelledby="owned-title">
        <h2 id="owned-title" className="tt-shop-section__title">
          {t("avatars.title")}
        </h2>
        <ul className="tt-shop-grid" aria-label={t("avatars.title")}>
          {avatars.data.choosable.map((a) => {
            const inUse = a.slug === current;
            return (
              <li key={a.slug}>
                <Card className={`tt-shop-product ${inUse ? "tt-shop-product--selected" : ""}`}>
                  <Preview avatar={a} />
                  <h3 className="tt-shop-product__name">{a.name}</h3>
                  <Badge tone={a.status === "PUBLIC" ? "neutral" : "accent"}>{names("status", a.status)}</Badge>
                  <Button
                    variant={inUse ? "secondary" : "primary"}
                    className="tt-shop-product__buy"
                    icon={inUse ? <Check aria-hidden="true" /> : undefined}
                    disabled={inUse || choose.isPending}
                    busy={choose.isPending && choose.variables === a.slug}
                    aria-label={`${a.name}: ${inUse ? t("avatars.chosen") : t("avatars.choose")}`}
                    onClick={() =>
                      choose.mutate(a.slug, {
                        onSuccess: () => toast({ title: t("avatars.chosenToast", { name: a.name }), tone: "success" }),
                        onError: (error) => toast({ title: errorText(error), tone: "error" }),
                      })
                    }
                  >
                    {inUse ? t("avatars.chosen") : t("avatars.choose")}
                  </Button>
                </Card>
              </li>
            );
          })}
        </ul>
      </section>

      <section className="tt-shop-section" aria-labelledby="on-sale-title">
        <h2 id="on-sale-title" className="tt-shop-section__title">
          {t("avatars.onSale")}
        </h2>
        {avatars.data.onSale.length === 0 ? (
          <EmptyState
            icon={<Store />}
            title={t("avatars.noneOnSale")}
            headingLevel={3}
            action={
              <ShellLink to="/room" className="tt-button tt-button--secondary">
                <Headphones aria-hidden="true" />
                {t("avatars.toRooms")}
              </ShellLink>
            }
          >
            {t("avatars.noneOnSaleBody")}
          </EmptyState>
        ) : (
          <ul className="tt-shop-grid" aria-label={t("avatars.onSale")}>
            {avatars.data.onSale.map((a) => (
              <li key={a.slug}>
                <Card className="tt-shop-product">
                  <Preview avatar={a} />
                  <h3 className="tt-shop-product__name">{a.name}</h3>
                  <TokenCost count={a.tokenCost} />
                  <ConfirmDialog
                    title={t("avatars.confirmTitle", { name: a.name })}
                    description={
                      balance === undefined
                        ? undefined
                        : t("consumables.confirmBody", {
                            cost: tokens(a.tokenCost),
                            after: tokens(Math.max(0, balance - a.tokenCost)),
                          })
                    }
                    confirmLabel={t("consumables.confirm", { cost: tokens(a.tokenCost) })}
                    trigger={
                      <Button
                        className="tt-shop-product__buy"
                        aria-label={`${a.name}: ${t("avatars.buy", { count: a.tokenCost })}`}
                      >
                        {t("avatars.buy", { count: a.tokenCost })}
                      </Button>
                    }
                    onConfirm={() => buy.mutateAsync(a.slug)}
                    successMessage={t("avatars.bought", { name: a.name })}
                  >
                    <div className="tt-shop-confirm-preview">
                      <Preview avatar={a} size="lg" />
                    </div>
                  </ConfirmDialog>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
