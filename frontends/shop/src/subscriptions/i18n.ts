export const PAYMENT_NAMESPACE = "shopPayment";

export const en = {
  loading: "Loading…",
  tokens: {
    title: "Buy tokens",
    empty: "No token packs on sale",
    emptyBody: "Token packs appear here when this server sells them. Your balance stays yours meanwhile.",
    buy: "Buy {{name}} for {{price}}",
    toShop: "See what tokens buy",
    confirmTitle: "Buy {{name}}?",
    confirmBody: "You pay {{price}} on the next page, then come back here with your tokens.",
    confirm: "Go to payment",
  },
  plans: {
    title: "Subscription plans",
    empty: "No plans yet",
    emptyBody: "Subscription plans appear here when this server offers them.",
    subscribe: "Subscribe to {{name}} for {{price}}",
    toRooms: "Back to the rooms",
    current: "Your plan: {{level}}",
    currentBody: "Thanks for supporting the floor. Change or cancel it any time.",
    none: "You have no subscription.",
    noneBody: "A plan unlocks subscriber avatars and badges.",
    yours: "Your plan",
    manage: "Manage subscription",
    confirmTitle: "Subscribe to {{name}}?",
    confirmBody: "You pay {{price}} on the next page; you can cancel any time.",
    confirm: "Go to payment",
  },
};

export const es: typeof en = {
  loading: "Cargando…",
  tokens: {
    title: "Comprar fichas",
    empty: "No hay paquetes de fichas a la venta",
    emptyBody:
      "Los paquetes de fichas aparecen aquí cuando este servidor los vende. Mientras, tu saldo sigue siendo tuyo.",
    buy: "Comprar {{name}} por {{price}}",
    toShop: "Ver qué puedes comprar con fichas",
    confirmTitle: "¿Comprar {{name}}?",
    confirmBody: "Pagas {{price}} en la página siguiente y vuelves aquí con tus fichas.",
    confirm: "Ir al pago",
  },
  plans: {
    title: "Planes de suscripción",
    empty: "Todavía no hay planes",
    emptyBody: "Los planes de suscripción aparecen aquí cuando este servidor los ofrece.",
    subscribe: "Suscribirse a {{name}} por {{price}}",
    toRooms: "Volver a las salas",
    current: "Tu plan: {{level}}",
    currentBody: "Gracias por apoyar la pista. Puedes cambiarlo o cancelarlo cuando quieras.",
    none: "No tienes ninguna suscripción.",
    noneBody: "Un plan desbloquea avatares e insignias para suscriptores.",
    yours: "Tu plan",
    manage: "Gestionar la suscripción",
    confirmTitle: "¿Suscribirte a {{name}}?",
    confirmBody: "Pagas {{price}} en la página siguiente; puedes cancelar cuando quieras.",
    confirm: "Ir al pago",
  },
};
