// Every RPC of the tt.payment.v1 services has an implementation: the kit's host refuses to start a service
// that leaves one out (it would answer Unimplemented, a broken path for the specification's clients), so
// starting the real service the way production does is the whole check.
import { describe, expect, it } from "vitest";
import { methodKey } from "@tt/kit";
import { createServiceHarness } from "@tt/kit/testing";
import { paymentServiceDefinition, PAYMENT_SERVICES } from "./index.ts";

describe("tt.payment.v1 services", () => {
  it("implements every RPC of the proto (the host starts it)", async () => {
    const h = await createServiceHarness(paymentServiceDefinition, { bus: "memory", network: false });
    try {
      const missing = PAYMENT_SERVICES.flatMap((s) => s.methods)
        .filter((m) => !h.host.methods.has(methodKey(m)))
        .map((m) => m.name);
      expect(missing).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
