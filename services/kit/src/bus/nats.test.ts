import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import type { Bus } from "./bus.ts";
import { deploymentNames } from "./deployment.ts";
import { removeDeploymentFromNats } from "../testing/nats-deployment.ts";
import { runBusContract } from "./bus.contract.ts";
import { createNatsBus } from "./nats.ts";

const url = inject("natsUrl");

runBusContract(
  "nats",
  async (logger) => createNatsBus({ url, name: "bus-contract", deployment: "bus-contract", logger }),
  {
    async cleanup(runId) {
      const nc = await connect({ servers: url });
      try {
        const jsm = await jetstreamManager(nc);
        for await (const name of jsm.streams.names()) {
          if (name.includes(runId)) await jsm.streams.delete(name);
        }
      } finally {
        await nc.close();
      }
    },
  },
);

it("delivers to a subscription from another connection as soon as subscribe resolved", async () => {
  const logger = pino({ level: "silent" });
  const [a, b] = await Promise.all([
    createNatsBus({ url, logger, deployment: "bus-test" }),
    createNatsBus({ url, logger, deployment: "bus-test" }),
  ]);
  try {
    const subject = `ct.cross.${Math.random().toString(36).slice(2)}`;
    const got = new Promise<string>((resolve) => {
      void a
        .subscribe(subject, (m) => resolve(new TextDecoder().decode(m.data)))
        .then(() => b.publish(subject, new TextEncoder().encode("hi")));
    });
    expect(await got).toBe("hi");
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

describe("two deployments on one NATS (issue 23)", () => {
  const logger = pino({ level: "silent" });
  const run = Math.random().toString(36).slice(2, 8);
  const names = [`iso-a-${run}`, `iso-b-${run}`] as const;
  let a: Bus;
  let b: Bus;
  beforeAll(async () => {
    [a, b] = await Promise.all([
      createNatsBus({ url, logger, deployment: names[0] }),
      createNatsBus({ url, logger, deployment: names[1] }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    for (const name of names) await removeDeploymentFromNats(url, name);
  });
  const enc = (s: string) => new TextEncoder().encode(s);
  const dec = (d: Uint8Array) => new TextDecoder().decode(d);

  it("share no subject: a subscriber hears its own deployment only, under the services' own subject", async () => {
    const heardByB: string[] = [];
    const heardByA: string[] = [];
    const subs = [
      await b.subscribe("tt.room.>", (m) => void heardByB.push(`${m.subject} ${dec(m.data)}`)),
      await a.subscribe("tt.room.>", (m) => void heardByA.push(`${m.subject} ${dec(m.data)}`)),
    ];
    await a.publish("tt.room.room.created", enc("from A"));
    // B's marker, sent after A's message: once A hears its own, and B hears its marker, A's would have arrived.
    await b.publish("tt.room.room.created", enc("from B"));
    await vi.waitFor(() => expect(heardByB).toContain("tt.room.room.created from B"));
    await vi.waitFor(() => expect(heardByA).toContain("tt.room.room.created from A"));
    expect(heardByB).toEqual(["tt.room.room.created from B"]);
    expect(heardByA).toEqual(["tt.room.room.created from A"]);
    await Promise.all(subs.map((s) => s.unsubscribe()));
  });

  it("share no stream or consumer: B's durable consumer of the same stream and name never sees A's events", async () => {
    await Promise.all([a, b].map((bus) => bus.ensureStream("TT_ISO", ["tt.iso.>"])));
    await a.publishDurable("tt.iso.thing.made", enc("A1"));
    await b.publishDurable("tt.iso.thing.made", enc("B1"));
    const seen: Record<"a" | "b", string[]> = { a: [], b: [] };
    const subs = await Promise.all(
      (["a", "b"] as const).map((k) =>
        (k === "a" ? a : b).consume("TT_ISO", "worker", async (m) => void seen[k].push(`${m.subject} ${dec(m.data)}`)),
      ),
    );
    await vi.waitFor(() => expect(seen.b).toContain("tt.iso.thing.made B1"));
    await vi.waitFor(() => expect(seen.a).toContain("tt.iso.thing.made A1"));
    expect(seen).toEqual({ a: ["tt.iso.thing.made A1"], b: ["tt.iso.thing.made B1"] });
    expect((await a.streamInfo("TT_ISO")).messages).toBe(1);
    await Promise.all(subs.map((s) => s.unsubscribe()));
    // What NATS itself holds: each deployment's own stream and consumer.
    const names = deploymentNames(`iso-b-${run}`);
    const nc = await connect({ servers: url });
    try {
      const jsm = await jetstreamManager(nc);
      expect((await jsm.streams.info(names.stream("TT_ISO"))).config.subjects).toEqual([`iso-b-${run}.tt.iso.>`]);
      expect((await jsm.consumers.info(names.stream("TT_ISO"), names.consumer("worker"))).num_ack_pending).toBe(0);
    } finally {
      await nc.close();
    }
  });

  it("share no key-value bucket: A's keys are absent from B's bucket of the same name", async () => {
    const [kvA, kvB] = await Promise.all([a.kv("social-stage"), b.kv("social-stage")]);
    await kvA.put("room-1", enc("A's stage"));
    await kvB.put("room-2", enc("B's stage"));
    expect(await kvB.keys()).toEqual(["room-2"]);
    expect(await kvB.get("room-1")).toBeNull();
    expect(dec((await kvA.get("room-1"))!.value)).toBe("A's stage");
  });

  it("refuses a name NATS cannot carry, before connecting", async () => {
    for (const deployment of ["", "Prod", "prod_eu", "a.b", "-x", "x".repeat(64)]) {
      await expect(createNatsBus({ url, deployment })).rejects.toThrow(/invalid deployment name/);
    }
  });
});
