import type { Logger } from "pino";
import type { PaymentConfig } from "./config.ts";
import type { PaymentProvider } from "./providers/payment-provider.ts";

export interface PaymentContext {
  config: PaymentConfig;
  provider: PaymentProvider;
  logger: Logger;
  /** The site's origin for provider redirect URLs ("" in development: relative to the site). */
  publicUrl: string;
}
