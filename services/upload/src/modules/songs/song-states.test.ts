// The song state machine as a table: every status × every event, what it becomes or that it is refused.
import { wireNamesOf } from "@tt/kit";
import { SongStatusSchema } from "@tt/proto/tt/upload/v1/song_pb";
import { describe, expect, it } from "vitest";
import {
  awaitsPackaging,
  nextStatus,
  SONG_EVENTS,
  SONG_STATUSES,
  SongTransitionError,
  transition,
  type SongEvent,
  type SongStatusName,
} from "./song-states.ts";

// Rows: from; columns: fileTypeValid, metadataIncomplete, metadataComplete, packaged, packagingPostponed,
// packagingFailed. "-" is refused.
const TABLE: Array<[SongStatusName, ...Array<SongStatusName | "-">]> = [
  ["PENDING_UPLOAD", "VALID_FILE_TYPE", "-", "-", "-", "-", "-"],
  ["VALID_FILE_TYPE", "-", "MISSING_METADATA", "UNVERIFIED", "-", "-", "-"],
  ["MISSING_METADATA", "-", "MISSING_METADATA", "UNVERIFIED", "-", "-", "-"],
  ["UNVERIFIED", "-", "-", "-", "VERIFIED", "VERIFICATION_POSTPONED", "VERIFICATION_ERROR"],
  ["VERIFICATION_POSTPONED", "-", "-", "-", "VERIFIED", "VERIFICATION_POSTPONED", "VERIFICATION_ERROR"],
  ["VERIFIED", "-", "-", "-", "-", "-", "-"],
  ["VERIFICATION_ERROR", "-", "-", "-", "-", "-", "-"],
];

describe("song states", () => {
  it("declares exactly the specification's statuses (the proto enum's wire names)", () => {
    expect([...SONG_STATUSES].sort()).toEqual([...wireNamesOf(SongStatusSchema)].sort());
    expect(TABLE.map((row) => row[0]).sort()).toEqual([...SONG_STATUSES].sort());
  });

  const cases = TABLE.flatMap(([from, ...to]) =>
    SONG_EVENTS.map((event, i) => [from, event, to[i]!] as [SongStatusName, SongEvent, SongStatusName | "-"]),
  );
  it.each(cases)("%s + %s → %s", (from, event, to) => {
    if (to === "-") {
      expect(nextStatus(from, event)).toBeUndefined();
      expect(() => transition(from, event)).toThrow(SongTransitionError);
    } else {
      expect(transition(from, event)).toBe(to);
    }
  });

  it("only UNVERIFIED and VERIFICATION_POSTPONED songs await packaging", () => {
    expect(SONG_STATUSES.filter(awaitsPackaging)).toEqual(["UNVERIFIED", "VERIFICATION_POSTPONED"]);
  });
});
