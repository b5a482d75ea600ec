import { useAppTranslation } from "@tt/web-kit";
import { useFormat } from "@tt/web-kit/ui";
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react";
import type uPlot from "uplot";
import { bucketLabel, inferStep, timeTickLabels, type TimeStep } from "./axis.ts";

export interface TimeChartSeries {
  label: string;
  /** One value per instant of `times` (0 where nothing happened: a gap is drawn as zero, not skipped). */
  values: readonly number[];
}

export interface TimeChartProps {
  /** What the chart shows; its caption and the summary table's. */
  label: string;
  /** The instants of the values, in milliseconds, ascending; the x axis spans them. */
  times: readonly number[];
  series: readonly TimeChartSeries[];
  /** How long each instant's bucket lasts (the summary's wording); inferred from the first gap when absent. */
  step?: TimeStep;
  /** An IANA time zone for the axis and the summary; the reader's own when absent. */
  timeZone?: string;
  /** The plot's height in CSS pixels (its width follows the container). */
  height?: number;
  /** A line under the chart (what a bucket means, where the figures come from). */
  note?: ReactNode;
}

/** How many series colours the theme defines (--tt-chart-1 … --tt-chart-8, chart.css). */
export const CHART_COLOURS = 8;

/** The CSS variable that colours series `index` (0-based). */
export function seriesColourVar(index: number): string {
  return `--tt-chart-${(index % CHART_COLOURS) + 1}`;
}

/** A custom property's value where the chart is drawn, read at draw time so a theme change shows at once. */
function cssVar(element: Element, name: string, fallback: string): string {
  return getComputedStyle(element).getPropertyValue(name).trim() || fallback;
}

type UPlotClass = typeof uPlot;
let uPlotLoading: Promise<UPlotClass> | undefined;

/**
 * uPlot itself, fetched the first time a chart is drawn: it touches the window as it loads (the pixel ratio), so
 * it is never evaluated where nothing is drawn (the component tests' DOM), and a screen shows its caption, legend
 * and figures before the canvas code arrives.
 */
function loadUPlot(): Promise<UPlotClass> {
  uPlotLoading ??= import("uplot").then((module) => module.default);
  return uPlotLoading;
}

/** Whether this page can draw on a canvas (jsdom, the component tests' DOM, cannot). */
function canvasAvailable(): boolean {
  return typeof HTMLCanvasElement !== "undefined" && !/jsdom/i.test(globalThis.navigator?.userAgent ?? "");
}

/** Calls `onChange` when the page's theme changes: the header's switch (<html data-theme>) or the system's. */
function onThemeChange(onChange: () => void): () => void {
  const root = globalThis.document?.documentElement;
  const observer =
    typeof MutationObserver === "undefined" || !root ? undefined : new MutationObserver(() => onChange());
  observer?.observe(root!, { attributes: true, attributeFilter: ["data-theme", "class"] });
  const media = globalThis.matchMedia?.("(prefers-color-scheme: light)");
  media?.addEventListener("change", onChange);
  return () => {
    observer?.disconnect();
    media?.removeEventListener("change", onChange);
  };
}

export interface ChartOptionsInput {
  width: number;
  height: number;
  series: readonly TimeChartSeries[];
  locale: string;
  timeZone: string | undefined;
  singlePoint: boolean;
  formatNumber: (value: number) => string;
  onCursor: (index: number | null) => void;
}

/**
 * uPlot's options for a time chart in the kit's look: lines (dots only for a lone point), colours, axis text and
 * grid read from the theme's custom properties on every draw, time labels in the reader's language and zone,
 * whole-number counts from zero, no zoom by dragging, and the hovered instant reported through onCursor.
 */
export function chartOptions(
  { width, height, series, locale, timeZone, singlePoint, formatNumber, onCursor }: ChartOptionsInput,
  UPlot: Pick<UPlotClass, "tzDate" | "rangeNum">,
): uPlot.Options {
  const muted = (u: uPlot) => cssVar(u.root, "--tt-color-muted", "#a8a1bb");
  const grid = (u: uPlot) => cssVar(u.root, "--tt-color-border", "#302a40");
  const font = `12px ${globalThis.document ? cssVar(document.documentElement, "--tt-font", "system-ui") : "system-ui"}`;
  return {
    width,
    height,
    legend: { show: false },
    cursor: { drag: { x: false, y: false }, points: { size: 8 } },
    ...(timeZone ? { tzDate: (seconds: number) => UPlot.tzDate(new Date(seconds * 1000), timeZone) } : {}),
    scales: {
      x: { time: true },
      y: {
        // Counts start at zero; an all-zero chart still has a visible range.
        range: (_u, _min, max) => [0, max > 0 ? (UPlot.rangeNum(0, max, 0.1, true)[1] ?? max) : 1],
      },
    },
    axes: [
      {
        stroke: muted,
        font,
        size: 52,
        space: 72,
        grid: { show: false },
        ticks: { stroke: grid, width: 1, size: 6 },
        values: (_u, splits, _axis, _space, increment) => timeTickLabels(splits, increment, locale, timeZone),
      },
      {
        stroke: muted,
        font,
        size: 56,
        grid: { stroke: grid, width: 1 },
        ticks: { show: false },
        // Whole numbers only: these are counts.
        incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 1e6, 1e7],
        values: (_u, splits) => splits.map((value) => (value === null ? "" : formatNumber(value))),
      },
    ],
    series: [
      {},
      ...series.map((entry, index) => ({
        label: entry.label,
        stroke: (u: uPlot) => cssVar(u.root, seriesColourVar(index), "#a78bfa"),
        width: 2,
        points: { show: singlePoint, size: 7 },
      })),
    ],
    hooks: {
      setCursor: [(u: uPlot) => onCursor(u.cursor.idx ?? null)],
    },
  };
}

/**
 * A time series chart (uPlot on a canvas): one line per series over time, sized to its container, coloured by
 * the theme (redrawn when the theme changes), with a legend of the series' totals, the values of the hovered
 * instant, and for screen readers a table of every non-zero figure.
 */
export function TimeChart({ label, times, series, step, timeZone, height = 260, note }: TimeChartProps) {
  const { language, t } = useAppTranslation("common");
  const format = useFormat();
  const captionId = useId();
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [hover, setHover] = useState<number | null>(null);
  const bucketStep = step ?? inferStep(times);
  const formatNumber = format.number;

  useEffect(() => {
    const element = box.current;
    if (!element || !canvasAvailable()) return;
    let live = true;
    let chart: uPlot | undefined;
    void loadUPlot().then((UPlot) => {
      if (!live) return;
      const options = chartOptions(
        {
          width: element.clientWidth || 640,
          height,
          series,
          locale: language,
          timeZone,
          singlePoint: times.length === 1,
          formatNumber,
          onCursor: setHover,
        },
        UPlot,
      );
      const data: uPlot.AlignedData = [times.map((at) => at / 1000), ...series.map((entry) => [...entry.values])];
      chart = new UPlot(options, data, element);
      plot.current = chart;
    });
    return () => {
      live = false;
      chart?.destroy();
      plot.current = null;
    };
  }, [times, series, language, timeZone, height, formatNumber]);

  useEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (plot.current && element.clientWidth > 0) plot.current.setSize({ width: element.clientWidth, height });
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [height]);

  // Colours are read on every draw: a redraw is all a theme change needs.
  useEffect(() => onThemeChange(() => plot.current?.redraw(false)), []);

  const totals = useMemo(() => series.map((entry) => entry.values.reduce((sum, value) => sum + value, 0)), [series]);
  const figures = useMemo(
    () =>
      times
        .map((at, index) => ({ at, values: series.map((entry) => entry.values[index] ?? 0) }))
        .filter((row) => row.values.some((value) => value !== 0)),
    [times, series],
  );
  const hovered = hover === null ? undefined : times[hover];

  return (
    <figure className="tt-chart" aria-labelledby={captionId}>
      <div className="tt-chart__head">
        <figcaption id={captionId} className="tt-chart__caption">
          {label}
        </figcaption>
        <div className="tt-chart__readout" aria-hidden="true">
          {hovered !== undefined && hover !== null && (
            <>
              <span className="tt-chart__readout-time">{bucketLabel(hovered, bucketStep, language, timeZone)}</span>
              {series.map((entry, index) => (
                <span key={entry.label} className="tt-chart__readout-value">
                  <span className="tt-chart__swatch" style={{ background: `var(${seriesColourVar(index)})` }} />
                  {entry.label} <strong>{formatNumber(entry.values[hover] ?? 0)}</strong>
                </span>
              ))}
            </>
          )}
        </div>
      </div>
      <div ref={box} className="tt-chart__plot" style={{ minHeight: height }} aria-hidden="true" />
      <ul className="tt-chart__legend">
        {series.map((entry, index) => (
          <li key={entry.label}>
            <span
              className="tt-chart__swatch"
              style={{ background: `var(${seriesColourVar(index)})` }}
              aria-hidden="true"
            />
            <span className="tt-chart__legend-label">{entry.label}</span>
            <span className="tt-chart__legend-total">{formatNumber(totals[index] ?? 0)}</span>
          </li>
        ))}
      </ul>
      {note && <p className="tt-chart__note">{note}</p>}
      {/* A table is as wide as its content whatever its own width says: hidden inside a box that is not. */}
      <div className="tt-visually-hidden">
        <table>
          <caption>{label}</caption>
          <thead>
            <tr>
              <th scope="col">{t(bucketStep === "day" ? "ui.chart.date" : "ui.chart.time")}</th>
              {series.map((entry) => (
                <th key={entry.label} scope="col">
                  {entry.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {figures.map((row) => (
              <tr key={row.at}>
                <th scope="row">{bucketLabel(row.at, bucketStep, language, timeZone)}</th>
                {row.values.map((value, index) => (
                  <td key={series[index]?.label ?? index}>{formatNumber(value)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
