import type { Transport } from "@connectrpc/connect";
import { createClient } from "@connectrpc/connect";
import { UserService } from "@tt/proto/tt/user/v1/user_service_pb";

/**
 * A number that can receive a text: an optional +, then 8 to 15 digits (E.164), spaces, dots, dashes and
 * brackets allowed between them. Whether it is a real, non-VoIP mobile number only the server can tell.
 */
export function isPlausiblePhoneNumber(input: string): boolean {
  const trimmed = input.trim();
  if (!/^\+?[\d\s().-]+$/.test(trimmed)) return false;
  const digits = trimmed.replace(/\D/g, "");
  return digits.length >= 8 && digits.length <= 15;
}

export function normalisePhoneNumber(input: string): string {
  const trimmed = input.trim();
  return (trimmed.startsWith("+") ? "+" : "") + trimmed.replace(/\D/g, "");
}

/** The server has no phone sign-in yet; the screen says so instead of pretending a text was sent. */
export class FeatureUnavailableError extends Error {
  constructor(feature: string) {
    super(`${feature} is not available on this server yet`);
    this.name = "FeatureUnavailableError";
  }
}

// The RPC names the user service will get for POST /api/user-service/mobile-auth/send-code and verify-code.
const SEND_CODE = "sendMobileCode";
const VERIFY_CODE = "verifyMobileCode";

type UntypedClient = Record<string, ((request: Record<string, unknown>) => Promise<unknown>) | undefined>;

function phoneMethod(transport: Transport, name: string) {
  const client = createClient(UserService, transport) as unknown as UntypedClient;
  const method = client[name];
  if (!(name in UserService.method) || !method) throw new FeatureUnavailableError("Phone sign-in");
  return method;
}

/** Asks the server to text a code to the number. */
export async function sendPhoneCode(transport: Transport, phoneNumber: string): Promise<void> {
  await phoneMethod(transport, SEND_CODE)({ phoneNumber: normalisePhoneNumber(phoneNumber) });
}

/** Exchanges the texted code for a session; the response shape is the sign-up response's. */
export async function verifyPhoneCode(transport: Transport, phoneNumber: string, code: string): Promise<unknown> {
  return phoneMethod(transport, VERIFY_CODE)({ phoneNumber: normalisePhoneNumber(phoneNumber), code });
}
