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

/** Awaits a call that must fail with a ConnectError; returns the seconds of its retry-after metadata (0 when absent). */
export async function retryAfterOf(call: Promise<unknown> | unknown): Promise<number> {
  try {
    await call;
  } catch (err) {
    if (err instanceof ConnectError) return Number(err.metadata.get("retry-after") ?? 0);
    throw err;
  }
  throw new Error("expected the call to fail with a ConnectError");
}

export { Code };
