import { useAppTranslation } from "@tt/web-kit";
import "./shop.css";

const en = {
  title: "Shop",
  emptyTitle: "The shop is not open yet",
  emptyBody:
    "Avatars, token bundles and subscriptions will be on sale here as soon as the payment and merch services run on this server.",
};

const es: typeof en = {
  title: "Tienda",
  emptyTitle: "La tienda aún no está abierta",
  emptyBody:
    "Los avatares, los paquetes de tokens y las suscripciones estarán a la venta aquí en cuanto los servicios de pagos y merch funcionen en este servidor.",
};

/** The shop remote's first screen (the payment and merch services have not landed yet). */
export function App() {
  const { t } = useAppTranslation("shop", { en, es });
  return (
    <section className="tt-shop" aria-labelledby="shop-title">
      <h1 id="shop-title" className="tt-page-title">
        {t("title")}
      </h1>
      <div className="tt-card tt-empty" role="status">
        <h2>{t("emptyTitle")}</h2>
        <p className="tt-muted">{t("emptyBody")}</p>
      </div>
    </section>
  );
}
