// A deployment's own names on a shared NATS (issue 23). Services keep their logical names (`tt.user.>`, `TT_USER`,
// `social-stage`); the bus adapter hands NATS the deployment's names for them, so two deployments on one NATS
// (staging beside production, the test suite's platforms) never share a subject, stream, consumer or bucket.
//
//   subject  tt.user.created   →  <deployment>.tt.user.created
//   stream   TT_USER           →  <deployment>_TT_USER
//   consumer social-stage-x    →  <deployment>_social-stage-x
//   bucket   social-stage      →  <deployment>_social-stage   (JetStream's stream behind it: KV_<deployment>_social-stage)
//
// A deployment name is a DNS label (what a Helm release name is): it has no `_`, so the first `_` of a stream, consumer
// or bucket name ends it and no two deployments' names can collide.
import type { Bus, BusMessage, DurableMessage, KvBucket } from "./bus.ts";
import { validateSubject } from "./subject.ts";

/** The name `npm start` and the all-in-one use when DEPLOYMENT_NAME is not set. */
export const DEFAULT_DEPLOYMENT_NAME = "turntable";

/** A DNS label (what a Helm release name is): no `_`, `.`, wildcard or upper case. */
export const DEPLOYMENT_NAME_PATTERN = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Thrown for a deployment name NATS cannot carry in every name (or that could collide with another's). */
export class InvalidDeploymentNameError extends Error {
  constructor(readonly deployment: string) {
    super(
      `invalid deployment name ${JSON.stringify(deployment)}: use 1 to 63 lower-case letters, digits and '-', ` +
        `starting and ending with a letter or digit (a DNS label, like a Helm release name)`,
    );
    this.name = "InvalidDeploymentNameError";
  }
}

export function validateDeploymentName(deployment: string): string {
  if (!DEPLOYMENT_NAME_PATTERN.test(deployment)) throw new InvalidDeploymentNameError(deployment);
  return deployment;
}

/** The names NATS sees for a deployment's logical names. */
export interface DeploymentNames {
  readonly deployment: string;
  subject(subject: string): string;
  stream(name: string): string;
  consumer(durable: string): string;
  bucket(bucket: string): string;
  /** A subject NATS delivered, as the deployment's services name it (unchanged when not the deployment's). */
  local(subject: string): string;
}

export function deploymentNames(deployment: string): DeploymentNames {
  validateDeploymentName(deployment);
  const prefix = `${deployment}.`;
  const scoped = (name: string) => `${deployment}_${name}`;
  return {
    deployment,
    subject: (subject) => prefix + subject,
    stream: scoped,
    consumer: scoped,
    bucket: scoped,
    local: (subject) => (subject.startsWith(prefix) ? subject.slice(prefix.length) : subject),
  };
}

/**
 * `bus` with every name it hands on given the deployment's: the one place both adapters namespace, so the contract
 * suite covers it for both. Handlers see the logical subjects back.
 */
export function namespacedBus(bus: Bus, deployment: string): Bus {
  const n = deploymentNames(deployment);
  const back = <M extends BusMessage>(m: M): M => ({ ...m, subject: n.local(m.subject) });
  // Checked as the service wrote them, so a refusal names the service's subject.
  const exact = (subject: string) => n.subject(validateSubject(subject) && subject);
  const pattern = (subject: string) => n.subject(validateSubject(subject, { wildcards: true }) && subject);
  // Every method is async, so a refused name rejects as the adapters' own refusals do (never a synchronous throw).
  return {
    publish: async (subject, data, o) => bus.publish(exact(subject), data, o),
    subscribe: async (subject, handler, o) => bus.subscribe(pattern(subject), (m) => handler(back(m)), o),
    request: async (subject, data, o) => back(await bus.request(exact(subject), data, o)),
    reply: async (subject, handler, o) => bus.reply(pattern(subject), (m) => handler(back(m)), o),
    ensureStream: async (name, subjects, o) => bus.ensureStream(n.stream(name), subjects.map(pattern), o),
    streamInfo: async (name) => bus.streamInfo(n.stream(name)),
    publishDurable: async (subject, data, o) => bus.publishDurable(exact(subject), data, o),
    consume: async (stream, durable, handler, o = {}) =>
      bus.consume(n.stream(stream), n.consumer(durable), (m: DurableMessage) => handler(back(m)), {
        ...o,
        ...(o.filterSubject !== undefined ? { filterSubject: pattern(o.filterSubject) } : {}),
      }),
    kv: async (bucket, o): Promise<KvBucket> => bus.kv(n.bucket(bucket), o),
    healthy: () => bus.healthy(),
    close: () => bus.close(),
  };
}
