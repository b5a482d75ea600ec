// The audit service is complete: every RPC of its services has an implementation (the host starts it), and every
// documented /api/audit-service operation (operations.tsv, the rows copied below) is routed by the gateway's own
// route table to an RPC of the service, with its path variables where the specification has them.
import { describe, expect, it } from "vitest";
import { expectEveryOperationRouted, expectEveryRpcImplemented, expectSpecificationRows } from "@tt/kit/testing";
import { buildRouteTable } from "@tt/gateway/routes";
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

describe("tt.audit.v1 completeness", () => {
  it("implements every RPC of the protos (the host starts it)", async () => {
    await expectEveryRpcImplemented(auditServiceDefinition, { services: AUDIT_SERVICES });
  });

  it("the copied rows are the specification's (when the specification is at hand)", () => {
    expectSpecificationRows("/api/audit-service", AUDIT_OPERATIONS);
  });

  it("routes every documented operation through the gateway's route table", () => {
    const table = buildRouteTable([{ services: [...AUDIT_SERVICES] }]);
    expectEveryOperationRouted(table, AUDIT_OPERATIONS);
    expect(table.match("POST", "/api/audit-service/moderation-actions/bulk").value.method.name).toBe(
      "BulkCreateModerationActions",
    );
  });
});
