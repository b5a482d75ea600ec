// @tt/web-kit/chart — time series charts (uPlot): a federation singleton of its own, so only the screens that draw
// a chart (the admin's analytics) load uPlot and its stylesheet.
import "uplot/dist/uPlot.min.css";
import "./chart.css";

export { bucketLabel, inferStep, timeTickLabels } from "./axis.ts";
export type { TimeStep } from "./axis.ts";
export { CHART_COLOURS, chartOptions, seriesColourVar, TimeChart } from "./TimeChart.tsx";
export type { ChartOptionsInput, TimeChartProps, TimeChartSeries } from "./TimeChart.tsx";
