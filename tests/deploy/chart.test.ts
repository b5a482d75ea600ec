// Offline checks of the Helm chart: lint, render, validate every object against the Kubernetes schemas and
// assert the platform's deployment rules (hardening, probes, labels, pinned images, one Deployment per service
// package, secrets kept out of ConfigMaps, network policies, strict values). No cluster is needed.
import { spawnSync } from "node:child_process";
import { createPrivateKey } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse, parseAllDocuments, stringify } from "yaml";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler";
import { Job } from "kubernetes-models/batch/v1/Job";
import { Ingress } from "kubernetes-models/networking.k8s.io/v1/Ingress";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { PersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import { Pod } from "kubernetes-models/v1/Pod";
import type { IPodSpec } from "kubernetes-models/v1/PodSpec";
import { Secret } from "kubernetes-models/v1/Secret";
import { Service } from "kubernetes-models/v1/Service";
import { resolveEnv, type K8sObject } from "@tt/platform/render-env";
import { serviceCatalog } from "@tt/gateway/catalog";
import { nonServicePackages, serviceNames, serviceWorkers } from "@tt/platform";
import { AGORA_SOURCES, contentSecurityPolicy, type PlayerName } from "@tt/web-server";
import { loadPaymentConfig } from "@tt/payment-service";

const root = path.resolve(import.meta.dirname, "../..");
const helmBin = path.join(root, ".tools/bin/helm");
const chart = path.join(root, "deploy/helm/turntable");
const productionValues = path.join(root, "deploy/values-production.yaml");
const stack = path.join(root, "deploy/helm/turntable-stack");
const release = "tt";

// Every kind the chart renders must be listed here, so a new kind cannot slip past schema validation.
const models: Record<string, new (data: never) => { validate(): void }> = {
  "apps/v1/Deployment": Deployment,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "batch/v1/Job": Job,
  "networking.k8s.io/v1/Ingress": Ingress,
  "networking.k8s.io/v1/NetworkPolicy": NetworkPolicy,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "v1/ConfigMap": ConfigMap,
  "v1/PersistentVolumeClaim": PersistentVolumeClaim,
  "v1/Pod": Pod,
  "v1/Secret": Secret,
  "v1/Service": Service,
};

/** helm's answers by their arguments: the chart does not change during the file, and many tests render its defaults. */
const helmAnswers = new Map<string, { status: number | null; stdout: string; stderr: string }>();

function helm(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const key = JSON.stringify(args);
  let answer = helmAnswers.get(key);
  if (!answer) {
    const result = spawnSync(helmBin, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    answer = { status: result.status, stdout: result.stdout, stderr: result.stderr };
    helmAnswers.set(key, answer);
  }
  return answer;
}

function render(args: string[] = []): K8sObject[] {
  const { status, stdout, stderr } = helm(["template", release, chart, "--namespace", "music", ...args]);
  expect(stderr).toBe("");
  expect(status).toBe(0);
  return parseAllDocuments(stdout)
    .map((doc) => {
      expect(doc.errors).toEqual([]);
      return doc.toJS() as K8sObject | null;
    })
    .filter((doc): doc is K8sObject => doc !== null);
}

const ofKind = <T>(docs: K8sObject[], kind: string) => docs.filter((d) => d.kind === kind) as unknown as T[];
const named = (docs: K8sObject[], kind: string, name: string) =>
  docs.find((d) => d.kind === kind && d.metadata.name === name);
const configData = (docs: K8sObject[], name: string) =>
  ((named(docs, "ConfigMap", name) as unknown as ConfigMap | undefined)?.data ?? {}) as Record<string, string>;

/** Every pod spec in the output with where it came from: Deployment and Job templates and bare Pods. */
function podSpecs(docs: K8sObject[]): { owner: string; labels: Record<string, string>; spec: IPodSpec }[] {
  return docs.flatMap((doc) => {
    const owner = `${doc.kind}/${doc.metadata.name}`;
    if (doc.kind === "Deployment" || doc.kind === "Job") {
      const template = (doc as unknown as Deployment).spec!.template;
      return [{ owner, labels: template.metadata?.labels ?? {}, spec: template.spec! }];
    }
    if (doc.kind === "Pod") return [{ owner, labels: doc.metadata.labels ?? {}, spec: (doc as unknown as Pod).spec! }];
    return [];
  });
}

/** Backend service packages: every folder under services/ with a package.json, except the libraries and runners. */
const servicePackages = readdirSync(path.join(root, "services"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(root, "services", entry.name, "package.json")))
  .map((entry) => entry.name)
  .filter((name) => !nonServicePackages.includes(name));

/** The resident DJ on (issue 26), its owner's account from values (a Secret the chart renders). */
const residentDjArgs = [
  "--set",
  "residentDj.enabled=true",
  "--set",
  "residentDj.owner.email=dj-owner@example.org",
  "--set",
  "residentDj.owner.password=OWNER-SENTINEL-PW",
];

const scenarios = [
  { name: "default values", args: [] as string[] },
  { name: "production values", args: ["-f", productionValues] },
  // Every rule of the chart (schemas, labels, hardening, probes, pinned images) covers the resident DJ's objects too.
  { name: "the resident DJ on", args: residentDjArgs },
  { name: "production values and the resident DJ on", args: ["-f", productionValues, ...residentDjArgs] },
];

beforeAll(() => {
  if (existsSync(helmBin)) return;
  const install = spawnSync("bash", [path.join(root, "deploy/scripts/install-helm.sh")], { encoding: "utf8" });
  expect(install.stderr + install.stdout).not.toMatch(/ERR!/);
  expect(install.status).toBe(0);
}, 300_000);

describe.each(scenarios)("chart with $name", ({ args }) => {
  let docs: K8sObject[];
  beforeAll(() => {
    docs = render(args);
  });

  it("passes helm lint --strict", () => {
    const { status, stdout } = helm(["lint", "--strict", chart, ...args]);
    expect(stdout).toContain("0 chart(s) failed");
    expect(status).toBe(0);
  });

  it("renders only objects that validate against the Kubernetes schemas", () => {
    expect(docs.length).toBeGreaterThan(20);
    for (const doc of docs) {
      const Model = models[`${doc.apiVersion}/${doc.kind}`];
      expect(Model, `no model for ${doc.apiVersion} ${doc.kind}`).toBeDefined();
      expect(() => new Model!(doc as never).validate(), `${doc.kind}/${doc.metadata.name}`).not.toThrow();
    }
  });

  it("puts the standard labels on every object and pod template", () => {
    const expected = {
      "app.kubernetes.io/name": "turntable",
      "app.kubernetes.io/instance": release,
      "app.kubernetes.io/managed-by": "Helm",
      "app.kubernetes.io/part-of": "turntable",
    };
    for (const doc of docs) {
      expect(doc.metadata.labels, `${doc.kind}/${doc.metadata.name}`).toMatchObject(expected);
      expect(doc.metadata.labels?.["helm.sh/chart"]).toMatch(/^turntable-\d+\.\d+\.\d+/);
    }
    for (const pod of podSpecs(docs)) expect(pod.labels, pod.owner).toMatchObject(expected);
  });

  it("hardens every pod and container", () => {
    const pods = podSpecs(docs);
    expect(pods.length).toBeGreaterThan(5);
    for (const { owner, spec } of pods) {
      expect(spec.automountServiceAccountToken, owner).toBe(false);
      expect(spec.securityContext, owner).toMatchObject({
        runAsNonRoot: true,
        seccompProfile: { type: "RuntimeDefault" },
      });
      expect(spec.securityContext?.runAsUser, owner).toBeGreaterThan(0);
      const tmp = spec.volumes?.find((v) => v.name === "tmp");
      expect(tmp?.emptyDir, `${owner} /tmp emptyDir`).toBeDefined();
      for (const container of [...(spec.initContainers ?? []), ...spec.containers]) {
        const where = `${owner} ${container.name}`;
        expect(container.securityContext, where).toMatchObject({
          runAsNonRoot: true,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          seccompProfile: { type: "RuntimeDefault" },
        });
        expect(container.securityContext?.capabilities?.drop, where).toContain("ALL");
        expect(container.securityContext?.capabilities?.add ?? [], where).toEqual([]);
        expect(container.volumeMounts?.find((m) => m.mountPath === "/tmp")?.name, where).toBe("tmp");
        expect(container.resources?.requests, where).toBeDefined();
        expect(container.resources?.limits?.memory, where).toBeDefined();
      }
    }
  });

  it("gives every Deployment container liveness and readiness probes and a config checksum", () => {
    const deployments = ofKind<Deployment>(docs, "Deployment");
    for (const deployment of deployments) {
      const template = deployment.spec!.template;
      expect(template.metadata?.annotations?.["checksum/config"], deployment.metadata!.name).toMatch(/^[0-9a-f]{64}$/);
      for (const container of template.spec!.containers) {
        expect(container.livenessProbe?.httpGet?.path, deployment.metadata!.name).toBeDefined();
        expect(container.readinessProbe?.httpGet?.path, deployment.metadata!.name).toBeDefined();
      }
    }
    const backends = deployments.filter((d) => d.metadata!.labels?.["turntable.fm/tier"] !== "web");
    for (const deployment of backends) {
      const container = deployment.spec!.template.spec!.containers[0]!;
      expect(container.livenessProbe?.httpGet?.path).toBe("/healthz");
      expect(container.readinessProbe?.httpGet?.path).toBe("/readyz");
    }
  });

  it("pins every image to a version tag", () => {
    for (const { owner, spec } of podSpecs(docs)) {
      for (const container of spec.containers) {
        const image = container.image ?? "";
        const tag = image.includes("@") ? "digest" : image.slice(image.lastIndexOf(":") + 1);
        expect(image.lastIndexOf(":"), `${owner}: ${image}`).toBeGreaterThan(image.lastIndexOf("/"));
        expect(tag, `${owner}: ${image}`).not.toBe("");
        expect(tag, `${owner}: ${image}`).not.toBe("latest");
      }
    }
  });

  it("has a Deployment, Service, NetworkPolicy and migration Job for every service package and the gateway", () => {
    expect(servicePackages).toContain("user");
    for (const name of [...servicePackages, "gateway"]) {
      const fullName = `${release}-turntable-${name}`;
      const deployment = named(docs, "Deployment", fullName) as unknown as Deployment | undefined;
      expect(deployment, `Deployment ${fullName}: add services.${name} to values.yaml`).toBeDefined();
      const env = deployment!.spec!.template.spec!.containers[0]!.envFrom ?? [];
      expect(env.map((e) => e.configMapRef?.name)).toContain(fullName);
      expect(configData(docs, fullName).SERVICE).toBe(name);
      expect(named(docs, "Service", fullName), `Service ${fullName}`).toBeDefined();
      const policy = named(docs, "NetworkPolicy", fullName) as unknown as NetworkPolicy | undefined;
      expect(policy?.spec?.podSelector?.matchLabels?.["app.kubernetes.io/component"], `NetworkPolicy ${fullName}`).toBe(
        name,
      );
      expect(policy?.spec?.policyTypes).toEqual(["Ingress", "Egress"]);
      if (name !== "gateway") {
        const job = named(docs, "Job", `${fullName}-migrate`) as unknown as Job | undefined;
        expect(job?.metadata?.annotations?.["helm.sh/hook"], `Job ${fullName}-migrate`).toBe("pre-install,pre-upgrade");
        const jobEnv = job!.spec!.template.spec!.containers[0]!.env ?? [];
        expect(jobEnv).toContainEqual({ name: "MIGRATE_ONLY", value: "true" });
        expect(jobEnv).toContainEqual({ name: "SERVICE", value: name });
      }
    }
  });

  it("issue 12: runs each worker of the catalogue as a Deployment of its own: the service's program in its role, no Service", () => {
    expect(serviceWorkers.map((w) => w.name)).toContain("upload-worker");
    const ingressBackends = ofKind<Ingress>(docs, "Ingress").flatMap((ingress) =>
      ingress.spec!.rules!.flatMap((rule) => rule.http!.paths.map((entry) => entry.backend.service?.name)),
    );
    for (const { name, service, role } of serviceWorkers) {
      const fullName = `${release}-turntable-${name}`;
      const serviceName = `${release}-turntable-${service}`;
      const roleKey = `${service.toUpperCase().replace(/-/g, "_")}_ROLE`;
      const deployment = named(docs, "Deployment", fullName) as unknown as Deployment | undefined;
      expect(
        deployment,
        `Deployment ${fullName}: add services.${service}.workers.${role} to values.yaml`,
      ).toBeDefined();
      expect(deployment!.metadata!.labels).toMatchObject({
        "app.kubernetes.io/component": name,
        "turntable.fm/tier": "worker",
      });
      const pod = deployment!.spec!.template.spec!;
      const container = pod.containers[0]!;
      const api = (named(docs, "Deployment", serviceName) as unknown as Deployment).spec!.template.spec!;
      expect(container.image, "the service's image").toBe(api.containers[0]!.image);

      const { env, missing } = resolveEnv(docs, fullName);
      expect(env).toMatchObject({ SERVICE: service, [roleKey]: role });
      expect(resolveEnv(docs, serviceName).env[roleKey], "the Deployment behind the Service only serves").toBe("api");
      // What the service's own pods get from Secrets, the worker gets from the same Secrets, never a ConfigMap.
      const fromSecrets = (spec: IPodSpec) =>
        (spec.containers[0]!.env ?? []).map((e) => [e.name, e.value, e.valueFrom?.secretKeyRef?.name] as const);
      expect(fromSecrets(pod)).toEqual(fromSecrets(api));
      for (const [variable, value, secret] of fromSecrets(pod)) {
        expect(value, variable).toBeUndefined();
        expect(secret, variable).toBeDefined();
      }
      expect(missing).toEqual(resolveEnv(docs, serviceName).missing);
      expect(env.SERVICE_TOKEN_PRIVATE_KEY ?? missing.join()).toBeTruthy();

      // Nothing calls a worker: no Service, no Ingress route, no public port in its NetworkPolicy, no migration
      // Job (its service's Job migrates the schema).
      expect(named(docs, "Service", fullName)).toBeUndefined();
      expect(ingressBackends).not.toContain(fullName);
      expect(named(docs, "Job", `${fullName}-migrate`)).toBeUndefined();
      const policy = named(docs, "NetworkPolicy", fullName) as unknown as NetworkPolicy;
      expect(policy.spec!.podSelector!.matchLabels!["app.kubernetes.io/component"]).toBe(name);
      const opened = (policy.spec!.ingress ?? []).flatMap((rule) => (rule.ports ?? []).map((p) => p.port));
      expect(opened.filter((port) => port !== 9464)).toEqual([]);
      const egress = (policy.spec!.egress ?? []).flatMap((rule) => rule.ports?.map((p) => p.port) ?? []);
      expect(egress).toEqual(expect.arrayContaining([53, 5432, 4222]));

      // Its own pods: probes, replicas or an autoscaler, and a disruption budget of its own.
      expect(container.readinessProbe?.httpGet?.path).toBe("/readyz");
      expect(container.livenessProbe?.httpGet?.path).toBe("/healthz");
      // Sized in its own values entry: a core per packaging (upload), half a core per delivering pod (room).
      expect(container.resources?.requests?.cpu).toBe(
        ({ "upload-worker": "1000m", "room-notify": "500m" } as Record<string, string>)[name],
      );
      const hpa = named(docs, "HorizontalPodAutoscaler", fullName) as unknown as HorizontalPodAutoscaler | undefined;
      if (hpa) expect(hpa.spec!.scaleTargetRef.name).toBe(fullName);
      else expect(deployment!.spec!.replicas).toBe(2);
      expect(named(docs, "PodDisruptionBudget", fullName)).toBeDefined();
    }
  });

  it("lets services accept traffic only from the gateway and each other", () => {
    for (const name of servicePackages) {
      const policy = named(docs, "NetworkPolicy", `${release}-turntable-${name}`) as unknown as NetworkPolicy;
      const [fromReleasePods, ...rest] = policy.spec!.ingress ?? [];
      const tiers = fromReleasePods!.from!.map((peer) => peer.podSelector?.matchLabels?.["turntable.fm/tier"]);
      // A service's workers run its program and may call the others as it does.
      expect(tiers).toEqual(["gateway", "service", "worker"]);
      for (const peer of fromReleasePods!.from!) {
        expect(peer.podSelector?.matchLabels?.["app.kubernetes.io/instance"]).toBe(release);
        expect(peer.namespaceSelector).toBeUndefined();
      }
      // Any further rule is the explicit metrics scraper allowance, which always names its peers.
      for (const rule of rest) expect(rule.from?.length).toBeGreaterThan(0);
      const egressPorts = (policy.spec!.egress ?? []).flatMap((rule) => rule.ports?.map((p) => p.port) ?? []);
      expect(egressPorts).toEqual(expect.arrayContaining([53, 5432, 4222, 8080]));
    }
    const web = named(docs, "NetworkPolicy", `${release}-turntable-web`) as unknown as NetworkPolicy;
    expect(web.spec!.egress).toEqual([]);
  });

  it("routes the API and each service's Connect path to the gateway and the site to the frontends", () => {
    const [ingress] = ofKind<Ingress>(docs, "Ingress");
    const paths = ingress!.spec!.rules![0]!.http!.paths;
    const backendOf = (p: string) => paths.find((entry) => entry.path === p)?.backend.service?.name;
    expect(backendOf("/api")).toBe(`${release}-turntable-gateway`);
    // issue 10: every Connect service of the gateway's catalogue, the user package's several included.
    for (const service of Object.values(serviceCatalog).flat()) {
      expect(backendOf(`/${service.typeName}`), service.typeName).toBe(`${release}-turntable-gateway`);
    }
    expect(backendOf("/")).toBe(`${release}-turntable-web-shell`);
    expect(backendOf("/remotes/room")).toBe(`${release}-turntable-web-room`);
  });

  it("issue 9 defect 10: lets Prometheus scrape the metrics port only, which the Ingress never routes to", () => {
    const backends = ofKind<Deployment>(docs, "Deployment").filter(
      (d) => d.metadata!.labels?.["turntable.fm/tier"] !== "web",
    );
    expect(backends.length).toBeGreaterThanOrEqual(2);
    for (const deployment of backends) {
      const name = deployment.metadata!.name!;
      const template = deployment.spec!.template;
      const ports = template.spec!.containers[0]!.ports ?? [];
      expect(ports, name).toEqual([
        { name: "http", containerPort: 8080, protocol: "TCP" },
        { name: "metrics", containerPort: 9464, protocol: "TCP" },
      ]);
      expect(template.metadata?.annotations, name).toMatchObject({
        "prometheus.io/scrape": "true",
        "prometheus.io/port": "9464",
        "prometheus.io/path": "/metrics",
      });
      expect(resolveEnv(docs, name).env.METRICS_PORT, name).toBe("9464");
      // Workers and the resident DJ (tier bot) have no Service (nothing calls them); scrapers find them through the
      // pod annotations.
      if (!["worker", "bot"].includes(deployment.metadata!.labels?.["turntable.fm/tier"] ?? "")) {
        const service = named(docs, "Service", name) as unknown as Service;
        expect(service.spec!.ports!.find((p) => p.name === "metrics")).toMatchObject({
          port: 9464,
          targetPort: "metrics",
        });
      }

      // Whoever may reach the metrics port is named (metricsFrom), and no rule opens the public port to them.
      const policy = named(docs, "NetworkPolicy", name) as unknown as NetworkPolicy;
      for (const rule of policy.spec!.ingress ?? []) {
        const rulePorts = (rule.ports ?? []).map((p) => p.port);
        expect(rulePorts.length, `${name}: a rule without ports opens every port`).toBeGreaterThan(0);
        if (rulePorts.includes(9464)) {
          expect(rulePorts, name).toEqual([9464]);
          expect(rule.from?.length, name).toBeGreaterThan(0);
        }
      }
    }
    const [ingress] = ofKind<Ingress>(docs, "Ingress");
    for (const rule of ingress!.spec!.rules!) {
      for (const entry of rule.http!.paths) {
        const port = entry.backend.service?.port;
        expect(port, entry.path).toBeDefined();
        expect([port?.name, port?.number], entry.path).not.toContain("metrics");
        expect(port?.number, entry.path).not.toBe(9464);
        expect(port?.name ?? String(port?.number), entry.path).toMatch(/^(http|8080)$/);
      }
    }
  });

  it("issue 9 defect 8: gives every backend the server's limits against slow clients", () => {
    for (const name of [...servicePackages, "gateway"]) {
      expect(resolveEnv(docs, `${release}-turntable-${name}`).env, name).toMatchObject({
        HEADERS_TIMEOUT_MS: "15000",
        BODY_TIMEOUT_MS: "30000",
        IDLE_TIMEOUT_MS: "65000",
        MAX_CONNECTIONS: "10000",
        DATABASE_POOL_MAX: "10",
      });
    }
    expect(resolveEnv(docs, `${release}-turntable-user`).env.MAX_CONNECTIONS_PER_ADDRESS).toBe("256");
    // Behind the Ingress every connection comes from the controller: no per-address cap on the gateway.
    expect(resolveEnv(docs, `${release}-turntable-gateway`).env.MAX_CONNECTIONS_PER_ADDRESS).toBe("0");
  });

  it("tells the gateway it sits behind one trusted proxy, so per-address throttles see the client's address", () => {
    expect(resolveEnv(docs, `${release}-turntable-gateway`).env.TRUST_PROXY).toBe("true");
    for (const name of servicePackages)
      expect(resolveEnv(docs, `${release}-turntable-${name}`).env.TRUST_PROXY).toBeUndefined();
  });

  it("gives a helm test pod that calls the gateway's /readyz", () => {
    const test = ofKind<Pod>(docs, "Pod").find((p) => p.metadata?.annotations?.["helm.sh/hook"] === "test");
    const env = test?.spec?.containers[0]?.env ?? [];
    expect(env).toContainEqual({ name: "READYZ_URL", value: `http://${release}-turntable-gateway:8080/readyz` });
  });
});

describe("chart values", () => {
  it("keeps secret values out of ConfigMaps and out of literal env values", () => {
    const sentinels = {
      "database.url": "postgres://tt:DB-SENTINEL-PW@db:5432/tt",
      "nats.url": "nats://tt:NATS-SENTINEL-PW@nats:4222",
      "services.user.secretEnv.ADMIN_PASSWORD": "ADMIN-SENTINEL-PW",
      "services.user.secretEnv.JWT_PRIVATE_KEY": "KEY-SENTINEL",
      "gateway.secretEnv.SOME_TOKEN": "GATEWAY-SENTINEL",
    };
    const docs = render(Object.entries(sentinels).flatMap(([key, value]) => ["--set", `${key}=${value}`]));
    const secretText = JSON.stringify(docs.filter((d) => d.kind === "Secret"));
    const otherText = JSON.stringify(docs.filter((d) => d.kind !== "Secret"));
    for (const value of Object.values(sentinels)) {
      expect(secretText).toContain(value);
      expect(otherText).not.toContain(value);
    }
    // The user service still receives them, from Secrets.
    const { env, missing } = resolveEnv(docs, `${release}-turntable-user`);
    expect(missing).toEqual([]);
    expect(env).toMatchObject({ ADMIN_PASSWORD: "ADMIN-SENTINEL-PW", DATABASE_URL: sentinels["database.url"] });
  });

  it("resolves each process's environment from the rendered objects (what distributed mode reads)", () => {
    const docs = render();
    const user = resolveEnv(docs, `${release}-turntable-user`);
    expect(user.missing).toEqual([]);
    expect(user.env).toMatchObject({
      SERVICE: "user",
      PORT: "8080",
      LOG_LEVEL: "info",
      DATABASE_URL: "postgres://turntable@postgresql:5432/turntable",
      NATS_URL: "nats://nats:4222",
      USER_SERVICE_URL: `http://${release}-turntable-user:8080`,
    });
    const gateway = resolveEnv(docs, `${release}-turntable-gateway`);
    expect(gateway.env).toMatchObject({
      SERVICE: "gateway",
      USER_SERVICE_URL: `http://${release}-turntable-user:8080`,
      BODY_LIMIT_BYTES: "1048576",
      MAX_BODY_BYTES_IN_FLIGHT: "268435456",
      REMOTES_CONFIG: "/etc/turntable/remotes/remotes.json",
    });
    // Least privilege: the gateway stores nothing; it checks tokens with the user service's public keys only.
    expect(gateway.env.DATABASE_URL).toBeUndefined();
    expect(gateway.env.NATS_URL).toBeUndefined();
    const remotes = configData(docs, `${release}-turntable-remotes`);
    expect(JSON.parse(remotes["remotes.json"]!)).toContainEqual({
      name: "room",
      entry: "/remotes/room/mf-manifest.json",
    });
  });

  it("issue 10: gives every backend service, never the gateway, the service identity key from the chart's Secret", () => {
    const docs = render();
    const secret = named(docs, "Secret", `${release}-turntable-service-identity`) as unknown as Secret | undefined;
    const pem = secret?.stringData?.SERVICE_TOKEN_PRIVATE_KEY ?? "";
    expect(createPrivateKey(pem).asymmetricKeyType).toBe("ed25519");
    const backends = servicePackages.map((name) => `${release}-turntable-${name}`);
    for (const name of backends) expect(resolveEnv(docs, name).env.SERVICE_TOKEN_PRIVATE_KEY, name).toBe(pem);
    expect(resolveEnv(docs, `${release}-turntable-gateway`).env.SERVICE_TOKEN_PRIVATE_KEY).toBeUndefined();
    // The key is made at install; on upgrade the template reads it back from the cluster (lookup), which
    // `helm template` cannot show.
    const template = readFileSync(path.join(chart, "templates/service-identity.yaml"), "utf8");
    expect(template).toMatch(/lookup "v1" "Secret" \.Release\.Namespace \$name/);
  });

  it("issue 23: runs every backend Deployment (workers too), never the gateway, under the release name on NATS", () => {
    const nameOf = (docs: K8sObject[]) =>
      new Map(
        ofKind<Deployment>(docs, "Deployment")
          .filter((d) => resolveEnv(docs, d.metadata!.name!).env.NATS_URL !== undefined)
          .map((d) => [d.metadata!.name!, resolveEnv(docs, d.metadata!.name!).env.DEPLOYMENT_NAME]),
      );
    const names = nameOf(render());
    const backends = [...servicePackages, ...serviceWorkers.map((w) => w.name)].map((n) => `${release}-turntable-${n}`);
    expect([...names.keys()].sort()).toEqual(backends.sort());
    for (const [deployment, name] of names) expect(name, deployment).toBe(release);
    expect(resolveEnv(render(), `${release}-turntable-gateway`).env.DEPLOYMENT_NAME).toBeUndefined();
    // nats.deploymentName overrides it (a release renamed, or two releases' names kept apart on purpose).
    for (const name of nameOf(render(["--set", "nats.deploymentName=staging-2"])).values())
      expect(name).toBe("staging-2");
    // A name NATS cannot carry in every name (or that could run into another's) fails the render.
    const bad = helm(["template", "Tt_1", chart]);
    expect(bad.status).not.toBe(0);
    const badValue = helm(["template", release, chart, "--set", "nats.deploymentName=prod_eu"]);
    expect(badValue.status).not.toBe(0);
    expect(badValue.stderr).toContain("deploymentName");
  });

  it("issue 10: reads the service identity key from serviceIdentity.existingSecret instead of rendering one", () => {
    const docs = render([
      "--set",
      "serviceIdentity.existingSecret=our-keys",
      "--set",
      "serviceIdentity.existingSecretKey=service-key.pem",
    ]);
    expect(named(docs, "Secret", `${release}-turntable-service-identity`)).toBeUndefined();
    const deployment = named(docs, "Deployment", `${release}-turntable-user`) as unknown as Deployment;
    const variable = deployment.spec!.template.spec!.containers[0]!.env!.find(
      (e) => e.name === "SERVICE_TOKEN_PRIVATE_KEY",
    );
    expect(variable?.valueFrom?.secretKeyRef).toEqual({ name: "our-keys", key: "service-key.pem" });
  });

  it("reads Secrets named in production values instead of rendering credentials", () => {
    const docs = render(["-f", productionValues]);
    expect(docs.filter((d) => d.kind === "Secret")).toEqual([]);
    const { missing } = resolveEnv(docs, `${release}-turntable-user`);
    expect(missing).toEqual(expect.arrayContaining(["turntable-user", "turntable-database/DATABASE_URL"]));
    const remotes = configData(docs, `${release}-turntable-remotes`);
    expect(JSON.parse(remotes["remotes.json"]!)).toContainEqual({
      name: "room",
      entry: "https://music.example.org/remotes/room/mf-manifest.json",
    });
    const hpa = named(docs, "HorizontalPodAutoscaler", `${release}-turntable-user`);
    expect(hpa).toBeDefined();
    const deployment = named(docs, "Deployment", `${release}-turntable-user`) as unknown as Deployment;
    expect(deployment.spec!.replicas).toBeUndefined();
  });

  it("issue 23 finding 1: the payment service refuses the free development checkout under the chart unless env allows it loudly", () => {
    const payment = `${release}-turntable-payment`;
    // Default values: production mode, no provider named, so the development default is refused at start.
    const byDefault = resolveEnv(render(), payment).env;
    expect(byDefault.NODE_ENV).toBe("production");
    expect(() => loadPaymentConfig(byDefault)).toThrow(/PAYMENT_ALLOW_DEVELOPMENT_CHECKOUT_IN_PRODUCTION/);
    const allowed = resolveEnv(
      render(["--set-string", "services.payment.env.PAYMENT_ALLOW_DEVELOPMENT_CHECKOUT_IN_PRODUCTION=true"]),
      payment,
    ).env;
    expect(loadPaymentConfig(allowed)).toMatchObject({
      PAYMENT_PROVIDER: "development",
      PAYMENT_ALLOW_DEVELOPMENT_CHECKOUT_IN_PRODUCTION: true,
    });
    // The production example names Stripe and the Secret that holds its keys.
    const production = resolveEnv(render(["-f", productionValues]), payment);
    expect(production.env).toMatchObject({ NODE_ENV: "production", PAYMENT_PROVIDER: "stripe" });
    expect(production.missing).toContain("turntable-payment");
    const secrets = { STRIPE_SECRET_KEY: "sk_live_x", STRIPE_WEBHOOK_SECRET: "whsec_x" };
    expect(loadPaymentConfig({ ...production.env, ...secrets }).PAYMENT_PROVIDER).toBe("stripe");
  });

  it("issue 9 defects 8 and 10: sets the metrics port and the server's limits from values", () => {
    const docs = render([
      "--set",
      "metricsPort=9100",
      "--set",
      "config.headersTimeoutMs=5000",
      "--set",
      "config.maxConnectionsPerAddress=64",
      "--set",
      "config.databasePoolMax=4",
      "--set",
      "gateway.maxConnectionsPerAddress=null",
      "--set",
      "networkPolicy.metricsFrom[0].namespaceSelector.matchLabels.name=monitoring",
    ]);
    const user = `${release}-turntable-user`;
    expect(resolveEnv(docs, user).env).toMatchObject({
      METRICS_PORT: "9100",
      HEADERS_TIMEOUT_MS: "5000",
      MAX_CONNECTIONS_PER_ADDRESS: "64",
      DATABASE_POOL_MAX: "4",
    });
    // null: the gateway keeps the shared value.
    expect(resolveEnv(docs, `${release}-turntable-gateway`).env.MAX_CONNECTIONS_PER_ADDRESS).toBe("64");
    const deployment = named(docs, "Deployment", user) as unknown as Deployment;
    expect(deployment.spec!.template.spec!.containers[0]!.ports).toContainEqual({
      name: "metrics",
      containerPort: 9100,
      protocol: "TCP",
    });
    const policy = named(docs, "NetworkPolicy", user) as unknown as NetworkPolicy;
    const scrape = policy.spec!.ingress!.find((rule) => rule.ports?.some((p) => p.port === 9100));
    expect(scrape?.from).toEqual([{ namespaceSelector: { matchLabels: { name: "monitoring" } } }]);
    expect(scrape?.ports).toEqual([{ protocol: "TCP", port: 9100 }]);

    const same = helm(["template", release, chart, "--set", "metricsPort=8080"]);
    expect(same.status).not.toBe(0);
    expect(same.stderr).toContain("metricsPort must differ from port");
    const negative = helm(["template", release, chart, "--set", "config.maxConnections=-1"]);
    expect(negative.status).not.toBe(0);
    const noPool = helm(["template", release, chart, "--set", "config.databasePoolMax=2"]);
    expect(noPool.status).not.toBe(0);
  });

  it("issue 12: sizes a worker on its own, and without it the service packages in every replica again", () => {
    const worker = `${release}-turntable-upload-worker`;
    const upload = `${release}-turntable-upload`;
    const docs = render([
      "--set",
      "services.upload.workers.worker.replicaCount=5",
      "--set",
      "services.upload.workers.worker.resources.requests.cpu=2",
      "--set-string",
      "services.upload.workers.worker.env.UPLOAD_WORKER_CONCURRENCY=2",
      "--set-string",
      "services.upload.env.UPLOAD_PACKAGING_SHARDS=8",
      "--set",
      "services.upload.secretEnv.HLS_KEY_SIGNING_SECRET=KEY-SENTINEL-0123456789abcdef0123456789",
      "--set",
      "services.upload.existingSecret=upload-keys",
    ]);
    const deployment = named(docs, "Deployment", worker) as unknown as Deployment;
    expect(deployment.spec!.replicas).toBe(5);
    expect(deployment.spec!.template.spec!.containers[0]!.resources?.requests?.cpu).toBe(2);
    expect((named(docs, "Deployment", upload) as unknown as Deployment).spec!.replicas).toBe(2);
    const { env, missing } = resolveEnv(docs, worker);
    // The service's env and Secrets, its own env on top.
    expect(env).toMatchObject({
      UPLOAD_ROLE: "worker",
      UPLOAD_WORKER_CONCURRENCY: "2",
      UPLOAD_PACKAGING_SHARDS: "8",
      HLS_KEY_SIGNING_SECRET: "KEY-SENTINEL-0123456789abcdef0123456789",
    });
    expect(missing).toContain("upload-keys");
    expect(resolveEnv(docs, upload).env.UPLOAD_WORKER_CONCURRENCY).toBeUndefined();
    expect(named(docs, "Secret", worker), "the worker reads its service's Secret").toBeUndefined();
    expect(JSON.stringify(docs.filter((d) => d.kind !== "Secret"))).not.toContain("KEY-SENTINEL");

    const without = render(["--set", "services.upload.workers.worker.enabled=false"]);
    expect(named(without, "Deployment", worker)).toBeUndefined();
    expect(named(without, "NetworkPolicy", worker)).toBeUndefined();
    expect(resolveEnv(without, upload).env.UPLOAD_ROLE, "UPLOAD_ROLE=all by default").toBeUndefined();

    const twice = helm(["template", release, chart, "--set", "services.upload.env.UPLOAD_ROLE=all"]);
    expect(twice.status).not.toBe(0);
    expect(twice.stderr).toContain("services.upload: UPLOAD_ROLE is set by the chart");
    const unknownKey = helm(["template", release, chart, "--set", "services.upload.workers.worker.migrate=true"]);
    expect(unknownKey.status).not.toBe(0);
    expect(unknownKey.stderr).toContain("additional properties 'migrate' not allowed");
    const reserved = helm(["template", release, chart, "--set", "services.upload.workers.api.replicaCount=1"]);
    expect(reserved.status).not.toBe(0);
  });

  it("adds a service with one values entry", () => {
    const docs = render(["--set", "services.merch.replicaCount=1"]);
    const name = `${release}-turntable-merch`;
    for (const kind of ["Deployment", "Service", "NetworkPolicy", "PodDisruptionBudget", "ConfigMap"]) {
      expect(named(docs, kind, name), `${kind} ${name}`).toBeDefined();
    }
    expect(named(docs, "Job", `${name}-migrate`)).toBeDefined();
    expect(resolveEnv(docs, `${release}-turntable-gateway`).env.MERCH_SERVICE_URL).toBe(`http://${name}:8080`);
  });

  it("rejects unknown keys and floating image tags through the strict schema", () => {
    const unknown = helm(["template", release, chart, "--set", "services.user.bogus=1"]);
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toContain("additional properties 'bogus' not allowed");
    const topLevel = helm(["template", release, chart, "--set", "bogus=1"]);
    expect(topLevel.status).not.toBe(0);
    const latest = helm(["template", release, chart, "--set", "image.tag=latest"]);
    expect(latest.status).not.toBe(0);
    expect(latest.stderr).toContain("/image/tag");
    const override = helm(["template", release, chart, "--set", "services.user.image.tag=latest"]);
    expect(override.status).not.toBe(0);
  });
});

describe("issue 26: the resident DJ", () => {
  const dj = `${release}-turntable-resident-dj`;

  it("renders nothing of it by default", () => {
    const docs = render();
    expect(docs.filter((d) => d.metadata.name === dj)).toEqual([]);
  });

  it("runs one pod of the image as SERVICE=resident-dj against the gateway, the owner from the Secret", () => {
    const docs = render([...residentDjArgs, "--set", "residentDj.crate=Warm up", "--set", "residentDj.room=Main Hall"]);
    const deployment = named(docs, "Deployment", dj) as unknown as Deployment;
    expect(deployment.spec!.replicas).toBe(1);
    expect(deployment.spec!.strategy?.type).toBe("Recreate");
    expect(deployment.metadata!.labels?.["turntable.fm/tier"]).toBe("bot");
    const { env, missing } = resolveEnv(docs, dj);
    expect(missing).toEqual([]);
    expect(env).toMatchObject({
      SERVICE: "resident-dj",
      RESIDENT_DJ: "true",
      RESIDENT_DJ_URL: `http://${release}-turntable-gateway:8080`,
      RESIDENT_DJ_ROOM: "Main Hall",
      RESIDENT_DJ_NICKNAME: "Resident",
      RESIDENT_DJ_CRATE: "Warm up",
      RESIDENT_DJ_OWNER_EMAIL: "dj-owner@example.org",
      RESIDENT_DJ_OWNER_PASSWORD: "OWNER-SENTINEL-PW",
    });
    // The password is in the Secret only; the program the image runs for it exists.
    expect(JSON.stringify(docs.filter((d) => d.kind !== "Secret"))).not.toContain("OWNER-SENTINEL-PW");
    expect(existsSync(path.join(root, "services/resident-dj/src/main.ts"))).toBe(true);
    // Not a workload distributed mode starts from the chart (it starts the resident DJ itself).
    expect(named(docs, "Service", dj)).toBeUndefined();
  });

  it("reads the owner from an existing Secret instead of rendering one, and refuses to run without an owner", () => {
    const docs = render(["--set", "residentDj.enabled=true", "--set", "residentDj.existingSecret=turntable-dj"]);
    expect(named(docs, "Secret", dj)).toBeUndefined();
    expect(resolveEnv(docs, dj).missing).toEqual(
      expect.arrayContaining(["turntable-dj/RESIDENT_DJ_OWNER_EMAIL", "turntable-dj/RESIDENT_DJ_OWNER_PASSWORD"]),
    );
    const refused = helm(["template", release, chart, "--set", "residentDj.enabled=true"]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("residentDj: name existingSecret");
  });

  it("lets the bot reach the gateway only, and the gateway admit it behind a restricted ingress", () => {
    const docs = render(["-f", productionValues, ...residentDjArgs]);
    const policy = named(docs, "NetworkPolicy", dj) as unknown as NetworkPolicy;
    const egressPeers = (policy.spec!.egress ?? []).flatMap((rule) => rule.to ?? []);
    const tiers = egressPeers.map((peer) => peer.podSelector?.matchLabels?.["turntable.fm/tier"]).filter(Boolean);
    expect(tiers).toEqual(["gateway"]);
    expect((policy.spec!.ingress ?? []).flatMap((rule) => rule.ports?.map((p) => p.port) ?? [])).toEqual([9464]);
    const gateway = named(docs, "NetworkPolicy", `${release}-turntable-gateway`) as unknown as NetworkPolicy;
    const admitted = (gateway.spec!.ingress ?? [])
      .flatMap((rule) => rule.from ?? [])
      .map((peer) => peer.podSelector?.matchLabels?.["turntable.fm/tier"]);
    expect(admitted).toContain("bot");
  });

  it("refuses unknown keys and a nickname of more than one word", () => {
    for (const bad of ["residentDj.colour=red", "residentDj.nickname=Two Words"]) {
      const result = helm(["template", release, chart, ...residentDjArgs, "--set", bad]);
      expect(result.status, bad).not.toBe(0);
    }
  });
});

describe("media (profile images)", () => {
  const mediaDir = "/var/lib/turntable/media";
  const userName = `${release}-turntable-user`;
  const gatewayName = `${release}-turntable-gateway`;
  const s3Args = ["--set", "media.s3.bucket=images", "--set", "media.s3.existingSecret=media-keys"];

  const deployment = (docs: K8sObject[], name: string) => named(docs, "Deployment", name) as unknown as Deployment;
  const podOf = (docs: K8sObject[], name: string) => deployment(docs, name).spec!.template.spec!;
  const mediaMount = (docs: K8sObject[], name: string) =>
    podOf(docs, name).containers[0]!.volumeMounts?.find((m) => m.name === "media");
  const mediaVolume = (docs: K8sObject[], name: string) => podOf(docs, name).volumes?.find((v) => v.name === "media");
  const checksum = (docs: K8sObject[], name: string) =>
    deployment(docs, name).spec!.template.metadata!.annotations!["checksum/config"];
  const ingressBackend = (docs: K8sObject[], p: string) => {
    const [ingress] = ofKind<Ingress>(docs, "Ingress");
    return ingress!.spec!.rules![0]!.http!.paths.find((entry) => entry.path === p)?.backend.service?.name;
  };
  const mediaVariables = (env: Record<string, string>) => Object.keys(env).filter((key) => key.startsWith("MEDIA_"));
  const fails = (args: string[]) => {
    const result = helm(["template", release, chart, ...args]);
    expect(result.status).not.toBe(0);
    return result.stderr;
  };

  it("keeps images on a ReadWriteMany volume by default, written by the user service and served by the gateway", () => {
    const docs = render();
    const claim = named(
      docs,
      "PersistentVolumeClaim",
      `${release}-turntable-media`,
    ) as unknown as PersistentVolumeClaim;
    expect(claim.spec).toEqual({ accessModes: ["ReadWriteMany"], resources: { requests: { storage: "10Gi" } } });
    expect(claim.metadata?.annotations?.["helm.sh/resource-policy"]).toBe("keep");

    expect(mediaMount(docs, userName)).toEqual({ name: "media", mountPath: mediaDir, readOnly: false });
    expect(mediaMount(docs, gatewayName)).toEqual({ name: "media", mountPath: mediaDir, readOnly: true });
    expect(mediaVolume(docs, userName)?.persistentVolumeClaim).toEqual({
      claimName: claim.metadata!.name,
      readOnly: false,
    });
    expect(mediaVolume(docs, gatewayName)?.persistentVolumeClaim).toEqual({
      claimName: claim.metadata!.name,
      readOnly: true,
    });
    // The non-root user can write the volume: the kubelet gives it to the pod's group.
    expect(podOf(docs, userName).securityContext).toMatchObject({
      runAsUser: 1000,
      fsGroup: 1000,
      fsGroupChangePolicy: "OnRootMismatch",
    });

    const user = resolveEnv(docs, userName).env;
    const gateway = resolveEnv(docs, gatewayName).env;
    for (const env of [user, gateway]) {
      expect(env).toMatchObject({ MEDIA_DIR: mediaDir, MEDIA_BASE_URL: "/media" });
      expect(mediaVariables(env).sort()).toEqual(["MEDIA_BASE_URL", "MEDIA_DIR"]);
    }
    expect(ingressBackend(docs, "/media")).toBe(gatewayName);

    // Only the media service, the upload and room services (media.alsoServices: songs, room posters), the upload
    // worker (it writes the packaged songs) and the gateway mount it; the migration Job gets no media settings.
    expect(resolveEnv(docs, `${release}-turntable-upload`).env).toMatchObject({ MEDIA_DIR: mediaDir });
    expect(resolveEnv(docs, `${release}-turntable-upload-worker`).env).toMatchObject({ MEDIA_DIR: mediaDir });
    expect(mediaMount(docs, `${release}-turntable-upload-worker`)).toEqual({
      name: "media",
      mountPath: mediaDir,
      readOnly: false,
    });
    expect(resolveEnv(docs, `${release}-turntable-room`).env).toMatchObject({ MEDIA_DIR: mediaDir });
    for (const { owner, spec } of podSpecs(docs)) {
      if (
        owner === `Deployment/${userName}` ||
        owner === `Deployment/${gatewayName}` ||
        owner === `Deployment/${release}-turntable-upload` ||
        owner === `Deployment/${release}-turntable-upload-worker` ||
        owner === `Deployment/${release}-turntable-room` ||
        // A worker runs its service's program, with the same media settings.
        owner === `Deployment/${release}-turntable-room-notify`
      )
        continue;
      expect(
        spec.volumes?.find((v) => v.name === "media"),
        owner,
      ).toBeUndefined();
      const env = spec.containers.flatMap((c) => c.env ?? []).map((e) => e.name);
      expect(
        env.filter((name) => name.startsWith("MEDIA_")),
        owner,
      ).toEqual([]);
    }
  });

  it("stores images in S3 in production, credentials from the Secret, without a volume", () => {
    const docs = render(["-f", productionValues]);
    expect(ofKind(docs, "PersistentVolumeClaim")).toEqual([]);
    expect(mediaVolume(docs, userName)).toBeUndefined();
    expect(mediaVolume(docs, gatewayName)).toBeUndefined();

    const user = resolveEnv(docs, userName);
    expect(user.env).toMatchObject({
      MEDIA_S3_BUCKET: "turntable-media",
      MEDIA_BASE_URL: "https://media.music.example.org",
    });
    expect(user.env.MEDIA_DIR).toBeUndefined();
    expect(user.missing).toEqual(
      expect.arrayContaining(["turntable-media/MEDIA_S3_ACCESS_KEY_ID", "turntable-media/MEDIA_S3_SECRET_ACCESS_KEY"]),
    );
    const env = podOf(docs, userName).containers[0]!.env ?? [];
    for (const key of ["MEDIA_S3_ACCESS_KEY_ID", "MEDIA_S3_SECRET_ACCESS_KEY"]) {
      expect(env).toContainEqual({ name: key, valueFrom: { secretKeyRef: { name: "turntable-media", key } } });
    }
    // The service defaults apply when the endpoint and region are left empty.
    expect(user.env.MEDIA_S3_ENDPOINT).toBeUndefined();
    expect(user.env.MEDIA_S3_REGION).toBeUndefined();

    const gateway = resolveEnv(docs, gatewayName).env;
    expect(mediaVariables(gateway)).toEqual([]);
    expect(ingressBackend(docs, "/media")).toBeUndefined();
  });

  it("passes the S3 endpoint and region when they are set", () => {
    const docs = render([
      ...s3Args,
      "--set",
      "media.baseUrl=https://cdn.example.org/images",
      "--set",
      "media.s3.endpoint=http://minio:9000",
      "--set",
      "media.s3.region=eu-west-1",
    ]);
    expect(resolveEnv(docs, userName).env).toMatchObject({
      MEDIA_S3_BUCKET: "images",
      MEDIA_S3_ENDPOINT: "http://minio:9000",
      MEDIA_S3_REGION: "eu-west-1",
      MEDIA_BASE_URL: "https://cdn.example.org/images",
    });
  });

  it("refuses S3 without a credentials Secret or without a public URL", () => {
    expect(fails(["--set", "media.s3.bucket=images", "--set", "media.baseUrl=https://cdn.example.org"])).toContain(
      "media.s3.existingSecret is required when media.s3.bucket is set",
    );
    expect(fails(s3Args)).toContain("media.baseUrl must be the http(s):// URL images are served from");
    expect(fails([...s3Args, "--set", "media.baseUrl=/media"])).toContain(
      "media.baseUrl must be the http(s):// URL images are served from",
    );
  });

  it("refuses media variables in env, unknown media keys and an unknown media service", () => {
    expect(fails(["--set", "services.user.env.MEDIA_DIR=/data"])).toContain(
      "services.user: MEDIA_DIR is set by the chart from media.*",
    );
    expect(fails(["--set", "media.volume.bogus=1"])).toContain("additional properties 'bogus' not allowed");
    expect(fails(["--set", "media.service=nobody"])).toContain('media.service "nobody" is not an entry of services');
  });

  it("mounts an existing claim instead of creating one", () => {
    const docs = render(["--set", "media.volume.existingClaim=shared-images"]);
    expect(ofKind(docs, "PersistentVolumeClaim")).toEqual([]);
    expect(mediaVolume(docs, userName)?.persistentVolumeClaim?.claimName).toBe("shared-images");
    expect(mediaVolume(docs, gatewayName)?.persistentVolumeClaim?.claimName).toBe("shared-images");
  });

  it("creates the claim with the given class, size and access modes", () => {
    const docs = render([
      "--set",
      "media.volume.storageClassName=fast",
      "--set",
      "media.volume.size=50Gi",
      "--set",
      "media.volume.accessModes={ReadWriteOnce}",
    ]);
    const claim = named(
      docs,
      "PersistentVolumeClaim",
      `${release}-turntable-media`,
    ) as unknown as PersistentVolumeClaim;
    expect(claim.spec).toEqual({
      accessModes: ["ReadWriteOnce"],
      storageClassName: "fast",
      resources: { requests: { storage: "50Gi" } },
    });
  });

  it("routes a custom media path to the gateway and restarts pods when media settings change", () => {
    const before = render();
    const after = render(["--set", "media.baseUrl=/files"]);
    expect(ingressBackend(after, "/files")).toBe(gatewayName);
    expect(ingressBackend(after, "/media")).toBeUndefined();
    expect(resolveEnv(after, gatewayName).env.MEDIA_BASE_URL).toBe("/files");
    for (const name of [userName, gatewayName]) expect(checksum(after, name)).not.toBe(checksum(before, name));
    const s3 = render([...s3Args, "--set", "media.baseUrl=https://cdn.example.org"]);
    const s3Region = render([
      ...s3Args,
      "--set",
      "media.baseUrl=https://cdn.example.org",
      "--set",
      "media.s3.region=x",
    ]);
    expect(checksum(s3Region, userName)).not.toBe(checksum(s3, userName));
  });
});

describe("values.yaml", () => {
  it("issue 10: has one services.<name> entry per service of the platform's catalogue, and one per service package", () => {
    const values = parse(readFileSync(path.join(chart, "values.yaml"), "utf8")) as {
      services: Record<string, unknown>;
    };
    expect(Object.keys(values.services).sort(), "services.<name> in values.yaml").toEqual([...serviceNames].sort());
    // issue 12: each worker the catalogue declares is an entry of services.<name>.workers, and only those.
    const workers = Object.entries(values.services).flatMap(([service, entry]) =>
      Object.keys((entry as { workers?: object } | null)?.workers ?? {}).map((role) => `${service}-${role}`),
    );
    expect(workers.sort(), "services.<name>.workers.<role> in values.yaml").toEqual(
      serviceWorkers.map((w) => w.name).sort(),
    );
    expect([...servicePackages].sort(), "services/<name> packages").toEqual([...serviceNames].sort());
  });

  it("documents every key with a comment", () => {
    const lines = readFileSync(path.join(chart, "values.yaml"), "utf8").split("\n");
    // Kubernetes resource quantities are plain Kubernetes syntax, documented once by their `resources` key.
    const passthrough = new Set(["requests", "limits", "cpu", "memory"]);
    const undocumented: string[] = [];
    let previous = "";
    for (const [index, line] of lines.entries()) {
      const key = /^\s*([A-Za-z0-9_.-]+):/.exec(line)?.[1];
      if (key && !passthrough.has(key) && !previous.trimStart().startsWith("#")) {
        undocumented.push(`${index + 1}: ${line}`);
      }
      if (line.trim() !== "") previous = line;
    }
    expect(undocumented).toEqual([]);
  });
});

describe("turntable-stack umbrella chart", () => {
  const readYaml = (file: string) => parse(readFileSync(file, "utf8")) as Record<string, unknown>;

  it("declares the app chart from the repository and pinned NATS and PostgreSQL charts behind conditions", () => {
    const appChart = readYaml(path.join(chart, "Chart.yaml"));
    const dependencies = readYaml(path.join(stack, "Chart.yaml")).dependencies as {
      name: string;
      version: string;
      repository: string;
      condition?: string;
    }[];
    expect(dependencies.find((d) => d.name === "turntable")).toEqual({
      name: "turntable",
      version: appChart.version,
      repository: "file://../turntable",
    });
    for (const name of ["nats", "postgresql"]) {
      const dependency = dependencies.find((d) => d.name === name);
      expect(dependency?.condition).toBe(`${name}.enabled`);
      expect(dependency?.version).toMatch(/^\d+\.\d+\.\d+$/);
    }
  });

  it("passes the app chart values its strict schema accepts", () => {
    const appValues = readYaml(path.join(stack, "values.yaml")).turntable;
    const dir = mkdtempSync(path.join(tmpdir(), "tt-stack-"));
    try {
      const file = path.join(dir, "turntable.yaml");
      writeFileSync(file, stringify(appValues));
      const docs = render(["-f", file]);
      const { env, missing } = resolveEnv(docs, `${release}-turntable-user`);
      expect(env.NATS_URL).toBe("nats://turntable-nats:4222");
      expect(missing).toContain("turntable-database/DATABASE_URL");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("issue 9 defect 9: the web apps' security headers in the chart and the web image", () => {
  /** The add_header values of the nginx location `location` in `conf`. */
  const headersOf = (conf: string, location: string) => {
    const start = conf.indexOf(`location ${location} {`);
    expect(start, `location ${location}`).toBeGreaterThanOrEqual(0);
    const block = conf.slice(start, conf.indexOf("}", start));
    return Object.fromEntries(
      [...block.matchAll(/add_header (\S+) (?:"([^"]*)"|(\S+)) always;/g)].map((m) => [m[1], m[2] ?? m[3]]),
    );
  };
  const withPlayers = {
    name: "production values with players and extra sources",
    args: [
      "-f",
      productionValues,
      "--set",
      "frontends.contentSecurityPolicy.players={youtube,soundcloud,spotify}",
      "--set",
      "frontends.contentSecurityPolicy.extraSources.connect={https://api.example.org,wss://live.example.org}",
      "--set",
      "frontends.contentSecurityPolicy.extraSources.frame={https://embed.example.org}",
    ],
    options: {
      players: ["youtube", "soundcloud", "spotify"] as PlayerName[],
      extra: { connect: ["https://api.example.org", "wss://live.example.org"], frame: ["https://embed.example.org"] },
    },
  };

  it.each([...scenarios.map((s) => ({ ...s, options: {} })), withPlayers])(
    "the shell's nginx sends the policy the all-in-one server computes from the same configuration ($name)",
    ({ args, options }) => {
      const docs = render(args);
      const conf = configData(docs, `${release}-turntable-web-shell`)["default.conf"] ?? "";
      const remotes = JSON.parse(configData(docs, `${release}-turntable-remotes`)["remotes.json"] ?? "[]");
      const mediaBaseUrl = configData(docs, `${release}-turntable-user`)["MEDIA_BASE_URL"];
      const shell = headersOf(conf, "/");
      expect(shell["Content-Security-Policy"]).toBe(
        contentSecurityPolicy({ ...options, remotes, ...(mediaBaseUrl ? { mediaBaseUrl } : {}) }),
      );
      expect(shell).toMatchObject({
        "X-Frame-Options": "DENY",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "strict-origin-when-cross-origin",
        "Strict-Transport-Security": "$tt_hsts",
      });
      // HSTS only when the Ingress says the request came over TLS.
      expect(conf).toMatch(
        /map \$http_x_forwarded_proto \$tt_hsts \{\s+"~\*\^https\\s\*\(,\|\$\)" "max-age=31536000";/,
      );
      const room = headersOf(configData(docs, `${release}-turntable-web-room`)["default.conf"] ?? "", "/remotes/room/");
      expect(room).toMatchObject({ "X-Content-Type-Options": "nosniff", "Strict-Transport-Security": "$tt_hsts" });
      expect(room["Content-Security-Policy"]).toBeUndefined();
    },
  );

  it("refuses a source that would change the policy's meaning", () => {
    for (const bad of ["'unsafe-inline'", "https://x.example; script-src *", "*"]) {
      const { status, stderr } = helm([
        "template",
        release,
        chart,
        "--set-json",
        `frontends.contentSecurityPolicy.extraSources.script=${JSON.stringify([bad])}`,
      ]);
      expect(status, bad).not.toBe(0);
      expect(stderr).toMatch(/extraSources|script/);
    }
  });

  it("routes /remotes.json to the gateway that serves it, not to the shell's nginx", () => {
    const [ingress] = ofKind<Ingress>(render(["-f", productionValues]), "Ingress");
    const rule = ingress!.spec!.rules![0]!.http!.paths.find((entry) => entry.path === "/remotes.json");
    expect(rule?.pathType).toBe("Exact");
    expect(rule?.backend.service?.name).toBe(`${release}-turntable-gateway`);
  });

  it("the web image's own nginx.conf sends the default policy and the same headers", () => {
    const conf = readFileSync(path.join(root, "deploy/docker/nginx.conf"), "utf8");
    const shell = headersOf(conf, "/");
    expect(shell["Content-Security-Policy"]).toBe(contentSecurityPolicy());
    expect(shell).toMatchObject({
      "X-Frame-Options": "DENY",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
      "Strict-Transport-Security": "$tt_hsts",
    });
    const remotes = headersOf(conf, "~ ^/remotes/(?<app>[a-z0-9-]+)/(?<file>.*)$");
    expect(remotes).toMatchObject({ "X-Content-Type-Options": "nosniff", "Strict-Transport-Security": "$tt_hsts" });
    expect(conf).toContain('"~*^https\\s*(,|$)" "max-age=31536000";');
  });
});

describe("issue 14: the brand, the players and the Apple Music developer token reach the gateway's /remotes.json", () => {
  const appleArgs = [
    "--set",
    "frontends.brand=hangout",
    "--set",
    "frontends.contentSecurityPolicy.players={apple,youtube}",
    "--set",
    "frontends.appleMusic.teamId=TEAM123456",
    "--set",
    "frontends.appleMusic.keyId=KEY1234567",
    "--set",
    "frontends.appleMusic.existingSecret=apple-musickit",
    "--set",
    "frontends.appleMusic.tokenTtlSeconds=21600",
    "--set",
    "publicUrl=https://music.example.org/",
  ];

  it("gives the social service the site's origin for the chat's crate links, unless its env names them", () => {
    expect(resolveEnv(render(appleArgs), `${release}-turntable-social`).env.SOCIAL_WEB_ORIGINS).toBe(
      "https://music.example.org",
    );
    const own = render([...appleArgs, "--set", "services.social.env.SOCIAL_WEB_ORIGINS=https://a.example"]);
    expect(resolveEnv(own, `${release}-turntable-social`).env.SOCIAL_WEB_ORIGINS).toBe("https://a.example");
    expect(resolveEnv(render(), `${release}-turntable-social`).env.SOCIAL_WEB_ORIGINS).toBeUndefined();
  });

  it("gives the gateway WEB_BRAND, WEB_PLAYERS, the site's origin and the MusicKit key from the named Secret", () => {
    const docs = render(appleArgs);
    const { env, missing } = resolveEnv(docs, `${release}-turntable-gateway`);
    expect(env).toMatchObject({
      WEB_BRAND: "hangout",
      WEB_PLAYERS: "apple,youtube",
      WEB_PUBLIC_URL: "https://music.example.org",
      APPLE_MUSIC_TEAM_ID: "TEAM123456",
      APPLE_MUSIC_KEY_ID: "KEY1234567",
      APPLE_MUSIC_TOKEN_TTL_SECONDS: "21600",
    });
    // The key is a reference to the operator's Secret, never in a ConfigMap or a Secret the chart renders.
    expect(missing).toContain("apple-musickit/APPLE_MUSIC_PRIVATE_KEY");
    for (const service of servicePackagesOf(docs)) {
      expect(resolveEnv(docs, service).env.APPLE_MUSIC_TEAM_ID, service).toBeUndefined();
    }
    // The pages may load MusicKit JS: the shell's policy is the all-in-one's for the same players.
    const conf = configData(docs, `${release}-turntable-web-shell`)["default.conf"] ?? "";
    const remotes = JSON.parse(configData(docs, `${release}-turntable-remotes`)["remotes.json"] ?? "[]");
    expect(conf).toContain(contentSecurityPolicy({ players: ["apple", "youtube"], remotes }));
    expect(conf).toContain("https://js-cdn.music.apple.com");
  });

  it("restarts the gateway, and only the gateway, when these settings change", () => {
    const checksum = (docs: K8sObject[], name: string) =>
      (named(docs, "Deployment", `${release}-turntable-${name}`) as unknown as Deployment).spec!.template.metadata!
        .annotations!["checksum/config"];
    const before = render();
    const after = render(["--set", "frontends.brand=hangout", "--set", "frontends.appleMusic.tokenTtlSeconds=600"]);
    expect(checksum(after, "gateway")).not.toBe(checksum(before, "gateway"));
    for (const name of ["user", "social", "room"]) expect(checksum(after, name), name).toBe(checksum(before, name));
  });

  it("by default: no brand, no players, no Apple Music settings", () => {
    const { env } = resolveEnv(render(), `${release}-turntable-gateway`);
    expect(env.WEB_PLAYERS).toBe("");
    expect(env.WEB_BRAND).toBeUndefined();
    expect(env.APPLE_MUSIC_TEAM_ID).toBeUndefined();
    expect(env.APPLE_MUSIC_PRIVATE_KEY).toBeUndefined();
  });

  it("refuses incomplete Apple Music settings and a malformed brand, naming the value", () => {
    const fails = (args: string[], message: RegExp) => {
      const { status, stderr } = helm(["template", release, chart, ...args]);
      expect(status, args.join(" ")).not.toBe(0);
      expect(stderr).toMatch(message);
    };
    fails(["--set", "frontends.appleMusic.teamId=T"], /existingSecret .* is required/);
    fails(
      ["--set", "frontends.appleMusic.existingSecret=s", "--set", "frontends.contentSecurityPolicy.players={apple}"],
      /teamId and keyId are required/,
    );
    fails(
      [
        "--set",
        "frontends.appleMusic.existingSecret=s",
        "--set",
        "frontends.appleMusic.teamId=T",
        "--set",
        "frontends.appleMusic.keyId=K",
      ],
      /add apple to frontends.contentSecurityPolicy.players/,
    );
    fails(["--set", "frontends.brand=Hang Out"], /brand/);
  });
});

describe("issue 14: Agora in the chart (the rooms' live audio)", () => {
  const appId = "0123456789abcdef0123456789ABCDEF";
  const agoraArgs = ["--set-string", `agora.appId=${appId}`, "--set", "agora.existingSecret=agora-credentials"];

  it("gives the user service the app id and the certificate from the named Secret, and the gateway the app id only", () => {
    const docs = render(agoraArgs);
    const user = resolveEnv(docs, `${release}-turntable-user`);
    expect(user.env.AGORA_APP_ID).toBe(appId);
    // The certificate is a reference to the operator's Secret, never in a ConfigMap or a Secret the chart renders.
    expect(user.missing).toContain("agora-credentials/AGORA_APP_CERTIFICATE");
    const gateway = resolveEnv(docs, `${release}-turntable-gateway`);
    expect(gateway.env.AGORA_APP_ID).toBe(appId);
    expect(gateway.missing.filter((ref) => ref.startsWith("agora-credentials/"))).toEqual([]);
    for (const service of servicePackagesOf(docs).filter((name) => name !== `${release}-turntable-user`)) {
      const { env, missing } = resolveEnv(docs, service);
      expect(env.AGORA_APP_ID, service).toBeUndefined();
      expect(
        missing.filter((ref) => ref.startsWith("agora-credentials/")),
        service,
      ).toEqual([]);
    }
    // The migration Jobs issue no tokens.
    const jobs = ofKind<Job>(docs, "Job");
    expect(jobs.length).toBeGreaterThan(0);
    expect(JSON.stringify(jobs)).not.toContain("AGORA");
    // A changed app id or Secret rolls the pods that read them.
    const checksum = (d: K8sObject[], name: string) =>
      (named(d, "Deployment", name) as unknown as Deployment).spec!.template.metadata!.annotations!["checksum/config"];
    const plain = render();
    expect(checksum(docs, `${release}-turntable-user`)).not.toBe(checksum(plain, `${release}-turntable-user`));
    expect(checksum(docs, `${release}-turntable-gateway`)).not.toBe(checksum(plain, `${release}-turntable-gateway`));
  });

  it("takes the certificate from another key of the Secret when existingSecretKey says so", () => {
    const docs = render([...agoraArgs, "--set", "agora.existingSecretKey=certificate"]);
    expect(resolveEnv(docs, `${release}-turntable-user`).missing).toContain("agora-credentials/certificate");
  });

  it("opens the pages' connect-src to Agora's servers: the all-in-one server's policy, from the same AGORA_SOURCES", () => {
    for (const base of [[], ["-f", productionValues]]) {
      const docs = render([...base, ...agoraArgs]);
      const conf = configData(docs, `${release}-turntable-web-shell`)["default.conf"] ?? "";
      const remotes = JSON.parse(configData(docs, `${release}-turntable-remotes`)["remotes.json"] ?? "[]");
      const mediaBaseUrl = configData(docs, `${release}-turntable-user`)["MEDIA_BASE_URL"];
      const policy = /add_header Content-Security-Policy "([^"]*)" always;/.exec(conf)?.[1];
      expect(policy).toBe(
        contentSecurityPolicy({ agoraAppId: appId, remotes, ...(mediaBaseUrl ? { mediaBaseUrl } : {}) }),
      );
      // The chart's table is AGORA_SOURCES, directive by directive (only connect-src today).
      const without = /add_header Content-Security-Policy "([^"]*)" always;/.exec(
        configData(render(base), `${release}-turntable-web-shell`)["default.conf"] ?? "",
      )?.[1];
      const directives = (csp: string | undefined) =>
        new Map((csp ?? "").split("; ").map((d) => [d.split(" ")[0]!, d.split(" ").slice(1)] as const));
      const [on, off] = [directives(policy), directives(without)];
      const added = Object.fromEntries(
        [...on].flatMap(([name, sources]) => {
          const extra = sources.filter((source) => !off.get(name)?.includes(source));
          return extra.length ? [[name.replace(/-src$/, ""), extra]] : [];
        }),
      );
      expect(added).toEqual(AGORA_SOURCES);
    }
    // Without an app id nothing of Agora's is allowed.
    expect(configData(render(), `${release}-turntable-web-shell`)["default.conf"]).not.toContain("agora.io");
  });

  it("by default: no Agora variables anywhere", () => {
    const docs = render();
    expect(resolveEnv(docs, `${release}-turntable-user`).env.AGORA_APP_ID).toBeUndefined();
    expect(resolveEnv(docs, `${release}-turntable-gateway`).env.AGORA_APP_ID).toBeUndefined();
    expect(docs.map((doc) => JSON.stringify(doc)).join("\n")).not.toContain("AGORA_APP_CERTIFICATE");
  });

  it("refuses half-filled or conflicting Agora settings, naming the value", () => {
    const fails = (args: string[], message: RegExp) => {
      const { status, stderr } = helm(["template", release, chart, ...args]);
      expect(status, args.join(" ")).not.toBe(0);
      expect(stderr, args.join(" ")).toMatch(message);
    };
    fails(["--set-string", `agora.appId=${appId}`], /agora: existingSecret .* is required with appId/);
    fails(["--set", "agora.existingSecret=agora-credentials"], /agora: appId .* is required with existingSecret/);
    fails(["--set", "agora.appId=not-an-app-id", "--set", "agora.existingSecret=s"], /agora\/appId/);
    fails([...agoraArgs, "--set", "agora.existingSecretKey="], /agora\/existingSecretKey/);
    fails([...agoraArgs, "--set", "services.user.enabled=false"], /agora: the user service issues the Agora tokens/);
    // Hand-wired variables would bypass the pages' policy: they are refused with or without agora.*.
    fails(
      ["--set-string", `gateway.env.AGORA_APP_ID=${appId}`],
      /gateway: AGORA_APP_ID is set by the chart from agora/,
    );
    fails(
      [...agoraArgs, "--set", "services.user.secretEnv.AGORA_APP_CERTIFICATE=x"],
      /services.user: AGORA_APP_CERTIFICATE is set by the chart from agora/,
    );
  });
});

/** The Deployments of the backend services (not the gateway, not the web apps). */
function servicePackagesOf(docs: K8sObject[]): string[] {
  return docs
    .filter((d) => d.kind === "Deployment" && d.metadata.labels?.["turntable.fm/tier"] === "service")
    .map((d) => d.metadata.name);
}
