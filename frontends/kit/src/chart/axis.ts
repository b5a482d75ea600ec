// The time axis of a chart in the reader's language and time zone: tick labels, bucket names. Pure functions,
// so they are tested without a canvas.

const HOUR_S = 3600;
const DAY_S = 24 * HOUR_S;

const formats = new Map<string, Intl.DateTimeFormat>();

/** One Intl.DateTimeFormat per locale, zone and options (tick labels are formatted on every draw). */
function dateFormat(locale: string, timeZone: string | undefined, options: Intl.DateTimeFormatOptions) {
  const key = `${locale}|${timeZone ?? ""}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...options, ...(timeZone ? { timeZone } : {}) });
    formats.set(key, format);
  }
  return format;
}

const TIME: Intl.DateTimeFormatOptions = { hour: "numeric", minute: "2-digit" };
const DAY: Intl.DateTimeFormatOptions = { month: "short", day: "numeric" };
const MONTH: Intl.DateTimeFormatOptions = { month: "short", year: "numeric" };
const CALENDAR_DAY: Intl.DateTimeFormatOptions = { year: "numeric", month: "2-digit", day: "2-digit" };

/**
 * The labels of a time axis's ticks. `splits` are the ticks' instants in seconds (uPlot's unit) and `increment`
 * the seconds between two ticks: months for ticks a month or more apart, days for ticks a day or more apart,
 * else times of day — with the date under the first tick and under each tick on a new day, so that every label
 * can be read alone ("22:00" then "00:00 / 3 Dec"). Nulls (ticks uPlot filtered out) stay empty.
 */
export function timeTickLabels(
  splits: readonly (number | null)[],
  increment: number,
  locale: string,
  timeZone?: string,
): string[] {
  if (increment >= 28 * DAY_S) {
    const month = dateFormat(locale, timeZone, MONTH);
    return splits.map((split) => (split === null ? "" : month.format(split * 1000)));
  }
  const day = dateFormat(locale, timeZone, DAY);
  if (increment >= DAY_S) return splits.map((split) => (split === null ? "" : day.format(split * 1000)));
  const time = dateFormat(locale, timeZone, TIME);
  const calendar = dateFormat(locale, timeZone, CALENDAR_DAY);
  let previousDay: string | undefined;
  return splits.map((split) => {
    if (split === null) return "";
    const at = split * 1000;
    const today = calendar.format(at);
    const label = previousDay === today ? time.format(at) : `${time.format(at)}\n${day.format(at)}`;
    previousDay = today;
    return label;
  });
}

/** How long one bucket of a series lasts. */
export type TimeStep = "hour" | "day";

/** A bucket's name in words: "3 Dec 2026, 22:00" for an hour, "3 Dec 2026" for a day. */
export function bucketLabel(at: number, step: TimeStep, locale: string, timeZone?: string): string {
  return dateFormat(
    locale,
    timeZone,
    step === "day" ? { dateStyle: "medium" } : { dateStyle: "medium", timeStyle: "short" },
  ).format(at);
}

/** The step between consecutive instants (ms), for a series whose step is not given. */
export function inferStep(times: readonly number[]): TimeStep {
  const gap = times.length > 1 ? (times[1] ?? 0) - (times[0] ?? 0) : 0;
  return gap >= DAY_S * 1000 ? "day" : "hour";
}
