import { Code, ConnectError } from "@connectrpc/connect";
import { refusalOf } from "@tt/kit/testing";
import { expect } from "vitest";

/** Asserts that `call` is refused with `code` (and `message`, when given). */
export async function refusal(call: Promise<unknown>, code: Code, message?: string): Promise<void> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => ConnectError.from(e),
  );
  expect(error, "the call should have been refused").toBeDefined();
  expect(Code[error!.code]).toBe(Code[code]);
  if (message !== undefined) expect(error!.rawMessage).toBe(message);
}

/** The code and message of `call`'s refusal, for suites that assert on one or both. */
export async function refusalParts(call: Promise<unknown>): Promise<{ code: Code; message: string }> {
  const e = await refusalOf(call);
  return { code: e.code, message: e.rawMessage };
}
