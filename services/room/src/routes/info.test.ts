import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceHarness, type ServiceHarness } from "@tt/kit/testing";
import { InfoService } from "@tt/proto/tt/room/v1/info_service_pb";
import { userServiceDefinition } from "@tt/user-service";
import { roomServiceDefinition } from "../index.ts";

let h: ServiceHarness;
beforeAll(async () => {
  h = await createServiceHarness(roomServiceDefinition, { alongside: [userServiceDefinition] });
});
afterAll(() => h?.close());

describe("InfoService", () => {
  it("hello answers the service's API version without a token", async () => {
    await expect(h.client(InfoService).hello({})).resolves.toMatchObject({
      service: "room-service",
      version: "1.2.23",
    });
  });
});
