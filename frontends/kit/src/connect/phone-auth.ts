import type { Transport } from "@connectrpc/connect";
import { createClient } from "@connectrpc/connect";
import { UserService } from "@tt/proto/tt/user/v1/user_service_pb";
import { FeatureUnavailableError, normalisePhoneNumber } from "../phone-number.ts";

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
