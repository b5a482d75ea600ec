// The rooms' live summaries for the directory (issue 29): on every stored stage change the room's compact summary
// (listeners, the song playing, the DJs: tt.room.v1.RoomLive) goes to the ROOM_LIVE_BUCKET key-value bucket, which
// the room service keeps in memory for its lists. At most one write a second per room per instance: a change within
// the second of the last write is written at its end, from the latest stage this instance stored; a write never
// replaces a summary of a later stage version (another instance's). A quiet room (no listener, nothing playing)
// keeps an empty summary (its version guards against a late write of an older stage); a removed stage deletes it
// (docs/decisions/0331-the-live-directory-cards-live-data-and-the-lists.md).
import { create, equals, fromBinary, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { KvConflictError, type KvBucket } from "@tt/kit";
import { RoomLiveSchema, type RoomLive } from "@tt/proto/tt/room/v1/room_pb";
import type { Stage } from "@tt/proto/tt/social/v1/stage_pb";
import type { Logger } from "pino";
import { listenersOf } from "./domain.ts";

/** The shortest time between two writes of one room's summary by one instance. */
export const SUMMARY_EVERY_MS = 1_000;

const artworkOf = (thumbnails: Record<string, string>) =>
  Object.values(thumbnails).find((url) => /^(https?:)?\/\//.test(url) || url.startsWith("/")) ?? "";

/** The room's live summary from its stage (without the time it is written). */
export function roomLiveOf(stage: Stage): RoomLive {
  const song = stage.play?.song;
  return create(RoomLiveSchema, {
    listeners: listenersOf(stage),
    nowPlaying: stage.play
      ? {
          title: song?.trackName ?? "",
          artist: song?.artistName ?? "",
          artworkUrl: artworkOf(song?.thumbnails ?? {}),
          djUuid: stage.play.djUuid,
          startedAt: stage.play.startedAt,
          duration: stage.play.duration,
        }
      : undefined,
    djUuids: stage.seats.map((seat) => seat.userUuid),
    stageVersion: stage.version,
  });
}

/** Whether a summary shows anything (a quiet room's is empty). */
export const isLiveSummary = (live: RoomLive) => live.listeners > 0 || live.nowPlaying !== undefined;

export class LiveSummaries {
  /** Per room: when this instance last wrote, what (without stage version and time), and a pending stage. */
  private readonly rooms = new Map<string, { at: number; shown?: RoomLive; pending?: Stage; timer?: NodeJS.Timeout }>();
  private closed = false;

  constructor(
    private readonly kv: KvBucket,
    private readonly logger: Logger,
    private readonly everyMs = SUMMARY_EVERY_MS,
    private readonly now = () => Date.now(),
  ) {}

  /** The room's stage was stored: its summary is written now, or at the end of the second since the last write. */
  changed(roomUuid: string, stage: Stage): void {
    if (this.closed) return;
    const room = this.rooms.get(roomUuid) ?? { at: -Infinity };
    this.rooms.set(roomUuid, room);
    if (room.timer) {
      room.pending = stage;
      return;
    }
    const wait = room.at + this.everyMs - this.now();
    if (wait <= 0) {
      void this.write(roomUuid, stage);
      return;
    }
    room.pending = stage;
    room.timer = setTimeout(() => {
      room.timer = undefined;
      const latest = room.pending;
      room.pending = undefined;
      if (latest) void this.write(roomUuid, latest);
    }, wait);
    room.timer.unref();
  }

  /** The room's stage is gone (the room was deleted). */
  async removed(roomUuid: string): Promise<void> {
    const room = this.rooms.get(roomUuid);
    if (room?.timer) clearTimeout(room.timer);
    this.rooms.delete(roomUuid);
    await this.kv.delete(roomUuid);
  }

  close(): void {
    this.closed = true;
    for (const room of this.rooms.values()) if (room.timer) clearTimeout(room.timer);
    this.rooms.clear();
  }

  private async write(roomUuid: string, stage: Stage): Promise<void> {
    const room = this.rooms.get(roomUuid);
    if (!room) return;
    const live = roomLiveOf(stage);
    // Only what a card shows counts as a change: a vote or a seat's away mark writes nothing.
    const shown = create(RoomLiveSchema, { ...live, stageVersion: 0n });
    if (room.shown && equals(RoomLiveSchema, room.shown, shown)) return;
    room.at = this.now();
    live.updatedAt = timestampFromDate(new Date(this.now()));
    try {
      for (let attempt = 0; attempt < 8; attempt++) {
        const current = await this.kv.get(roomUuid);
        try {
          if (!current || current.operation !== "PUT") {
            await this.kv.create(roomUuid, toBinary(RoomLiveSchema, live));
          } else {
            if (fromBinary(RoomLiveSchema, current.value).stageVersion >= live.stageVersion) break;
            await this.kv.update(roomUuid, toBinary(RoomLiveSchema, live), current.revision);
          }
          break;
        } catch (err) {
          if (!(err instanceof KvConflictError)) throw err;
        }
      }
      room.shown = shown;
    } catch (err) {
      // The next change writes again; a card shows the previous summary meanwhile.
      this.logger.warn({ err, room: roomUuid }, "the room's live summary could not be written");
    }
  }
}
