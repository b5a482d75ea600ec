// The analytics chart's data: the audit service counts events per UTC hour or day and leaves out the buckets
// where nothing happened. The chart needs every bucket of the period asked for, in order, with zeros — else a
// period whose events all fell in one hour is drawn as one column of dots with the same label at both ends.

export type Interval = "hour" | "day";
export type Period = "24h" | "7d" | "30d" | "90d";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
export const PERIOD_MS: Record<Period, number> = {
  "24h": DAY_MS,
  "7d": 7 * DAY_MS,
  "30d": 30 * DAY_MS,
  "90d": 90 * DAY_MS,
};
export const INTERVAL_MS: Record<Interval, number> = { hour: HOUR_MS, day: DAY_MS };
/** The most buckets the audit service answers for (its MAX_BUCKETS). */
export const MAX_BUCKETS = 400;

/** Whether the service answers this interval over this period (an hourly 30 days is 720 buckets: refused). */
export function intervalFits(period: Period, interval: Interval): boolean {
  return PERIOD_MS[period] / INTERVAL_MS[interval] <= MAX_BUCKETS;
}

/**
 * The period's window, aligned to whole buckets as the service cuts them (UTC hours, UTC days): it ends at the
 * end of the bucket `now` is in, and starts the period's length earlier.
 */
export function windowOf(period: Period, interval: Interval, now: number): { from: number; to: number } {
  const step = INTERVAL_MS[interval];
  const to = Math.floor(now / step) * step + step;
  return { from: to - PERIOD_MS[period], to };
}

export interface TopicCount {
  /** The bucket's start, in milliseconds. */
  bucket: number;
  topic: string;
  count: number;
}

/**
 * Every bucket of [from, to) and, per topic, its count in each (0 where the service sent none); topics with the
 * most events first.
 */
export function bucketSeries(
  counts: readonly TopicCount[],
  from: number,
  to: number,
  interval: Interval,
): { times: number[]; series: { topic: string; values: number[] }[] } {
  const step = INTERVAL_MS[interval];
  const times: number[] = [];
  for (let at = Math.ceil(from / step) * step; at < to; at += step) times.push(at);
  const index = new Map(times.map((at, i) => [at, i]));
  const byTopic = new Map<string, number[]>();
  for (const { bucket, topic, count } of counts) {
    const i = index.get(bucket);
    if (i === undefined) continue;
    let values = byTopic.get(topic);
    if (!values) {
      values = times.map(() => 0);
      byTopic.set(topic, values);
    }
    values[i] = (values[i] ?? 0) + count;
  }
  const total = (values: number[]) => values.reduce((sum, value) => sum + value, 0);
  const series = [...byTopic.entries()]
    .map(([topic, values]) => ({ topic, values }))
    .sort((a, b) => total(b.values) - total(a.values) || a.topic.localeCompare(b.topic));
  return { times, series };
}
