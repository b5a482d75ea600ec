import type { ServiceDefinition } from "@tt/kit";
import { loadPaymentServiceConfig } from "./config.ts";
import type { PaymentContext } from "./context.ts";
import { entities } from "./entities.ts";
import { migrationsList } from "./migrations/index.ts";
import { seedDemoProducts } from "./modules/demo/demo-products.ts";
import { developmentProvider, stripeProvider } from "./providers/payment-provider.ts";
import { PAYMENT_SERVICES, registerPaymentRoutes } from "./routes/index.ts";

export const paymentServiceDefinition: ServiceDefinition = {
  name: "payment",
  services: [...PAYMENT_SERVICES],
  entities,
  migrations: migrationsList,
  async create(deps) {
    const { payment } = loadPaymentServiceConfig(deps.env);
    const publicUrl = payment.PAYMENT_PUBLIC_URL ?? "";
    if (payment.PAYMENT_PROVIDER === "development") {
      // Said at every start: this checkout credits whatever a signed-in user asks for, and no money moves.
      deps.logger.warn(
        payment.NODE_ENV === "production"
          ? "payment: the development checkout is on IN PRODUCTION (PAYMENT_ALLOW_DEVELOPMENT_CHECKOUT_IN_PRODUCTION=true): every signed-in user gets tokens for free"
          : "payment: the development checkout is on (PAYMENT_PROVIDER=development): no money moves, tokens are free; never for a real deployment",
      );
    }
    const svc: PaymentContext = {
      config: payment,
      logger: deps.logger,
      publicUrl,
      provider:
        payment.PAYMENT_PROVIDER === "stripe"
          ? stripeProvider({
              secretKey: payment.STRIPE_SECRET_KEY!,
              baseUrl: payment.STRIPE_API_URL,
              timeoutMs: payment.STRIPE_TIMEOUT_MS,
            })
          : developmentProvider(publicUrl),
    };
    if (payment.PAYMENT_DEMO_PRODUCTS) {
      if (payment.PAYMENT_PROVIDER === "development") {
        await seedDemoProducts({ orm: deps.orm, logger: deps.logger }).catch((err: unknown) =>
          deps.logger.error({ err }, "stocking the demo products failed"),
        );
      } else deps.logger.warn("PAYMENT_DEMO_PRODUCTS is ignored: demo products are for the development checkout only");
    }
    return { routes: (router) => registerPaymentRoutes(router, svc) };
  },
};

export { PAYMENT_SERVICES };
export { loadPaymentConfig } from "./config.ts";
export { stripeSignatureHeader, verifyStripeSignature } from "./modules/stripe-signature.ts";
