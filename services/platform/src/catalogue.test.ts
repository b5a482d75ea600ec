// The one list of services against everything that must agree with it and cannot import it: the standalone
// gateway's descriptor-only catalogue and the service packages on disk. (The chart's values are checked in
// tests/deploy/chart.test.ts, the e2e projects are derived from the list in vitest.config.ts.)
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serviceCatalog } from "@tt/gateway/catalog";
import { loadServiceDefinitions, nonServicePackages, serviceCatalogue, serviceNames } from "./catalogue.ts";

const root = path.resolve(import.meta.dirname, "../../..");

describe("the service catalogue", () => {
  it("issue 10: names each service once, with the definition of that name", async () => {
    expect(new Set(serviceNames).size).toBe(serviceNames.length);
    const definitions = await loadServiceDefinitions();
    expect(definitions.map((d) => d.name)).toEqual(serviceNames);
    expect(serviceNames[0], "the user service starts first: it holds the token keys").toBe("user");
  });

  it("issue 10: refuses an entry whose definition carries another name", async () => {
    const entry = serviceCatalogue[0]!;
    const definition = await entry.load();
    const renamed = { ...entry, load: async () => ({ ...definition, name: "someone-else" }) };
    await expect(loadServiceDefinitions([renamed])).rejects.toThrow(
      /names "user" but its definition is named "someone-else"/,
    );
  });

  it("issue 10: the standalone gateway routes exactly the proto services of every definition", async () => {
    const definitions = await loadServiceDefinitions();
    const gateway = Object.fromEntries(
      Object.entries(serviceCatalog).map(([name, services]) => [name, services.map((s) => s.typeName).sort()]),
    );
    const expected = Object.fromEntries(
      definitions.map((d) => [d.name, d.services.map((s) => s.typeName).sort()] as const),
    );
    // gateway/src/catalog.ts: add or change the entry to list these descriptors.
    expect(gateway).toEqual(expected);
    expect(Object.keys(serviceCatalog), "the gateway lists the services in start order").toEqual(serviceNames);
  });

  it("issue 10: names every end-to-end suite after its service, so it runs in both modes, or lists it as a platform suite", () => {
    // Suites of the platform as a whole, each choosing its modes itself; every other suite belongs to a
    // service, is named tests/e2e/<service>-*.e2e.test.ts and runs in both modes (vitest.config.ts).
    const platformSuites = [
      // issue 23: sweeps every guarded operation in both modes itself.
      "access-first",
      "account",
      // issue 26: the bot kit (services/bot) against the platform, all-in-one.
      "bot-kit",
      "client-disconnects",
      "distributed",
      // issue 12: kills the upload worker process, which only distributed mode has.
      "distributed-upload-worker",
      // issue 23: two all-in-one platforms of its own on one NATS.
      "deployments-one-nats",
      "first-start",
      "gateway-process",
      "malformed-connect",
      // issue 23: a platform of its own with small limits, over the room and social services.
      "rate-limits",
      // issue 26: the resident DJ (services/resident-dj), on platforms of its own in both modes.
      "resident-dj",
      "web",
    ];
    const suites = readdirSync(path.join(root, "tests/e2e"))
      .filter((file) => file.endsWith(".e2e.test.ts"))
      .map((file) => file.slice(0, -".e2e.test.ts".length));
    const stray = suites.filter(
      (suite) =>
        !platformSuites.includes(suite) &&
        // Browser journeys (web-<area>) drive the whole platform in one process, like `web`.
        !suite.startsWith("web-") &&
        !serviceNames.some((name) => suite.startsWith(`${name}-`)),
    );
    expect(stray, "rename to <service>-….e2e.test.ts, or add to platformSuites").toEqual([]);
  });

  it("issue 10: lists every service package, each with the entry the chart's image runs", () => {
    const packages = readdirSync(path.join(root, "services"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(path.join(root, "services", entry.name, "package.json")))
      .map((entry) => entry.name)
      .filter((name) => !nonServicePackages.includes(name));
    expect(packages.sort()).toEqual([...serviceNames].sort());
    for (const name of serviceNames) {
      // deploy/docker/entrypoint.sh and distributed mode run services/<name>/src/main.ts for SERVICE=<name>.
      expect(existsSync(path.join(root, "services", name, "src/main.ts")), `services/${name}/src/main.ts`).toBe(true);
    }
  });
});
