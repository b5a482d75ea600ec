import { act, screen, waitFor, within } from "@testing-library/react";
import type uPlot from "uplot";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderWithKit } from "../testing/test-kit.tsx";
import { createTestKit } from "../testing/test-kit.tsx";
import { bucketLabel, inferStep, timeTickLabels } from "./axis.ts";

// jsdom has no canvas: uPlot itself is replaced by a recorder of what the chart asks of it.
const charts: FakePlot[] = [];
class FakePlot {
  root: HTMLElement;
  cursor: { idx: number | null } = { idx: null };
  sizes: { width: number; height: number }[] = [];
  redraws = 0;
  destroyed = false;
  constructor(
    public opts: uPlot.Options,
    public data: uPlot.AlignedData,
    target: HTMLElement,
  ) {
    this.root = document.createElement("div");
    target.append(this.root);
    charts.push(this);
  }
  setSize(size: { width: number; height: number }) {
    this.sizes.push(size);
  }
  redraw() {
    this.redraws++;
  }
  destroy() {
    this.destroyed = true;
    this.root.remove();
  }
  static tzDate(date: Date) {
    return date;
  }
  static rangeNum(min: number, max: number) {
    return [min, max * 1.1];
  }
}
vi.mock("uplot", () => ({ default: FakePlot }));

const { TimeChart } = await import("./TimeChart.tsx");

const at = (day: number, hour: number) => Date.UTC(2026, 11, day, hour);
const s = (ms: number) => ms / 1000;

describe("time axis labels", () => {
  it("labels each hour tick with its time, and the date under the first tick and each new day", () => {
    const splits = [s(at(2, 22)), s(at(2, 23)), s(at(3, 0)), s(at(3, 1))];
    expect(timeTickLabels(splits, 3600, "en", "UTC")).toEqual([
      "10:00 PM\nDec 2",
      "11:00 PM",
      "12:00 AM\nDec 3",
      "1:00 AM",
    ]);
    expect(timeTickLabels(splits, 3600, "es", "UTC")).toEqual(["22:00\n2 dic", "23:00", "0:00\n3 dic", "1:00"]);
  });

  it("shows the reader's time zone: the same instants in New York are five hours earlier", () => {
    expect(timeTickLabels([s(at(2, 22)), s(at(3, 4))], 6 * 3600, "en", "America/New_York")).toEqual([
      "5:00 PM\nDec 2",
      "11:00 PM",
    ]);
  });

  it("regression: a week of data never gets the same label at both ends of the axis", () => {
    const labels = timeTickLabels([s(at(1, 0)), s(at(4, 0)), s(at(7, 0))], 3 * 86400, "en", "UTC");
    expect(labels).toEqual(["Dec 1", "Dec 4", "Dec 7"]);
    expect(new Set(labels).size).toBe(3);
  });

  it("labels months for ticks a month apart, and leaves filtered ticks empty", () => {
    expect(timeTickLabels([s(Date.UTC(2026, 0, 1)), null, s(Date.UTC(2026, 2, 1))], 31 * 86400, "en", "UTC")).toEqual([
      "Jan 2026",
      "",
      "Mar 2026",
    ]);
  });

  it("names buckets in words and infers the step", () => {
    expect(bucketLabel(at(2, 22), "hour", "en", "UTC")).toBe("Dec 2, 2026, 10:00 PM");
    expect(bucketLabel(at(2, 0), "day", "en", "UTC")).toBe("Dec 2, 2026");
    expect(inferStep([at(1, 0), at(2, 0)])).toBe("day");
    expect(inferStep([at(1, 0), at(1, 1)])).toBe("hour");
  });
});

describe("TimeChart", () => {
  const times = [at(2, 22), at(2, 23), at(3, 0)];
  const series = [
    { label: "Page views", values: [5, 0, 7] },
    { label: "Logins", values: [1, 0, 2] },
  ];
  let agent: PropertyDescriptor | undefined;
  let observed: (() => void) | undefined;

  beforeEach(() => {
    charts.length = 0;
    // The chart draws only where a canvas exists: this test's DOM says it is a browser.
    agent = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(navigator), "userAgent");
    Object.defineProperty(navigator, "userAgent", { value: "Mozilla/5.0 Chrome", configurable: true });
    vi.stubGlobal(
      "ResizeObserver",
      class {
        constructor(callback: () => void) {
          observed = callback;
        }
        observe() {}
        disconnect() {}
      },
    );
  });
  afterEach(() => {
    delete (navigator as { userAgent?: string }).userAgent;
    if (agent) Object.defineProperty(Object.getPrototypeOf(navigator), "userAgent", agent);
    vi.unstubAllGlobals();
    document.documentElement.removeAttribute("data-theme");
  });

  it("gives screen readers the figures: a caption, a legend of totals and a table of the non-zero buckets", () => {
    renderWithKit(<TimeChart label="Events per hour" times={times} series={series} timeZone="UTC" />);
    const figure = screen.getByRole("figure", { name: "Events per hour" });
    expect(
      within(figure)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["Page views12", "Logins3"]);
    const table = within(figure).getByRole("table", { name: "Events per hour" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((th) => th.textContent),
    ).toEqual(["Time", "Page views", "Logins"]);
    // The empty 23:00 bucket is left out; each row names its bucket in words.
    expect(
      within(table)
        .getAllByRole("row")
        .slice(1)
        .map((row) => row.textContent),
    ).toEqual(["Dec 2, 2026, 10:00 PM51", "Dec 3, 2026, 12:00 AM72"]);
  });

  it("draws lines (not dots) over the whole range, coloured by the theme at draw time, and redraws on a theme change", async () => {
    const { container } = renderWithKit(
      <TimeChart label="Events per hour" times={times} series={series} timeZone="UTC" />,
      createTestKit({ search: "?lang=es" }),
    );
    await waitFor(() => expect(charts).toHaveLength(1));
    const chart = charts[0]!;
    expect(chart.data).toEqual([times.map(s), [5, 0, 7], [1, 0, 2]]);
    const [, first, second] = chart.opts.series;
    expect(first).toMatchObject({ label: "Page views", width: 2, points: { show: false } });
    expect(second).toMatchObject({ label: "Logins" });

    // Colours come from the theme's custom properties, read when drawn.
    chart.root.style.setProperty("--tt-chart-1", "#a78bfa");
    chart.root.style.setProperty("--tt-chart-2", "#f472b6");
    const stroke = (entry: uPlot.Series | undefined) => (entry?.stroke as (u: unknown, i: number) => string)(chart, 1);
    expect([stroke(first), stroke(second)]).toEqual(["#a78bfa", "#f472b6"]);
    chart.root.style.setProperty("--tt-chart-1", "#6d28d9");
    expect(stroke(first)).toBe("#6d28d9");

    // The time axis speaks the page's language in the given zone.
    const values = chart.opts.axes?.[0]?.values as (...args: unknown[]) => string[];
    expect(values(chart, times.map(s), 0, 60, 3600)).toEqual(["22:00\n2 dic", "23:00", "0:00\n3 dic"]);
    const counts = chart.opts.axes?.[1]?.values as (...args: unknown[]) => string[];
    expect(counts(chart, [0, 1500])).toEqual(["0", "1500"]);

    document.documentElement.dataset["theme"] = "light";
    await waitFor(() => expect(chart.redraws).toBe(1));

    // It follows its container's width.
    const plot = container.querySelector(".tt-chart__plot")!;
    Object.defineProperty(plot, "clientWidth", { value: 512, configurable: true });
    observed?.();
    expect(chart.sizes.at(-1)).toEqual({ width: 512, height: 260 });
  });

  it("marks a lone point with a dot, and shows the hovered bucket's values", async () => {
    renderWithKit(
      <TimeChart label="Events per day" times={[at(2, 0)]} series={[{ label: "Logins", values: [4] }]} step="day" />,
    );
    await waitFor(() => expect(charts).toHaveLength(1));
    const chart = charts[0]!;
    expect(chart.opts.series[1]).toMatchObject({ points: { show: true } });
    chart.cursor.idx = 0;
    const hook = chart.opts.hooks?.setCursor as ((u: unknown) => void)[];
    act(() => hook[0]!(chart));
    expect(document.querySelector(".tt-chart__readout")?.textContent).toBe("Dec 2, 2026Logins 4");
  });
});
