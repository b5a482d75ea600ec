import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { AnalyticsService } from "@tt/proto/tt/audit/v1/analytics_service_pb";
import { TopicCountSchema } from "@tt/proto/tt/audit/v1/analytics_service_pb";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { pick } from "../test-helpers.ts";
import { bucketSeries, intervalFits, windowOf } from "./analytics-series.ts";
import AnalyticsScreen from "./AnalyticsScreen.tsx";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("analytics series", () => {
  it("regression: every bucket of the period, zeros included, so one busy hour is a peak and not a column of dots", () => {
    const to = Date.UTC(2026, 11, 2, 23);
    const from = to - DAY;
    const busy = Date.UTC(2026, 11, 2, 22);
    const { times, series } = bucketSeries(
      [
        { bucket: busy, topic: "login-action", count: 2 },
        { bucket: busy, topic: "page-view", count: 9 },
      ],
      from,
      to,
      "hour",
    );
    expect(times).toHaveLength(24);
    expect(times[0]).toBe(from);
    expect(times.at(-1)).toBe(busy);
    // The biggest topic first; each series has a value for every bucket.
    expect(series.map((entry) => entry.topic)).toEqual(["page-view", "login-action"]);
    expect(series[0]!.values).toHaveLength(24);
    expect(series[0]!.values.at(-1)).toBe(9);
    expect(series[0]!.values.slice(0, -1).every((value) => value === 0)).toBe(true);
  });

  it("aligns the window to whole buckets, and refuses hourly buckets over a long period", () => {
    const now = Date.UTC(2026, 11, 2, 22, 41);
    expect(windowOf("24h", "hour", now)).toEqual({ from: Date.UTC(2026, 11, 1, 23), to: Date.UTC(2026, 11, 2, 23) });
    expect(windowOf("7d", "day", now)).toEqual({ from: Date.UTC(2026, 10, 26), to: Date.UTC(2026, 11, 3) });
    expect(intervalFits("7d", "hour")).toBe(true);
    expect(intervalFits("30d", "hour")).toBe(false);
  });
});

// Each journey drives several dialogs; on a loaded two-core machine that takes longer than the default 30 s.
describe("analytics screen", { timeout: 90_000 }, () => {
  it("asks for the period's window and draws the counts with words, a total and a table of figures", async () => {
    const user = userEvent.setup();
    const requests: { topic: string; interval: string; from: string; to: string }[] = [];
    const kit = createTestKit({
      routes: (router) =>
        router.service(AnalyticsService, {
          countAnalyticsEvents: (req) => {
            requests.push({ topic: req.topic, interval: req.interval, from: req.from, to: req.to });
            const last = new Date(new Date(req.to).getTime() - (req.interval === "day" ? DAY : HOUR));
            return {
              data: [
                create(TopicCountSchema, { bucket: timestampFromDate(last), topic: "page-view", count: 1200n }),
                create(TopicCountSchema, { bucket: timestampFromDate(last), topic: "login-action", count: 3n }),
              ],
            };
          },
        }),
    });
    kit.session.signIn({ token: "t", tokenType: "user" }, { uuid: "u", email: "root@example.com", role: "admin" });
    renderWithKit(<AnalyticsScreen />, kit);
    const figure = await screen.findByRole("figure", { name: "All topics, hourly" });
    expect(requests[0]).toMatchObject({ topic: "", interval: "hour" });
    expect(new Date(requests[0]!.to).getTime() - new Date(requests[0]!.from).getTime()).toBe(7 * DAY);
    expect(screen.getByText("1,203")).toBeTruthy();
    expect(
      within(figure)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["Page views1,200", "Logins3"]);
    expect(within(within(figure).getByRole("table")).getAllByRole("row")).toHaveLength(2);

    // Thirty days are counted by the day (hourly would be more buckets than the service answers).
    await pick(user, "Period", "Last 30 days");
    await waitFor(() => expect(requests.at(-1)).toMatchObject({ interval: "day" }));
    expect(await screen.findByRole("figure", { name: "All topics, daily" })).toBeTruthy();
    expect(screen.getByText(/midnight to midnight UTC/)).toBeTruthy();
  });
});
