import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { pino } from "pino";
import { inject } from "vitest";
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
