import { timestampDate } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { optionalTimestamp } from "./timestamp.ts";

describe("optionalTimestamp", () => {
  it("is the Timestamp of a Date or a date's text, and unset for no date", () => {
    const at = new Date("2026-12-01T10:20:30.456Z");
    expect(timestampDate(optionalTimestamp(at)!)).toEqual(at);
    expect(timestampDate(optionalTimestamp("2026-12-01T10:20:30.456Z")!)).toEqual(at);
    expect([optionalTimestamp(null), optionalTimestamp(undefined), optionalTimestamp("")]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});
