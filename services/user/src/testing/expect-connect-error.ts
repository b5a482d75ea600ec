import { Code, ConnectError } from "@connectrpc/connect";

/** Awaits a call that must fail with a ConnectError; returns its code and the message callers see. */
export async function connectErrorOf(call: Promise<unknown> | unknown): Promise<{ code: Code; message: string }> {
  try {
    await call;
  } catch (err) {
    if (err instanceof ConnectError) return { code: err.code, message: err.rawMessage };
    throw err;
  }
  throw new Error("expected the call to fail with a ConnectError");
}

export { Code };
