export const PAYMENT_NAMESPACE = "shopPayment";

export const en = {
  loading: "Loading…",
  tokens: { title: "Buy tokens", empty: "No token packs on sale.", buy: "Buy {{name}} for {{price}}" },
  plans: {
    title: "Subscription plans",
    empty: "No plans yet.",
    subscribe: "Subscribe to {{name}} for {{price}}",
    current: "Your plan: {{level}}",
    none: "You have no subscription.",
    manage: "Manage subscription",
  },
};

export const es: typeof en = {
  loading: "Cargando…",
  tokens: {
    title: "Comprar fichas",
    empty: "No hay paquetes de fichas a la venta.",
    buy: "Comprar {{name}} por {{price}}",
  },
  plans: {
    title: "Planes de suscripción",
    empty: "Todavía no hay planes.",
    subscribe: "Suscribirse a {{name}} por {{price}}",
    current: "Tu plan: {{level}}",
    none: "No tienes ninguna suscripción.",
    manage: "Gestionar la suscripción",
  },
};
