// The tests' one polling helper (issue 27: it replaces the local copies each test file had).

export interface EventuallyOptions {
  /** How long to keep asking before failing (default 20 s). */
  timeoutMs?: number;
  /** The pause between two asks (default 50 ms). */
  intervalMs?: number;
}

type Nothing = undefined | null | false;

/**
 * Asks `probe` again and again until its answer holds, and answers it: with `until`, until `until(answer)` is true;
 * without, until the answer is something (not undefined, null or false). After `timeoutMs` it fails, naming `what` it
 * waited for and the last answer; it never answers a value that does not hold. An error thrown by the probe fails at
 * once (a probe that breaks is not a condition that is not met yet). A probe that does not answer by the deadline
 * (at least a second after it was asked) fails it too, naming `what`: a call that hangs is not left to the test's
 * own timeout, which would not say what the test was waiting for.
 */
export function eventually<T>(
  what: string,
  probe: () => T | Promise<T>,
  until: (answer: T) => boolean,
  options?: EventuallyOptions,
): Promise<T>;
export function eventually<T>(
  what: string,
  probe: () => T | Nothing | Promise<T | Nothing>,
  options?: EventuallyOptions,
): Promise<T>;
export async function eventually<T>(
  what: string,
  probe: () => T | Promise<T>,
  untilOrOptions?: ((answer: T) => boolean) | EventuallyOptions,
  maybeOptions?: EventuallyOptions,
): Promise<T> {
  const until =
    typeof untilOrOptions === "function"
      ? untilOrOptions
      : (answer: T) => answer !== undefined && answer !== null && answer !== false;
  const { timeoutMs = 20_000, intervalMs = 50 } =
    (typeof untilOrOptions === "function" ? maybeOptions : untilOrOptions) ?? {};
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await answerBy(probe(), Math.max(deadline - Date.now(), PROBE_GRACE_MS), what);
    if (until(answer)) return answer;
    if (Date.now() >= deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; the last answer: ${describe(answer)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The least time a probe is given to answer, also when it is asked at the deadline. */
const PROBE_GRACE_MS = 1_000;

async function answerBy<T>(answer: T | Promise<T>, ms: number, what: string): Promise<T> {
  if (!(answer instanceof Promise)) return answer;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`waiting for ${what}: the probe did not answer in ${ms} ms`)), ms);
  });
  // A probe given up on may still fail later; that failure is no longer anybody's.
  answer.catch(() => {});
  try {
    return await Promise.race([answer, hung]);
  } finally {
    clearTimeout(timer);
  }
}

function describe(answer: unknown): string {
  try {
    const text = JSON.stringify(answer, (_key, value: unknown) => (typeof value === "bigint" ? String(value) : value));
    return text === undefined ? String(answer) : text.length > 500 ? `${text.slice(0, 500)}…` : text;
  } catch {
    return String(answer);
  }
}
