import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { runBusContract } from "./bus.contract.ts";
import { createMemoryBus } from "./memory.ts";

runBusContract("memory", async (logger) => createMemoryBus({ logger }));
// The same namespacing as the NATS adapter's (issue 23), so the contract holds for it in both.
runBusContract("memory, with a deployment name", async (logger) =>
  createMemoryBus({ logger, deployment: "bus-contract" }),
);

describe("memory bus", () => {
  it("never runs a handler inside publish", async () => {
    const bus = createMemoryBus();
    let ran = false;
    const delivered = new Promise<void>((resolve) => {
      void bus.subscribe("tt.x.y.z", () => {
        ran = true;
        resolve();
      });
    });
    const published = bus.publish("tt.x.y.z", new Uint8Array());
    expect(ran).toBe(false);
    await published;
    await delivered;
    expect(ran).toBe(true);
    await bus.close();
  });

  it("refuses a stream whose subjects overlap another stream", async () => {
    const bus = createMemoryBus();
    await bus.ensureStream("A", ["tt.room.>"]);
    await expect(bus.ensureStream("B", ["tt.*.song.played"])).rejects.toThrow(/overlaps stream A/);
    await bus.close();
  });

  it("discards the oldest stream messages beyond the cap, and consumers skip ahead", async () => {
    const bus = createMemoryBus({ maxMessagesPerStream: 2, logger: pino({ level: "silent" }) });
    await bus.ensureStream("S", ["tt.s.>"]);
    for (const s of ["1", "2", "3"]) await bus.publishDurable("tt.s.e", new TextEncoder().encode(s));
    const seqs: number[] = [];
    const done = new Promise<void>((resolve) => {
      void bus.consume("S", "c", async (m) => {
        seqs.push(m.seq);
        if (seqs.length === 2) resolve();
      });
    });
    await done;
    expect(seqs).toEqual([2, 3]);
    await bus.close();
  });
});
