import { timestampDate } from "@bufbuild/protobuf/wkt";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { AnalyticsService } from "@tt/proto/tt/audit/v1/analytics_service_pb";
import { AnalyticsTopicSchema } from "@tt/proto/tt/audit/v1/audit_pb";
import { useErrorText } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";
import { useState } from "react";
import { useAdminText } from "../i18n.ts";
import { wireNamesOf } from "../list/wire.ts";
import { CountChart } from "./CountChart.tsx";
import { isoOf } from "./format.ts";

const TOPICS = wireNamesOf(AnalyticsTopicSchema);
const INTERVALS = ["hour", "day"] as const;

/** Analytics counts by topic over time (audit service), as a chart. */
export default function AnalyticsScreen() {
  const analytics = useClient(AnalyticsService);
  const toText = useErrorText();
  const { t, language } = useAdminText();
  const [topic, setTopic] = useState("");
  const [interval, setInterval] = useState<(typeof INTERVALS)[number]>("hour");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const request = { topic, interval, from: isoOf(from) ?? "", to: isoOf(to) ?? "" };
  const counts = useQuery({
    queryKey: ["adminList", "analyticsCounts", request],
    queryFn: () => analytics.countAnalyticsEvents(request),
    placeholderData: keepPreviousData,
  });
  const format = new Intl.DateTimeFormat(
    language,
    interval === "day" ? { dateStyle: "medium" } : { dateStyle: "short", timeStyle: "short" },
  );
  const points = (counts.data?.data ?? []).map((c) => ({
    at: c.bucket ? timestampDate(c.bucket) : new Date(0),
    topic: c.topic,
    count: Number(c.count),
  }));
  const total = points.reduce((sum, p) => sum + p.count, 0);
  return (
    <>
      <form className="tt-admin-filters" aria-label={t("filters")} onSubmit={(event) => event.preventDefault()}>
        <label className="tt-field">
          <span>{t("analytics_topic")}</span>
          <select value={topic} onChange={(event) => setTopic(event.target.value)}>
            <option value="">{t("analytics_all")}</option>
            {TOPICS.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label className="tt-field">
          <span>{t("analytics_interval")}</span>
          <select value={interval} onChange={(event) => setInterval(event.target.value as (typeof INTERVALS)[number])}>
            {INTERVALS.map((name) => (
              <option key={name} value={name}>
                {t(`analytics_${name}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="tt-field">
          <span>{t("filter_from")}</span>
          <input type="datetime-local" value={from} onChange={(event) => setFrom(event.target.value)} />
        </label>
        <label className="tt-field">
          <span>{t("filter_to")}</span>
          <input type="datetime-local" value={to} onChange={(event) => setTo(event.target.value)} />
        </label>
      </form>
      {counts.isError ? (
        <p className="tt-error" role="alert">
          {toText(counts.error)}
        </p>
      ) : !counts.data ? (
        <p className="tt-loading">{t("loading")}</p>
      ) : points.length === 0 ? (
        <p className="tt-muted">{t("analytics_empty")}</p>
      ) : (
        <>
          <p className="tt-muted">{t("analytics_total", { count: total })}</p>
          <CountChart
            points={points}
            format={(at) => format.format(at)}
            label={t("analytics_chart", { topic: topic || t("analytics_all"), interval: t(`analytics_${interval}`) })}
          />
        </>
      )}
    </>
  );
}
