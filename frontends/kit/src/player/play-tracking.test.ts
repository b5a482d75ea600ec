import { describe, expect, it } from "vitest";
import type { AnalyticsRecord } from "../analytics/topics.ts";
import { createPlayTracker, type TrackedPlay } from "./play-tracking.ts";

function setup(signedIn = true) {
  let clock = 1_000_000;
  const sent: { topic: string; record: AnalyticsRecord }[] = [];
  const tracker = createPlayTracker({
    analytics: { track: (topic, record = {}) => (sent.push({ topic, record }), true) },
    userUuid: () => (signedIn ? "listener-1" : undefined),
    now: () => clock,
  });
  const advance = (seconds: number) => (clock += seconds * 1000);
  return { tracker, sent, advance, topics: () => sent.map((event) => event.topic) };
}

const play = (playId = "play-1", roomSlug = "lounge"): TrackedPlay => ({
  roomSlug,
  roomOwnerUuid: "owner-1",
  djUuid: "dj-1",
  songInfo: { trackName: "Song", artistName: "Artist" },
  playId,
  userProvider: "uploadService",
  subscriptionLevel: "free",
});

const at = (playId = "play-1", roomSlug = "lounge") => ({ roomSlug, playId });

describe("play tracking (spec 002 §4, §9)", () => {
  it("begins a record on start with the §3 fields", () => {
    const { tracker } = setup();
    tracker.start(play(), 0.8);
    expect(tracker.current()).toMatchObject({
      roomSlug: "lounge",
      roomOwnerUuid: "owner-1",
      djUuid: "dj-1",
      playId: "play-1",
      userUuid: "listener-1",
      userProvider: "uploadService",
      subscriptionLevel: "free",
      volumeStart: 0.8,
      volumeEnd: 0.8,
      sent15: false,
      sent30: false,
    });
    expect(JSON.parse(tracker.current()!.songInfo)).toEqual({ trackName: "Song", artistName: "Artist" });
  });

  it("sends the 15-second event once within 10–20 s and the 30-second event once within 25–35 s", () => {
    const { tracker, advance, topics } = setup();
    tracker.start(play(), 1);
    for (let second = 1; second <= 40; second += 1) {
      advance(1);
      tracker.progress(at(), 1);
    }
    expect(topics()).toEqual(["15-seconds", "30-seconds"]);
  });

  it("sends neither when the continues jump past the windows", () => {
    const { tracker, advance, topics } = setup();
    tracker.start(play(), 1);
    advance(9);
    tracker.progress(at(), 1);
    advance(12); // 21 s: past the 15-second window
    tracker.progress(at(), 1);
    advance(15); // 36 s: past the 30-second window
    tracker.progress(at(), 1);
    expect(topics()).toEqual([]);
  });

  it("continue updates the end time and the volume; end sends the total and clears the record", () => {
    const { tracker, advance, sent } = setup();
    tracker.start(play(), 0.5);
    advance(5);
    tracker.progress(at(), 0.3);
    expect(tracker.current()).toMatchObject({ volumeEnd: 0.3, updatedDate: 1_005_000 });
    advance(2);
    tracker.end(at());
    expect(tracker.current()).toBeNull();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.topic).toBe("user-song-total-played");
    expect(sent[0]!.record).toMatchObject({ playedSeconds: 7, volumeStart: 0.5, volumeEnd: 0.3, playId: "play-1" });
  });

  it("start ends the previous record and sends its total before the new one begins", () => {
    const { tracker, advance, sent } = setup();
    tracker.start(play("play-1"), 1);
    advance(4);
    tracker.progress(at("play-1"), 1);
    tracker.start(play("play-2"), 1);
    expect(sent.map((event) => [event.topic, event.record["playId"]])).toEqual([["user-song-total-played", "play-1"]]);
    expect(tracker.current()?.playId).toBe("play-2");
  });

  it("does not send a total of zero", () => {
    const { tracker, sent } = setup();
    tracker.start(play("play-1"), 1);
    tracker.start(play("play-2"), 1);
    tracker.end(at("play-2"));
    expect(sent).toEqual([]);
  });

  it("ignores continue and end for another room or another song", () => {
    const { tracker, advance, sent } = setup();
    tracker.start(play(), 1);
    advance(12);
    tracker.progress(at("play-1", "other-room"), 0.1);
    tracker.progress(at("play-9"), 0.1);
    tracker.end(at("play-9"));
    tracker.end(at("play-1", "other-room"));
    expect(sent).toEqual([]);
    expect(tracker.current()).toMatchObject({ volumeEnd: 1, updatedDate: 1_000_000 });
  });

  it("tracks only signed-in listeners", () => {
    const { tracker, advance, sent } = setup(false);
    tracker.start(play(), 1);
    advance(15);
    tracker.progress(at(), 1);
    tracker.end(at());
    expect(tracker.current()).toBeNull();
    expect(sent).toEqual([]);
  });
});
