// Play tracking per listener (spec 002 §3 "Playing-event record", §4 "Play tracking", §9 windows), in the client:
// - start ends any previous record (sending its total) and begins a new one;
// - continue updates the record's end time and volume, and sends the 15-second event once while the played time
//   is within 10–20 s and the 30-second event once within 25–35 s;
// - end sends the total and clears the record;
// - events for another room or another play are ignored; a total with zero time played is not sent;
// - only signed-in listeners (a user token) are tracked.
// Events go to the audit service's analytics intake through the web kit's analytics client.
import type { AnalyticsClient } from "../analytics/client.ts";
import type { AnalyticsRecord } from "../analytics/topics.ts";

/** Spec 002 §9: the 15-second event's window (seconds played). */
export const FIFTEEN_SECOND_WINDOW = [10, 20] as const;
/** Spec 002 §9: the 30-second event's window. */
export const THIRTY_SECOND_WINDOW = [25, 35] as const;

export const TOTAL_PLAYED_TOPIC = "user-song-total-played";
export const FIFTEEN_SECONDS_TOPIC = "15-seconds";
export const THIRTY_SECONDS_TOPIC = "30-seconds";

/** What identifies a play and what the record says about it. */
export interface TrackedPlay {
  roomSlug: string;
  roomOwnerUuid: string;
  djUuid: string;
  /** Title, artist and ids of the song (sent as one JSON text: the analytics record is flat). */
  songInfo: Record<string, string | number | undefined>;
  playId: string;
  /** The provider it plays from. */
  userProvider: string;
  subscriptionLevel?: string;
}

/** Spec 002 §3's playing-event record. */
export interface PlayingEventRecord extends Omit<TrackedPlay, "songInfo"> {
  songInfo: string;
  userUuid: string;
  startedDate: number;
  updatedDate: number;
  volumeStart: number;
  volumeEnd: number;
  sent15: boolean;
  sent30: boolean;
}

export interface PlayTrackerOptions {
  analytics: Pick<AnalyticsClient, "track">;
  /** The signed-in user's uuid; undefined for guests and nobody (not tracked). */
  userUuid: () => string | undefined;
  now?: () => number;
}

export interface PlayTracker {
  start(play: TrackedPlay, volume: number): void;
  /** Continue: the play is still playing at this volume. */
  progress(at: { roomSlug: string; playId: string }, volume: number): void;
  end(at: { roomSlug: string; playId: string }): void;
  /** The current record (tests, debugging). */
  current(): PlayingEventRecord | null;
}

const within = (seconds: number, [low, high]: readonly [number, number]) => seconds >= low && seconds <= high;

function toAnalytics(record: PlayingEventRecord, playedSeconds: number): AnalyticsRecord {
  const out: AnalyticsRecord = {
    roomSlug: record.roomSlug,
    roomOwnerUuid: record.roomOwnerUuid,
    djUuid: record.djUuid,
    songInfo: record.songInfo,
    playId: record.playId,
    userUuid: record.userUuid,
    userProvider: record.userProvider,
    startedDate: new Date(record.startedDate).toISOString(),
    updatedDate: new Date(record.updatedDate).toISOString(),
    volumeStart: record.volumeStart,
    volumeEnd: record.volumeEnd,
    playedSeconds: Math.round(playedSeconds * 1000) / 1000,
  };
  if (record.subscriptionLevel) out["subscriptionLevel"] = record.subscriptionLevel;
  return out;
}

export function createPlayTracker({ analytics, userUuid, now = Date.now }: PlayTrackerOptions): PlayTracker {
  let record: PlayingEventRecord | null = null;

  const played = (r: PlayingEventRecord) => Math.max(0, (r.updatedDate - r.startedDate) / 1000);
  const matches = (at: { roomSlug: string; playId: string }) =>
    record !== null && record.roomSlug === at.roomSlug && record.playId === at.playId;

  const sendTotal = () => {
    if (!record) return;
    const seconds = played(record);
    if (seconds > 0) analytics.track(TOTAL_PLAYED_TOPIC, toAnalytics(record, seconds));
    record = null;
  };

  return {
    start(play, volume) {
      sendTotal();
      const user = userUuid();
      if (!user) return;
      const at = now();
      record = {
        ...play,
        songInfo: JSON.stringify(play.songInfo),
        userUuid: user,
        startedDate: at,
        updatedDate: at,
        volumeStart: volume,
        volumeEnd: volume,
        sent15: false,
        sent30: false,
      };
    },
    progress(at, volume) {
      if (!record || !matches(at)) return;
      record = { ...record, updatedDate: now(), volumeEnd: volume };
      const seconds = played(record);
      if (!record.sent15 && within(seconds, FIFTEEN_SECOND_WINDOW)) {
        record = { ...record, sent15: true };
        analytics.track(FIFTEEN_SECONDS_TOPIC, toAnalytics(record, seconds));
      }
      if (!record.sent30 && within(seconds, THIRTY_SECOND_WINDOW)) {
        record = { ...record, sent30: true };
        analytics.track(THIRTY_SECONDS_TOPIC, toAnalytics(record, seconds));
      }
    },
    end(at) {
      if (!record || !matches(at)) return;
      record = { ...record, updatedDate: now() };
      sendTotal();
    },
    current: () => record,
  };
}
