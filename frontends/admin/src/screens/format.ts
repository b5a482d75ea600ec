import { timestampDate, timestampFromDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { useFormat, useNames, type NameKind } from "@tt/web-kit/ui";
import { useMemo } from "react";
import type { ListPage } from "../list/ResourceList.tsx";
import type { AdminListQueryInit } from "../list/query.ts";
import { useAdminText } from "../i18n.ts";

/**
 * The console's words and formats: its texts, dates and times in the reader's language and zone (the kit's
 * formatters, never an ISO string), numbers, yes/no, and internal values (roles, statuses…) as words.
 */
export function useAdminFormat() {
  const { t, language } = useAdminText();
  const format = useFormat();
  const names = useNames();
  return useMemo(
    () => ({
      t,
      language,
      /** "Dec 2, 01:30" (a table's cell; "Dec 2, 2025" another year), "—" when absent. */
      date: (at: Timestamp | undefined) => (at ? format.short(timestampDate(at)) : t("none")),
      /** "2 December, 01:30" (with the year when it is not this one), "—" when absent: where there is room. */
      dateTime: (at: Timestamp | undefined) => (at ? format.dateTime(timestampDate(at)) : t("none")),
      number: (value: number | bigint) => format.number(value),
      yesNo: (value: boolean) => (value ? t("yes") : t("no")),
      text: (value: string | undefined) => (value ? value : t("none")),
      name: (kind: NameKind, value: string) => (value ? names(kind, value) : t("none")),
      names: (kind: NameKind, values: readonly string[]) =>
        values.length ? values.map((value) => names(kind, value)).join(", ") : t("none"),
    }),
    [t, language, format, names],
  );
}

/** The options of a picker over wire values, each shown as words. */
export function useOptions(kind: NameKind, values: readonly string[]) {
  const names = useNames();
  return useMemo(() => values.map((value) => ({ value, label: names(kind, value) })), [names, kind, values]);
}

/** An admin list answer ({data, total, pageCount}) as the generic screen's page. */
export function adminPage<Row>(answer: { data: Row[]; total: number; pageCount: number }): ListPage<Row> {
  return { rows: answer.data, total: answer.total, pageCount: answer.pageCount };
}

/** For the lists paged by offset/limit rather than the query language: the page's offset. */
export function offsetOf(query: AdminListQueryInit): { offset: number; limit: number } {
  const limit = query.limit ?? 20;
  return { offset: ((query.page ?? 1) - 1) * limit, limit };
}

/** A page from an offset/limit list's total. */
export function offsetPage<Row>(rows: Row[], total: number, limit: number): ListPage<Row> {
  return { rows, total, pageCount: Math.ceil(total / Math.max(limit, 1)) };
}

/** A row's value to sort a whole list by: text (compared in the reader's language), a number or a timestamp. */
export type SortKey<Row> = (row: Row) => string | number | Timestamp | undefined;

function comparable(value: string | number | Timestamp | undefined): string | number {
  if (value === undefined) return "";
  if (typeof value === "string" || typeof value === "number") return value;
  return timestampDate(value).getTime();
}

/**
 * For the lists the server answers whole (the outbox, the deactivation requests): sorted by the query's sort
 * (one of `keys`; the server's order when none) and cut to the query's page.
 */
export function wholeListPage<Row>(
  all: readonly Row[],
  query: AdminListQueryInit,
  keys: Record<string, SortKey<Row>>,
  language: string,
): ListPage<Row> {
  const [field, dir] = (query.sort?.[0] ?? "").split(",");
  const key = field ? keys[field] : undefined;
  const rows = [...all];
  if (key) {
    const collator = new Intl.Collator(language, { sensitivity: "base", numeric: true });
    const sign = dir === "DESC" ? -1 : 1;
    rows.sort((a, b) => {
      const x = comparable(key(a));
      const y = comparable(key(b));
      const order = typeof x === "number" && typeof y === "number" ? x - y : collator.compare(String(x), String(y));
      return sign * order;
    });
  }
  const { offset, limit } = offsetOf(query);
  return offsetPage(rows.slice(offset, offset + limit), rows.length, limit);
}

/** A local date-time input's value as an RFC 3339 instant, or undefined. */
export function isoOf(local: string | undefined): string | undefined {
  if (!local) return undefined;
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

/** A timestamp as a local date-time input's value (YYYY-MM-DDTHH:mm), "" when absent. */
export function localInputOf(at: Timestamp | undefined): string {
  if (!at) return "";
  const d = timestampDate(at);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A local date-time input's value as a timestamp; undefined when empty or not a date (the server says what is missing). */
export function timestampOfInput(local: string | undefined): Timestamp | undefined {
  if (!local) return undefined;
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? undefined : timestampFromDate(at);
}

/** A number input's value as a whole number; undefined when empty (an edit leaves the field as it is). */
export function intOfInput(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? Math.trunc(n) : undefined;
}

/** A comma-separated list of values (a multiple choice's answer) as an array. */
export function listOf(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}
