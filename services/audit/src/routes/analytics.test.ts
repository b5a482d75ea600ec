import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { createServiceHarness, eventually, type ServiceHarness } from "@tt/kit/testing";
import { AnalyticsService } from "@tt/proto/tt/audit/v1/analytics_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditServiceDefinition } from "../index.ts";
import { AnalyticsEvent } from "../modules/analytics/analytics-event.entity.ts";
import { refusal } from "../testing/poll.ts";

let h: ServiceHarness;
let admin: string;

beforeAll(async () => {
  h = await createServiceHarness(auditServiceDefinition);
  admin = await h.tokens.user("admin");
});
afterAll(() => h?.close());

const analytics = (token?: string) => h.client(AnalyticsService, token ? { token } : {});
const web = { platform: "web", isDiscord: false, isLoggedIn: true };

const stored = (id: string) => h.orm.em.fork().findOne(AnalyticsEvent, { id });

describe("analytics intake", () => {
  it("accepts an event into the stream, then the batch writer stores it with the caller and device data", async () => {
    const user = await h.tokens.user();
    const { id } = await analytics(user).putRecord({
      topic: "home-rooms-loaded",
      record: { roomCount: 12, utmSource: "newsletter" },
      deviceData: { platform: "web", isDiscord: true, isLoggedIn: true },
    });
    const row = await eventually("the stored event", async () => (await stored(id)) ?? undefined);
    expect(row).toMatchObject({
      topic: "home-rooms-loaded",
      record: { roomCount: 12, utmSource: "newsletter" },
      platform: "web",
      isDiscord: true,
      isLoggedIn: true,
      userUuid: (await h.identityOf(user)).subject,
    });
  });

  it("many events at once are written in batches and each exactly once", async () => {
    const user = await h.tokens.user();
    const ids = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        analytics(user)
          .putRecord({ topic: "15-seconds", record: { i }, deviceData: web })
          .then((r) => r.id),
      ),
    );
    expect(new Set(ids).size).toBe(60);
    await eventually("60 rows", async () =>
      (await h.orm.em.fork().count(AnalyticsEvent, { id: ids })) === 60 ? true : undefined,
    );
  });

  it("guests and anonymous callers may send page views, not play events; the device data is checked", async () => {
    const guest = await h.tokens.guest();
    const { id } = await analytics(guest).putRecord({
      topic: "page-view",
      record: { path: "/" },
      deviceData: { platform: "mobile", isLoggedIn: true },
    });
    const row = await eventually("the guest's page view", async () => (await stored(id)) ?? undefined);
    expect(row).toMatchObject({ userUuid: null, isLoggedIn: false, platform: "mobile" });
    await analytics().putRecord({ topic: "page-view", deviceData: web });
    for (const token of [guest, undefined]) {
      expect((await refusal(analytics(token).putRecord({ topic: "30-seconds", deviceData: web }))).code).toBe(
        Code.Unauthenticated,
      );
    }
    expect((await refusal(analytics(guest).putRecord({ topic: "page-view" }))).message).toBe(
      "deviceData missing in request",
    );
    expect((await refusal(analytics(guest).putRecord({ topic: "nope", deviceData: web }))).code).toBe(
      Code.InvalidArgument,
    );
    expect(
      (await refusal(analytics(guest).putRecord({ topic: "page-view", deviceData: { platform: "tv" } }))).code,
    ).toBe(Code.InvalidArgument);
    const wide = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    expect(await refusal(analytics(guest).putRecord({ topic: "page-view", record: wide, deviceData: web }))).toEqual({
      code: Code.InvalidArgument,
      message: "record must have at most 50 keys",
    });
  });

  it("admins list by topic and time window and count by topic over time; others are refused", async () => {
    const user = await h.tokens.user();
    const from = new Date(Date.now() - 60_000).toISOString();
    const ids = await Promise.all(
      ["shop-action", "shop-action", "queue-action"].map((topic) =>
        analytics(user)
          .putRecord({ topic, deviceData: web })
          .then((r) => r.id),
      ),
    );
    await eventually("3 rows", async () =>
      (await h.orm.em.fork().count(AnalyticsEvent, { id: ids })) === 3 ? true : undefined,
    );
    const shop = await analytics(admin).listAnalyticsEvents({ topic: "shop-action", from });
    expect(shop.total).toBe(2);
    expect(shop.data[0]?.deviceData?.platform).toBe("web");
    const counts = await analytics(admin).countAnalyticsEvents({ from, interval: "hour" });
    const byTopic = Object.fromEntries(counts.data.map((c) => [c.topic, Number(c.count)]));
    expect(byTopic["shop-action"]).toBe(2);
    expect(byTopic["queue-action"]).toBe(1);
    const shopOnly = await analytics(admin).countAnalyticsEvents({ from, interval: "day", topic: "shop-action" });
    expect(new Set(shopOnly.data.map((c) => c.topic))).toEqual(new Set(["shop-action"]));
    expect(shopOnly.data.reduce((n, c) => n + Number(c.count), 0)).toBe(2);
    // Buckets start at a UTC day's start.
    for (const c of shopOnly.data) expect(timestampDate(c.bucket!).toISOString()).toMatch(/T00:00:00\.000Z$/);
    expect(await refusal(analytics(admin).listAnalyticsEvents({ from: "yesterday" }))).toEqual({
      code: Code.InvalidArgument,
      message: "from must be an ISO 8601 date",
    });
    expect((await refusal(analytics(admin).countAnalyticsEvents({ from: "2000-01-01", interval: "hour" }))).code).toBe(
      Code.InvalidArgument,
    );
    expect((await refusal(analytics(user).listAnalyticsEvents({}))).code).toBe(Code.Unauthenticated);
  });
});

describe("analytics stream retention", () => {
  it("the stream keeps a week and 1 GiB by default", async () => {
    expect(await h.bus.streamInfo("AUDIT_ANALYTICS")).toMatchObject({
      maxAgeMs: 7 * 24 * 3_600_000,
      maxBytes: 1 << 30,
    });
  });

  it("takes its limits from the configuration (0: none), and refuses a bad one at start", async () => {
    const own = await createServiceHarness(auditServiceDefinition, {
      bus: "memory",
      network: false,
      env: { AUDIT_ANALYTICS_STREAM_MAX_AGE_HOURS: "2", AUDIT_ANALYTICS_STREAM_MAX_BYTES: "0" },
    });
    try {
      const info = await own.bus.streamInfo("AUDIT_ANALYTICS");
      expect(info.maxAgeMs).toBe(2 * 3_600_000);
      expect(info.maxBytes).toBeUndefined();
      await expect(own.createInstance({ AUDIT_ANALYTICS_STREAM_MAX_AGE_HOURS: "-1" })).rejects.toThrow(
        /AUDIT_ANALYTICS_STREAM_MAX_AGE_HOURS/,
      );
    } finally {
      await own.close();
    }
  });
});
