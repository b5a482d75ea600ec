// setLazy: a context value made on first read, once, and replaced by a later set like any other.
import { createContextKey, createContextValues } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { setLazy } from "./context.ts";

describe("setLazy", () => {
  const key = createContextKey<{ n: number } | undefined>(undefined, { description: "lazy test value" });

  it("makes the value on the first get only, and never when nobody reads it", () => {
    let made = 0;
    const values = createContextValues();
    setLazy(values, key, () => ({ n: ++made }));
    expect(made).toBe(0);
    const first = values.get(key);
    expect(first).toEqual({ n: 1 });
    expect(values.get(key)).toBe(first);
    expect(made).toBe(1);

    const untouched = createContextValues();
    setLazy(untouched, key, () => ({ n: ++made }));
    expect(made).toBe(1);
  });

  it("is replaced by set and removed by delete without making it", () => {
    let made = 0;
    const values = createContextValues();
    setLazy(values, key, () => ({ n: ++made }));
    values.set(key, { n: 42 });
    expect(values.get(key)).toEqual({ n: 42 });
    values.delete(key);
    expect(values.get(key)).toBeUndefined();
    expect(made).toBe(0);
  });
});
