// The rooms that are live now (StageService.ListLiveRooms): the home page's and the directory's live data, read from
// the stages. A room is live while someone listens or a song plays; private rooms are never listed. The full list
// comes from a scan of the stage bucket, made at most once every SCAN_EVERY_MS per instance however many pages ask
// (one scan in flight at a time), so the answer may be a few seconds old
// (docs/decisions/0317-the-live-rooms-on-the-home-page-and-the.md).
import { create } from "@bufbuild/protobuf";
import { LiveRoomSchema, type LiveRoom } from "@tt/proto/tt/social/v1/stage_service_pb";
import type { Stage } from "@tt/proto/tt/social/v1/stage_pb";
import { listenersOf } from "./domain.ts";

export const SCAN_EVERY_MS = 5_000;

/** Whether a stage belongs on a public list of live rooms. */
export function isListedLive(stage: Stage): boolean {
  return (
    stage.room !== undefined && stage.room.type !== "PRIVATE" && (listenersOf(stage) > 0 || stage.play !== undefined)
  );
}

export function liveRoomOf(stage: Stage): LiveRoom {
  return create(LiveRoomSchema, {
    room: stage.room,
    listeners: stage.listeners,
    djUuids: stage.seats.map((seat) => seat.userUuid),
    play: stage.play,
  });
}

/** The most listened rooms first, then those playing, then by name. */
export function rankLiveRooms(stages: readonly Stage[], limit: number): LiveRoom[] {
  return stages
    .filter(isListedLive)
    .sort(
      (a, b) =>
        listenersOf(b) - listenersOf(a) ||
        Number(b.play !== undefined) - Number(a.play !== undefined) ||
        a.room!.name.localeCompare(b.room!.name),
    )
    .slice(0, limit)
    .map(liveRoomOf);
}

/** The scan of every stage, shared by the calls of a few seconds. */
export function cachedScan(scan: () => Promise<Stage[]>, everyMs = SCAN_EVERY_MS, now = () => Date.now()) {
  let last: { at: number; stages: Promise<Stage[]> } | undefined;
  return (): Promise<Stage[]> => {
    if (!last || now() - last.at >= everyMs) {
      const stages = scan();
      last = { at: now(), stages };
      // A failed scan is not kept: the next call scans again.
      stages.catch(() => {
        if (last?.stages === stages) last = undefined;
      });
    }
    return last.stages;
  };
}
