// Every RPC of the tt.user.v1 services has an implementation: the kit's host refuses to start a service
// that leaves one out (it would answer Unimplemented, a broken path for the specification's clients), so
// starting the real service the way production does is the whole check.
import { describe, it } from "vitest";
import { expectEveryRpcImplemented } from "@tt/kit/testing";
import { userServiceDefinition, USER_SERVICES } from "./index.ts";

describe("tt.user.v1 services", () => {
  it("implements every RPC of the proto (the host starts it)", async () => {
    await expectEveryRpcImplemented(userServiceDefinition, { services: USER_SERVICES, bus: "memory" });
  });
});
