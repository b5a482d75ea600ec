// Phone validation before a code is sent (spec 000: VALID, INVALID, VOIP, VALIDATION_ERROR). VoIP numbers
// are refused because they are free to create in bulk; a lookup failure is its own outcome so the
// service can decide to let the person retry rather than call the number invalid.
import { basicAuth, errorFromResponse, isRecord, optionalString, send } from "./provider-http.ts";
import { ProviderError } from "./provider-error.ts";

export type PhoneValidationStatus = "VALID" | "INVALID" | "VOIP" | "VALIDATION_ERROR";

export interface PhoneValidationResult {
  status: PhoneValidationStatus;
  /** The number in E.164 when it could be read. */
  e164?: string;
  /** ISO 3166-1 alpha-2, when the lookup says. */
  countryCode?: string;
  /** The provider's line type, for example mobile, landline, nonFixedVoip. */
  carrierType?: string;
  /** Why the lookup failed (VALIDATION_ERROR only); for logs, not for the caller. */
  reason?: string;
}

export interface PhoneValidator {
  /** Never throws for a provider failure: that is the VALIDATION_ERROR outcome. */
  validate(phone: string): Promise<PhoneValidationResult>;
}

const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * Reads a number typed with spaces, dashes, dots or brackets, and `00` for `+`. Numbers without a
 * country code are refused rather than guessed: the client sends E.164.
 */
export function normalizeE164(phone: string): string | undefined {
  let compact = phone.trim().replace(/[\s\-.()]/g, "");
  if (compact.startsWith("00")) compact = `+${compact.slice(2)}`;
  return E164.test(compact) ? compact : undefined;
}

/** Line types that count as VoIP. Fixed VoIP lines are tied to an address, so they count as valid. */
const VOIP_TYPES = new Set(["voip", "nonFixedVoip"]);

export interface HttpPhoneValidatorOptions {
  /** https://lookups.twilio.com or a compatible service. */
  baseUrl: string;
  accountSid: string;
  authToken: string;
  timeoutMs: number;
}

export function createHttpPhoneValidator(options: HttpPhoneValidatorOptions): PhoneValidator {
  const authorization = basicAuth(options.accountSid, options.authToken);
  return {
    async validate(phone) {
      const e164 = normalizeE164(phone);
      // A number that cannot be E.164 is invalid without paying for a lookup.
      if (e164 === undefined) return { status: "INVALID" };
      // E.164 is only "+" and digits, both legal in a path; Twilio documents the "+" unescaped.
      const url = new URL(`${options.baseUrl}/v2/PhoneNumbers/${e164}`);
      url.searchParams.set("Fields", "line_type_intelligence");
      let response;
      try {
        response = await send({
          provider: "phone-validation",
          method: "GET",
          url,
          headers: { authorization },
          timeoutMs: options.timeoutMs,
        });
      } catch (error) {
        return lookupFailed(e164, error);
      }
      if (response.status === 404) return { status: "INVALID", e164 };
      if (response.status < 200 || response.status >= 300) {
        return lookupFailed(e164, errorFromResponse("phone-validation", response));
      }
      return readLookup(e164, response.body);
    },
  };
}

function readLookup(e164: string, body: unknown): PhoneValidationResult {
  if (!isRecord(body) || typeof body.valid !== "boolean") {
    return lookupFailed(e164, new ProviderError("phone-validation", "bad-response", "answer has no valid flag"));
  }
  const result: PhoneValidationResult = { status: body.valid ? "VALID" : "INVALID", e164 };
  const formatted = optionalString(body, "phone_number");
  if (formatted !== undefined) result.e164 = formatted;
  const countryCode = optionalString(body, "country_code");
  if (countryCode !== undefined) result.countryCode = countryCode;
  const carrierType = optionalString(body.line_type_intelligence, "type");
  if (carrierType !== undefined) {
    result.carrierType = carrierType;
    if (body.valid && VOIP_TYPES.has(carrierType)) result.status = "VOIP";
  }
  return result;
}

function lookupFailed(e164: string, error: unknown): PhoneValidationResult {
  const reason = error instanceof ProviderError ? error.message : "lookup failed";
  return { status: "VALIDATION_ERROR", e164, reason };
}

/**
 * North American numbers 555-0100 to 555-0199 are reserved for fiction in every area code, so they
 * can never belong to anyone: in development they stand for VoIP numbers, to try the refusal path.
 */
export const DEV_VOIP_RANGE = /^\+1[2-9]\d{2}55501\d{2}$/;

/** Checks the shape only: E.164, and eleven digits for +1 numbers. Everything else is VALID mobile. */
export function createDevPhoneValidator(): PhoneValidator {
  return {
    async validate(phone) {
      const e164 = normalizeE164(phone);
      if (e164 === undefined) return { status: "INVALID" };
      if (e164.startsWith("+1") && e164.length !== 12) return { status: "INVALID", e164 };
      if (DEV_VOIP_RANGE.test(e164)) return { status: "VOIP", e164, carrierType: "nonFixedVoip" };
      return { status: "VALID", e164, carrierType: "mobile" };
    },
  };
}
