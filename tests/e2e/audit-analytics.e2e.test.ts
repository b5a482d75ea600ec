// Analytics intake over REST through the gateway: POST /kinesis is accepted into the stream, and the event is
// visible to the admin lists once the batch writer has stored it (polled, no sleeps); refusals.
import { beforeAll, describe, expect, it } from "vitest";
import { sharedPlatform, type CallOptions, type TestPlatform } from "./support/platform.ts";
import { eventually } from "@tt/kit/testing";

const a = (path: string) => `/api/audit-service${path}`;

let platform: TestPlatform;
let admin: string;
const call = (method: string, path: string, opts?: CallOptions) => platform.call(method, path, opts);
const device = { platform: "web", isDiscord: false, isLoggedIn: false };

beforeAll(async () => {
  platform = await sharedPlatform();
  admin = await platform.adminToken();
});

describe("analytics over REST", () => {
  it("an accepted event becomes visible after the batch write, and is counted by topic", async () => {
    const from = new Date(Date.now() - 60_000).toISOString();
    const { token } = await platform.signUp();
    const res = await call("POST", a("/kinesis"), {
      token,
      body: { topic: "home-rooms-loaded", record: { roomCount: 3, utmSource: "e2e" }, deviceData: device },
    });
    expect(res.status).toBe(200);
    const id = res.body.id as string;
    const anon = await call("POST", a("/kinesis"), {
      body: { topic: "page-view", record: { path: "/" }, deviceData: device },
    });
    expect(anon.status).toBe(200);
    const found = await eventually("the stored event", async () => {
      const list = await call("GET", a(`/analytics-events?topic=home-rooms-loaded&from=${encodeURIComponent(from)}`), {
        token: admin,
      });
      expect(list.status).toBe(200);
      return (list.body.data as Array<Record<string, unknown>>).find((e) => e.id === id);
    });
    expect(found).toMatchObject({
      topic: "home-rooms-loaded",
      record: { roomCount: 3, utmSource: "e2e" },
      deviceData: { platform: "web", isLoggedIn: true },
    });
    const counts = await call("GET", a(`/analytics-events/counts?interval=hour&from=${encodeURIComponent(from)}`), {
      token: admin,
    });
    expect(counts.status).toBe(200);
    const row = (counts.body.data as Array<{ topic: string; count: string }>).find(
      (r) => r.topic === "home-rooms-loaded",
    );
    expect(Number(row?.count)).toBeGreaterThanOrEqual(1);
  });

  it("refuses bad topics, missing device data, guests' play events and malformed bodies", async () => {
    const bad = await call("POST", a("/kinesis"), { body: { topic: "nope", deviceData: device } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/topic/);
    const noDevice = await call("POST", a("/kinesis"), { body: { topic: "page-view" } });
    expect(noDevice.status).toBe(400);
    expect(noDevice.body.message).toBe("deviceData missing in request");
    const badPlatform = await call("POST", a("/kinesis"), {
      body: { topic: "page-view", deviceData: { platform: "tv" } },
    });
    expect(badPlatform.status).toBe(400);
    expect((await call("POST", a("/kinesis"), { body: { topic: "15-seconds", deviceData: device } })).status).toBe(401);
    expect((await call("POST", a("/kinesis"), { raw: "[1,2" })).status).toBe(400);
    expect((await call("POST", a("/kinesis"), { raw: "" })).status).toBe(400);
    const huge = { topic: "page-view", deviceData: device, record: { text: "x".repeat(5000) } };
    expect((await call("POST", a("/kinesis"), { body: huge })).status).toBe(400);
    expect((await call("GET", a("/analytics-events?from=yesterday"), { token: admin })).status).toBe(400);
    expect((await call("GET", a("/analytics-events?limit=100000"), { token: admin })).status).toBe(400);
    expect((await call("GET", a("/analytics-events/counts?interval=week"), { token: admin })).status).toBe(400);
  });
});
