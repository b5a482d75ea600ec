// A service's completeness checks, one body for every service's completeness test: every RPC of its protos has an
// implementation (the host starts it), every documented REST operation is routed to it with its path variables, and
// the operations a test copies are the specification's own rows.
import { existsSync, readFileSync } from "node:fs";
import type { DescService } from "@bufbuild/protobuf";
import { expect } from "vitest";
import { methodKey } from "../transport/route-capture.ts";
import type { ServiceDefinition } from "../service.ts";
import { createServiceHarness, type ServiceHarnessOptions } from "./service-harness.ts";

/** The specification's operation list (tab-separated: method, path, …), where the test machines keep it. */
export const SPEC_OPERATIONS_TSV = "/work/shared/spec/operations.tsv";

/** A placeholder value for a path variable that any field rule of ours accepts where a uuid is expected. */
export const SAMPLE_UUID = "3f0e9b7e-8a3c-4f4e-9d55-0123456789ab";

/**
 * Starts `definition` in a harness (no network; `options` adds services it calls in process, a bus, …) and expects
 * every method of `services` (default: the definition's) to have an implementation.
 */
export async function expectEveryRpcImplemented(
  definition: ServiceDefinition,
  options: ServiceHarnessOptions & { services?: readonly DescService[] } = {},
): Promise<void> {
  const { services = definition.services, ...harnessOptions } = options;
  const h = await createServiceHarness(definition, { network: false, ...harnessOptions });
  try {
    const missing = services
      .flatMap((s) => s.methods)
      .filter((m) => !h.host.methods.has(methodKey(m)))
      .map((m) => m.name);
    expect(missing).toEqual([]);
  } finally {
    await h.close();
  }
}

/** What the gateway's route table (gateway/src/routes.ts `buildRouteTable`) offers these checks. */
export interface OperationMatcher {
  /** Throws when nothing is routed there. */
  match(httpMethod: string, path: string): { variables: readonly unknown[]; value: { pattern: string } };
}

/**
 * Expects every operation ("GET /api/x-service/things/{id}") to be routed by `table`, with as many path variables
 * as the operation has (they may be renamed). `concrete` turns a template into a path to match (default: every
 * variable becomes SAMPLE_UUID); `notYetServed` lists operations known to be missing (the test fails when one of
 * them is served, so the list only shrinks).
 */
export function expectEveryOperationRouted(
  table: OperationMatcher,
  operations: readonly string[],
  opts: { concrete?: (path: string) => string; notYetServed?: readonly string[] } = {},
): void {
  const concrete = opts.concrete ?? ((path: string) => path.replace(/\{[^}]+\}/g, SAMPLE_UUID));
  const missing: string[] = [];
  const wrongPlace: string[] = [];
  for (const op of operations) {
    const [verb, path] = op.split(" ") as [string, string];
    let match: ReturnType<OperationMatcher["match"]>;
    try {
      match = table.match(verb, concrete(path));
    } catch {
      missing.push(op);
      continue;
    }
    if (match.variables.length !== [...path.matchAll(/\{[^}]+\}/g)].length) {
      wrongPlace.push(`${op} → ${match.value.pattern}`);
    }
  }
  expect(wrongPlace).toEqual([]);
  expect(missing).toEqual(opts.notYetServed ?? []);
}

/**
 * Expects `operations` to be exactly the specification's rows whose path starts with `prefix`, in its order, when
 * the specification is at hand (SPEC_OPERATIONS_TSV); elsewhere it checks nothing.
 */
export function expectSpecificationRows(prefix: string, operations: readonly string[]): void {
  if (!existsSync(SPEC_OPERATIONS_TSV)) return;
  const rows = readFileSync(SPEC_OPERATIONS_TSV, "utf8")
    .split("\n")
    .map((line) => line.split("\t"))
    .filter((cols) => cols[1]?.startsWith(prefix))
    .map((cols) => `${cols[0]} ${cols[1]}`);
  expect(rows).toEqual(operations);
}
