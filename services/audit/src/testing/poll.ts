/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs` (no fixed sleeps). */
export async function until<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setTimeout(resolve, 25));
  }
}

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
