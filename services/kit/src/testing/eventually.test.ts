import { describe, expect, it } from "vitest";
import { eventually } from "./eventually.ts";

describe("eventually", () => {
  it("answers the first answer that is something, or that holds", async () => {
    let n = 0;
    expect(await eventually("the third ask", () => (++n >= 3 ? n : undefined), { intervalMs: 1 })).toBe(3);
    n = 0;
    expect(
      await eventually(
        "zero",
        async () => n++,
        (value) => value === 2,
        { intervalMs: 1 },
      ),
    ).toBe(2);
  });

  it("fails on timeout with what it waited for and the last answer, never answering what does not hold", async () => {
    await expect(
      eventually(
        "a miracle",
        () => ({ seen: 1n }),
        () => false,
        { timeoutMs: 30, intervalMs: 5 },
      ),
    ).rejects.toThrow('timed out after 30 ms waiting for a miracle; the last answer: {"seen":"1"}');
  });

  it("fails at once when the probe throws", async () => {
    let asks = 0;
    await expect(
      eventually("a broken probe", () => {
        asks++;
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(asks).toBe(1);
  });

  it("fails, naming what it waited for, when a probe does not answer by the deadline", async () => {
    const asked = Date.now();
    await expect(eventually("a hanging call", () => new Promise<never>(() => {}), { timeoutMs: 30 })).rejects.toThrow(
      "waiting for a hanging call: the probe did not answer in 1000 ms",
    );
    expect(Date.now() - asked).toBeLessThan(10_000);
  });
});
