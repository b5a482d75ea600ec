import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { pino } from "pino";
import { expect, inject, it } from "vitest";
import { runBusContract } from "./bus.contract.ts";
import { createNatsBus } from "./nats.ts";

const url = inject("natsUrl");

runBusContract("nats", () => createNatsBus({ url, name: "bus-contract", logger: pino({ level: "silent" }) }), {
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
});

it("delivers to a subscription from another connection as soon as subscribe resolved", async () => {
  const logger = pino({ level: "silent" });
  const [a, b] = await Promise.all([createNatsBus({ url, logger }), createNatsBus({ url, logger })]);
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
