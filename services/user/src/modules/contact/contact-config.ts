// The contact area's part of the environment: verification codes, the phone fraud limits and the throttles.
// Validated once at start with the kit's parseEnv, like the service's own config.
import { z } from "zod";
import { parseEnv } from "@tt/kit";

const count = (fallback: number) => z.coerce.number().int().positive().default(fallback);
// Comma-separated lists; an empty or unset variable is an empty list.
const list = (transform: (s: string) => string) =>
  z
    .string()
    .optional()
    .transform((v) =>
      (v ?? "")
        .split(",")
        .map((s) => transform(s.trim()))
        .filter((s) => s !== ""),
    );

export const contactConfigSchema = z.object({
  EMAIL_CODE_TTL_SECONDS: count(15 * 60),
  EMAIL_VERIFICATION_MIN_INTERVAL_SECONDS: count(60),
  EMAIL_CODE_MAX_ATTEMPTS: count(5),
  MOBILE_CODE_TTL_SECONDS: count(10 * 60),
  MOBILE_CODE_MIN_RESEND_SECONDS: count(60),
  MOBILE_CODES_PER_NUMBER_PER_HOUR: count(5),
  MOBILE_CODES_PER_IP_PER_HOUR: count(20),
  MOBILE_CODE_MAX_ATTEMPTS: count(5),
  PHONE_VALIDATION_CACHE_SECONDS: count(24 * 60 * 60),
  PHONE_BLOCKED_CARRIER_TYPES: list((s) => s),
  PHONE_ALLOWED_COUNTRY_CODES: list((s) => s.toUpperCase()),
  // Login throttles (login-throttle.ts): per account from one address, per address over all accounts, both
  // in fixed windows; per account over all addresses, a growing delay once the free failures are spent.
  LOGIN_ATTEMPTS_PER_ACCOUNT_AND_IP: count(10),
  LOGIN_ATTEMPTS_PER_IP: count(100),
  LOGIN_THROTTLE_WINDOW_SECONDS: count(15 * 60),
  LOGIN_FAILURES_BEFORE_BACKOFF: count(10),
  LOGIN_BACKOFF_MAX_SECONDS: count(60),
  LOGIN_KNOWN_ADDRESS_DAYS: count(30).pipe(z.number().max(90)),
  EMAIL_CODE_REQUESTS_PER_HOUR: count(10),
  DEV_OUTBOX_CAPACITY: count(500),
});

export type ContactConfig = z.output<typeof contactConfigSchema>;

export function loadContactConfig(env: Record<string, string | undefined>): ContactConfig {
  return parseEnv(contactConfigSchema, env);
}
