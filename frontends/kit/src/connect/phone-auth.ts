import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import {
  ContactService,
  type SendMobileCodeResponse,
  type VerifyMobileCodeResponse,
} from "@tt/proto/tt/user/v1/contact_service_pb";
import { FeatureUnavailableError, normalisePhoneNumber } from "../phone-number.ts";

// A user service that has the calls in its contract but not yet behind them answers Unimplemented; the
// screen then says phone sign-in is not available rather than "something went wrong".
async function orUnavailable<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ConnectError && error.code === Code.Unimplemented) {
      throw new FeatureUnavailableError("Phone sign-in");
    }
    throw error;
  }
}

/** POST /api/user-service/mobile-auth/send-code: texts a code to the number. */
export function sendPhoneCode(transport: Transport, phoneNumber: string): Promise<SendMobileCodeResponse> {
  const users = createClient(ContactService, transport);
  return orUnavailable(() => users.sendMobileCode({ phoneNumber: normalisePhoneNumber(phoneNumber) }));
}

/** POST /api/user-service/mobile-auth/verify-code: trades the texted code for a session. */
export function verifyPhoneCode(
  transport: Transport,
  phoneNumber: string,
  code: string,
): Promise<VerifyMobileCodeResponse> {
  const users = createClient(ContactService, transport);
  return orUnavailable(() => users.verifyMobileCode({ phoneNumber: normalisePhoneNumber(phoneNumber), code }));
}
