// The song state machine (specification 001 §3's SongStatus; docs/decisions/0137-song-states.md). Every change of a
// song's status goes through `transition`, so the table below is the whole rule set; the proto comment of
// tt.upload.v1.SongStatus shows the same table.
import { wireName } from "@tt/kit";
import type { SongStatus } from "@tt/proto/tt/upload/v1/song_pb";
import { SongStatusSchema } from "@tt/proto/tt/upload/v1/song_pb";

export type SongStatusName =
  | "PENDING_UPLOAD"
  | "VALID_FILE_TYPE"
  | "MISSING_METADATA"
  | "VERIFIED"
  | "UNVERIFIED"
  | "VERIFICATION_ERROR"
  | "VERIFICATION_POSTPONED";

/** What happens to a song. */
export type SongEvent =
  /** The stored bytes are a supported audio container. */
  | "fileTypeValid"
  /** Title, artist or duration is missing (after reading the tags, or after an edit). */
  | "metadataIncomplete"
  /** Title, artist and duration are all present: the song is queued for packaging. */
  | "metadataComplete"
  /** Every rendition and playlist is in the object store. */
  | "packaged"
  /** A packaging attempt failed for a passing reason (store away, worker stopping): it comes again. */
  | "packagingPostponed"
  /** FFmpeg cannot decode the file: final. */
  | "packagingFailed";

export const SONG_EVENTS: readonly SongEvent[] = [
  "fileTypeValid",
  "metadataIncomplete",
  "metadataComplete",
  "packaged",
  "packagingPostponed",
  "packagingFailed",
];

export const SONG_STATUSES: readonly SongStatusName[] = [
  "PENDING_UPLOAD",
  "VALID_FILE_TYPE",
  "MISSING_METADATA",
  "VERIFIED",
  "UNVERIFIED",
  "VERIFICATION_ERROR",
  "VERIFICATION_POSTPONED",
];

const TABLE: Record<SongStatusName, Partial<Record<SongEvent, SongStatusName>>> = {
  PENDING_UPLOAD: { fileTypeValid: "VALID_FILE_TYPE" },
  VALID_FILE_TYPE: { metadataIncomplete: "MISSING_METADATA", metadataComplete: "UNVERIFIED" },
  MISSING_METADATA: { metadataIncomplete: "MISSING_METADATA", metadataComplete: "UNVERIFIED" },
  UNVERIFIED: {
    packaged: "VERIFIED",
    packagingPostponed: "VERIFICATION_POSTPONED",
    packagingFailed: "VERIFICATION_ERROR",
  },
  VERIFICATION_POSTPONED: {
    packaged: "VERIFIED",
    packagingPostponed: "VERIFICATION_POSTPONED",
    packagingFailed: "VERIFICATION_ERROR",
  },
  VERIFIED: {},
  VERIFICATION_ERROR: {},
};

export class SongTransitionError extends Error {
  override name = "SongTransitionError";
}

/** The status after `event`, or undefined when the event does not apply to a song in `from`. */
export function nextStatus(from: SongStatusName, event: SongEvent): SongStatusName | undefined {
  return TABLE[from][event];
}

/** The status after `event`; throws SongTransitionError when it does not apply. */
export function transition(from: SongStatusName, event: SongEvent): SongStatusName {
  const to = nextStatus(from, event);
  if (!to) throw new SongTransitionError(`a ${from} song cannot take ${event}`);
  return to;
}

/** Whether a packaging job still has work to do for a song in this status. */
export function awaitsPackaging(status: string): boolean {
  return status === "UNVERIFIED" || status === "VERIFICATION_POSTPONED";
}

/** The proto enum value of a status name (for callers that hold the enum). */
export function statusWire(status: SongStatus): string {
  return wireName(SongStatusSchema, status);
}
