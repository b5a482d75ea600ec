// useFormat().duration: the crates app's duration table (spec 002 §9: days, hours, minutes and seconds), moved here
// with the hand-written formatter it replaced.
import { describe, expect, it } from "vitest";
import { createFormatters } from "./format.ts";

describe("duration (spec 002 §9)", () => {
  const { duration } = createFormatters("en");
  it.each([
    [0, "0:00"],
    [7, "0:07"],
    [59.9, "0:59"],
    [60, "1:00"],
    [225, "3:45"],
    [599, "9:59"],
    [3_599, "59:59"],
    [3_600, "1:00:00"],
    [3_661, "1:01:01"],
    [86_399, "23:59:59"],
    [86_400, "1d 0:00:00"],
    [90_061, "1d 1:01:01"],
    [10 * 86_400 + 5, "10d 0:00:05"],
    [-5, "0:00"],
    [Number.NaN, "0:00"],
    [Number.POSITIVE_INFINITY, "0:00"],
    [undefined, "0:00"],
    [225n, "3:45"],
  ])("%s seconds → %s", (seconds, expected) => {
    expect(duration(seconds)).toBe(expected);
  });

  it("writes the day unit in the page's language", () => {
    expect(createFormatters("es").duration(2 * 86_400 + 3_600)).toBe("2d 1:00:00");
    expect(createFormatters("de").duration(2 * 86_400 + 3_600)).toBe("2 T 1:00:00");
  });
});
