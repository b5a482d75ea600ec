import { afterEach, describe, expect, it, vi } from "vitest";
import { bestOffset, clockSample, createClockSync, startDriftCorrection } from "./clock.ts";
import { elapsedPosition } from "./drift.ts";

describe("clock sync (NTP-style offset)", () => {
  afterEach(() => vi.useRealTimers());

  it("puts the server's stamp half-way through the round trip", () => {
    // Local clock 1000 ms ahead; 40 ms each way.
    expect(clockSample(11_000, 10_040, 11_080)).toEqual({ offsetMs: 1000, rttMs: 80 });
  });

  it("takes the server's own time out of the round trip when it says when the call arrived and left", () => {
    // 30 ms each way, 20 ms inside the server; local clock 1000 ms ahead.
    expect(clockSample(11_000, { receiveMs: 10_030, sendMs: 10_050 }, 11_080)).toEqual({ offsetMs: 1000, rttMs: 60 });
  });

  it("keeps the samples with the lowest round trips and takes their median offset", () => {
    const samples = [
      { offsetMs: 1000, rttMs: 20 },
      { offsetMs: 1004, rttMs: 22 },
      { offsetMs: 998, rttMs: 21 },
      // Slow answers, whose time was spent somewhere unknown: their offsets are off.
      { offsetMs: 1400, rttMs: 900 },
      { offsetMs: 600, rttMs: 800 },
    ];
    expect(bestOffset(samples, 3)).toBe(1000);
    expect(bestOffset([], 3)).toBe(0);
    expect(
      bestOffset(
        [
          { offsetMs: 10, rttMs: 1 },
          { offsetMs: 20, rttMs: 2 },
        ],
        3,
      ),
    ).toBe(15);
  });

  it("syncs against the server's clock call despite one slow answer", async () => {
    // Server clock = local − 5000; each call takes 10 ms except the third, which takes 700 ms and is stamped early.
    let local = 100_000;
    const delays = [10, 12, 700, 11, 10];
    let call = 0;
    const clock = createClockSync({
      now: () => local,
      samples: 5,
      keep: 3,
      serverTime: async () => {
        const delay = delays[call++]!;
        const stamp = local + (delay === 700 ? 50 : delay / 2) - 5000;
        local += delay;
        return stamp;
      },
    });
    expect(clock.offset()).toBe(0);
    await clock.sync();
    expect(clock.offset()).toBe(5000);
    expect(clock.serverNow()).toBe(local - 5000);
    expect(clock.bestRttMs()).toBe(10);
  });

  it("skips failed calls and keeps the previous offset when every call fails", async () => {
    const clock = createClockSync({ now: () => 0, samples: 3, serverTime: () => Promise.reject(new Error("down")) });
    clock.addSample(100, 50, 100);
    await clock.sync();
    expect(clock.offset()).toBe(50);
  });

  it("refreshes periodically once started, until stopped", async () => {
    vi.useFakeTimers();
    let calls = 0;
    const clock = createClockSync({
      now: () => 0,
      samples: 2,
      refreshMs: 10_000,
      warmupMs: [],
      serverTime: async () => (calls++, 0),
    });
    const heard = vi.fn();
    clock.subscribe(heard);
    clock.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toBe(4);
    expect(heard).toHaveBeenCalledTimes(2);
    clock.stop();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls).toBe(4);
  });

  it("re-syncs soon after start (the first round ran on a loading page), then every refreshMs", async () => {
    vi.useFakeTimers();
    let calls = 0;
    let local = 0;
    // The first round's answers come back 160 ms late (a busy page): alone they put the offset 80 ms off. The later,
    // fast rounds outweigh them in the pool.
    const clock = createClockSync({
      now: () => local,
      samples: 2,
      refreshMs: 60_000,
      serverTime: async () => {
        calls++;
        const stamp = local;
        if (calls <= 2) local += 160;
        return stamp;
      },
    });
    clock.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(2);
    expect(clock.offset()).toBe(80);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(calls).toBe(4);
    expect(clock.offset()).toBe(0);
    await vi.advanceTimersByTimeAsync(8_000);
    expect(calls).toBe(6);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(calls).toBe(6);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(8);
    clock.stop();
  });

  it("drops samples older than maxSampleAgeMs (the clock may have moved since)", async () => {
    let local = 0;
    let serverAhead = 0;
    const clock = createClockSync({
      now: () => local,
      samples: 1,
      keep: 3,
      maxSampleAgeMs: 1_000,
      serverTime: async () => local + serverAhead,
    });
    await clock.sync();
    expect(clock.offset()).toBe(0);
    // The local clock steps back 5 s (or the laptop slept): the old sample ages out, the new offset alone counts.
    local += 2_000;
    serverAhead = 5_000;
    await clock.sync();
    expect(clock.offset()).toBe(-5_000);
  });

  it("gives elapsedPosition the listener's offset: the room's position whatever the local clock says", () => {
    // Song of 180 s ending at server time 1_000_000; the listener's clock is 3 s ahead.
    const clock = createClockSync({ now: () => 943_000, serverTime: async () => 0 });
    clock.addSample(943_000, 940_000, 943_000);
    expect(elapsedPosition(180, 1_000_000, 943_000, clock.offset())).toBe(120);
  });
});

describe("drift correction loop", () => {
  afterEach(() => vi.useRealTimers());

  it("brings the player to the room's position every interval while something plays", () => {
    vi.useFakeTimers();
    const seekTo = vi.fn();
    const room: { position?: number } = {};
    const stop = startDriftCorrection({ seekTo, position: () => room.position, intervalMs: 500 });
    vi.advanceTimersByTime(500);
    expect(seekTo).not.toHaveBeenCalled();
    room.position = 12.5;
    vi.advanceTimersByTime(500);
    expect(seekTo).toHaveBeenCalledWith(12.5);
    stop();
    vi.advanceTimersByTime(5000);
    expect(seekTo).toHaveBeenCalledTimes(1);
  });
});
