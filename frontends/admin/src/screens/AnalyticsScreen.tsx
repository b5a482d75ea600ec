import { timestampDate } from "@bufbuild/protobuf/wkt";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { AnalyticsService } from "@tt/proto/tt/audit/v1/analytics_service_pb";
import { AnalyticsTopicSchema } from "@tt/proto/tt/audit/v1/audit_pb";
import { useErrorText } from "@tt/web-kit";
import { TimeChart } from "@tt/web-kit/chart";
import { useClient } from "@tt/web-kit/connect";
import { Button, EmptyState, ErrorMessage, Field, Select, Skeleton } from "@tt/web-kit/ui";
import { ChartLine, RotateCcw } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { wireNamesOf } from "../list/wire.ts";
import { bucketSeries, intervalFits, windowOf, type Interval, type Period } from "./analytics-series.ts";
import { useAdminFormat, useOptions } from "./format.ts";

const TOPICS = wireNamesOf(AnalyticsTopicSchema);
const ALL = "all";
const PERIODS: readonly Period[] = ["24h", "7d", "30d", "90d"];
const INTERVALS: readonly Interval[] = ["hour", "day"];

/** Analytics counts by topic over time (audit service), as a chart of every bucket of the period. */
export default function AnalyticsScreen() {
  const analytics = useClient(AnalyticsService);
  const toText = useErrorText();
  const { t, name, number } = useAdminFormat();
  const formId = useId();
  const topicOptions = useOptions("analyticsTopic", TOPICS);
  const [topic, setTopic] = useState(ALL);
  const [period, setPeriod] = useState<Period>("7d");
  const [interval, setInterval] = useState<Interval>("hour");
  // The window is fixed when the choice is made (a query key that moved with the clock would never settle).
  const [now, setNow] = useState(() => Date.now());
  const { from, to } = windowOf(period, interval, now);
  const request = {
    topic: topic === ALL ? "" : topic,
    interval,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
  };
  const counts = useQuery({
    queryKey: ["adminList", "analyticsCounts", request],
    queryFn: () => analytics.countAnalyticsEvents(request),
    placeholderData: keepPreviousData,
  });
  const chart = useMemo(() => {
    const data = (counts.data?.data ?? []).flatMap((c) =>
      c.bucket ? [{ bucket: timestampDate(c.bucket).getTime(), topic: c.topic, count: Number(c.count) }] : [],
    );
    const { times, series } = bucketSeries(data, from, to, interval);
    return {
      times,
      series: series.map((entry) => ({ label: name("analyticsTopic", entry.topic), values: entry.values })),
      total: data.reduce((sum, c) => sum + c.count, 0),
    };
  }, [counts.data, from, to, interval, name]);

  const choosePeriod = (next: Period) => {
    setPeriod(next);
    if (!intervalFits(next, interval)) setInterval("day");
    setNow(Date.now());
  };
  const periodLabel = t(`analytics_period_${period}`);
  const intervalLabel = t(`analytics_${interval}`);

  let body;
  if (counts.isError) {
    body = (
      <div className="tt-admin-failed">
        <ErrorMessage>{toText(counts.error)}</ErrorMessage>
        <Button variant="secondary" onClick={() => void counts.refetch()}>
          {t("retry")}
        </Button>
      </div>
    );
  } else if (!counts.data) {
    body = <Skeleton height="22rem" radius="var(--tt-radius-lg)" />;
  } else if (chart.total === 0) {
    body = (
      <EmptyState
        icon={<ChartLine />}
        title={t("analytics_emptyTitle")}
        action={
          topic !== ALL ? (
            <Button variant="secondary" onClick={() => setTopic(ALL)}>
              {t("analytics_showAll")}
            </Button>
          ) : period !== "90d" ? (
            <Button variant="secondary" onClick={() => choosePeriod("90d")}>
              {t("analytics_period_90d")}
            </Button>
          ) : undefined
        }
      >
        {t("analytics_emptyBody")}
      </EmptyState>
    );
  } else {
    body = (
      <>
        <p className="tt-admin-stat" aria-live="polite">
          <span className="tt-admin-stat__label">{t("analytics_total", { period: periodLabel.toLowerCase() })}</span>
          <strong className="tt-admin-stat__value">{number(chart.total)}</strong>
        </p>
        <TimeChart
          label={t("analytics_chart", {
            topic: topic === ALL ? t("analytics_all") : name("analyticsTopic", topic),
            interval: intervalLabel.toLowerCase(),
          })}
          times={chart.times}
          series={chart.series}
          step={interval}
          {...(interval === "day" ? { timeZone: "UTC", note: t("analytics_dayNote") } : {})}
        />
      </>
    );
  }

  return (
    <div className="tt-admin-sections">
      <form className="tt-admin-filters" aria-label={t("filters")} onSubmit={(event) => event.preventDefault()}>
        <Field label={t("analytics_topic")} className="tt-admin-filters__field">
          <Select
            id={`${formId}-topic`}
            value={topic}
            onValueChange={setTopic}
            options={[{ value: ALL, label: t("analytics_all") }, ...topicOptions]}
          />
        </Field>
        <Field label={t("analytics_period")} className="tt-admin-filters__field">
          <Select
            id={`${formId}-period`}
            value={period}
            onValueChange={(value) => choosePeriod(value as Period)}
            options={PERIODS.map((value) => ({ value, label: t(`analytics_period_${value}`) }))}
          />
        </Field>
        <Field label={t("analytics_interval")} className="tt-admin-filters__field">
          <Select
            id={`${formId}-interval`}
            value={interval}
            onValueChange={(value) => {
              setInterval(value as Interval);
              setNow(Date.now());
            }}
            options={INTERVALS.map((value) => ({
              value,
              label: t(`analytics_${value}`),
              disabled: !intervalFits(period, value),
            }))}
          />
        </Field>
        <div className="tt-admin-filters__buttons">
          <Button variant="ghost" icon={<RotateCcw />} busy={counts.isFetching} onClick={() => setNow(Date.now())}>
            {t("refresh")}
          </Button>
        </div>
      </form>
      {body}
    </div>
  );
}
