/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs` (no fixed sleeps). */

/** The ConnectError a call is refused with. */
export async function refusal(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await call;
  } catch (err) {
    const e = err as { code: number; rawMessage?: string; message: string };
    return { code: e.code, message: e.rawMessage ?? e.message };
  }
  throw new Error("the call was not refused");
}
