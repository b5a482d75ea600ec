// Test platforms and harnesses each run under a deployment name of their own on the run's NATS (issue 23), so
// what they leave there (streams, consumers, key-value buckets) would pile up run after run: this removes it.
import { randomBytes } from "node:crypto";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { deploymentNames } from "../bus/deployment.ts";

/** A deployment name no other platform or harness of any run has (`<prefix>-<random>`). */
export function uniqueDeploymentName(prefix = "test"): string {
  return deploymentNames(`${prefix}-${randomBytes(5).toString("hex")}`).deployment;
}

/** Deletes every stream (key-value buckets included) of `deployment` on the NATS at `url`. */
export async function removeDeploymentFromNats(url: string, deployment: string): Promise<void> {
  const names = deploymentNames(deployment);
  const nc = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    const ours = [names.stream(""), `KV_${names.bucket("")}`];
    const doomed: string[] = [];
    for await (const name of jsm.streams.names()) {
      if (ours.some((prefix) => name.startsWith(prefix))) doomed.push(name);
    }
    for (const name of doomed) await jsm.streams.delete(name);
  } finally {
    await nc.close();
  }
}
