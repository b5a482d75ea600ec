import { Code } from "@connectrpc/connect";
import { createServiceHarness, type ServiceHarness } from "@tt/kit/testing";
import { GeolocationService } from "@tt/proto/tt/audit/v1/geolocation_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditServiceDefinition } from "../index.ts";
import { refusal } from "../testing/poll.ts";

let h: ServiceHarness;

beforeAll(async () => {
  h = await createServiceHarness(auditServiceDefinition);
});
afterAll(() => h?.close());

const direct = () => h.direct(GeolocationService);
const ctxWith = (xff?: string) =>
  h.context(GeolocationService.method.geolocateCaller, { headers: xff ? { "x-forwarded-for": xff } : {} });

describe("geolocation", () => {
  it("locates a given public address from the offline database", async () => {
    const user = await h.tokens.user();
    const { geolocation } = await h.client(GeolocationService, { token: user }).geolocateAddress({ ip: "8.8.8.8" });
    expect(geolocation).toMatchObject({ ip: "8.8.8.8", found: true, country: "US" });
    const v6 = await h.client(GeolocationService, { token: user }).geolocateAddress({ ip: "2001:4860:4860::8888" });
    expect(v6.geolocation?.found).toBe(true);
  });

  it("private and malformed addresses answer clearly", async () => {
    const user = await h.tokens.user();
    const geo = h.client(GeolocationService, { token: user });
    for (const ip of ["10.1.2.3", "192.168.0.1", "127.0.0.1", "::1", "fe80::1", "::ffff:172.16.0.9"]) {
      expect((await geo.geolocateAddress({ ip })).geolocation).toMatchObject({ found: false, reason: "private" });
    }
    expect(await refusal(geo.geolocateAddress({ ip: "999.1.1.1" }))).toEqual({
      code: Code.InvalidArgument,
      message: "ip must be an IP address",
    });
    expect((await refusal(geo.geolocateAddress({ ip: "" }))).code).toBe(Code.InvalidArgument);
    expect((await refusal(h.client(GeolocationService).geolocateAddress({ ip: "8.8.8.8" }))).code).toBe(
      Code.Unauthenticated,
    );
  });

  it("GET locates the caller as the gateway vouches for it: the one entry, or the one before the last", async () => {
    expect((await direct().geolocateCaller({}, ctxWith("8.8.8.8"))).geolocation).toMatchObject({
      ip: "8.8.8.8",
      country: "US",
    });
    // Behind a trusted proxy the gateway appends the proxy's address; entries further left are the caller's own.
    expect((await direct().geolocateCaller({}, ctxWith("1.2.3.4, 8.8.8.8, 10.0.0.7"))).geolocation?.ip).toBe("8.8.8.8");
    expect((await direct().geolocateCaller({}, ctxWith("127.0.0.1"))).geolocation).toMatchObject({
      found: false,
      reason: "private",
    });
    expect((await direct().geolocateCaller({}, ctxWith())).geolocation).toMatchObject({
      found: false,
      reason: "unavailable",
    });
  });
});
