import { refusalOf } from "@tt/kit/testing";

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs` (no fixed sleeps). */

/** The code and message of the ConnectError a call is refused with. */
export async function refusal(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  const e = await refusalOf(call);
  return { code: e.code, message: e.rawMessage };
}
