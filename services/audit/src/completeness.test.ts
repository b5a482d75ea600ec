// The audit service is complete: every RPC of its services has an implementation (the host starts it), and every
// documented /api/audit-service operation (operations.tsv, the rows copied below) is routed by the gateway's own
// route table to an RPC of the service, with its path variables where the specification has them.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { methodKey } from "@tt/kit";
import { createServiceHarness } from "@tt/kit/testing";
import { buildRouteTable } from "../../../gateway/src/routes.ts";
import { AUDIT_SERVICES, auditServiceDefinition } from "./index.ts";

/** The /api/audit-service rows of operations.tsv (method and path), as the specification lists them. */
export const AUDIT_OPERATIONS = [
  "POST /api/audit-service/moderation-actions",
  "GET /api/audit-service/moderation-actions",
  "GET /api/audit-service/moderation-actions/{id}",
  "PATCH /api/audit-service/moderation-actions/{id}",
  "DELETE /api/audit-service/moderation-actions/{id}",
  "POST /api/audit-service/moderation-actions/bulk",
  "GET /api/audit-service/user-actions/{id}",
  "GET /api/audit-service/geolocate",
  "POST /api/audit-service/geolocate",
  "GET /api/audit-service/info-admin/status",
  "GET /api/audit-service/info-admin/socket-event-names",
  "GET /api/audit-service/info-admin/user-event-names",
  "GET /api/audit-service/info-admin/last-event",
  "POST /api/audit-service/sentry-testing",
  "POST /api/audit-service/kinesis",
];

const SPEC = "/work/shared/spec/operations.tsv";
const SAMPLE = "3f0e9b7e-8a3c-4f4e-9d55-0123456789ab";

describe("tt.audit.v1 completeness", () => {
  it("implements every RPC of the protos (the host starts it)", async () => {
    const h = await createServiceHarness(auditServiceDefinition, { network: false });
    try {
      const missing = AUDIT_SERVICES.flatMap((s) => s.methods)
        .filter((m) => !h.host.methods.has(methodKey(m)))
        .map((m) => m.name);
      expect(missing).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it("the copied rows are the specification's (when the specification is at hand)", () => {
    if (!existsSync(SPEC)) return;
    const rows = readFileSync(SPEC, "utf8")
      .split("\n")
      .map((line) => line.split("\t"))
      .filter((cols) => cols[1]?.startsWith("/api/audit-service"))
      .map((cols) => `${cols[0]} ${cols[1]}`);
    expect(rows).toEqual(AUDIT_OPERATIONS);
  });

  it("routes every documented operation through the gateway's route table", () => {
    const table = buildRouteTable([{ services: [...AUDIT_SERVICES] }]);
    const missing: string[] = [];
    const wrongPlace: string[] = [];
    for (const op of AUDIT_OPERATIONS) {
      const [verb, path] = op.split(" ") as [string, string];
      try {
        const match = table.match(verb, path.replace(/\{[^}]+\}/g, SAMPLE));
        if (match.variables.length !== [...path.matchAll(/\{[^}]+\}/g)].length) {
          wrongPlace.push(`${op} → ${match.value.pattern}`);
        }
      } catch {
        missing.push(op);
      }
    }
    expect(wrongPlace).toEqual([]);
    expect(missing).toEqual([]);
    expect(table.match("POST", "/api/audit-service/moderation-actions/bulk").value.method.name).toBe(
      "BulkCreateModerationActions",
    );
  });
});
