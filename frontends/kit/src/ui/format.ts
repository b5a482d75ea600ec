// Dates, times and numbers in the reader's language and time zone: "2 December, 01:30", never an ISO string.
import { useAppTranslation } from "@tt/web-kit";

type DateInput =
  | Date
  | string
  | number
  | bigint
  | { toDate(): Date }
  | { seconds: bigint | number; nanos?: number }
  | undefined
  | null;

function toDate(value: DateInput): Date | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  if (typeof value === "object" && "toDate" in value) return value.toDate();
  // A google.protobuf.Timestamp as protobuf-es v2 makes it (a plain message: seconds and nanos, no methods).
  if (typeof value === "object" && "seconds" in value) {
    return new Date(Number(value.seconds) * 1000 + Math.floor((value.nanos ?? 0) / 1_000_000));
  }
  const date = new Date(typeof value === "bigint" ? Number(value) : value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export interface Formatters {
  /** "2 December 2026" */
  date(value: DateInput): string;
  /** "2 December, 01:30" (the year when it is not this one) */
  dateTime(value: DateInput): string;
  /** "01:30" */
  time(value: DateInput): string;
  /** "Dec 2, 01:30" this year, "Dec 2, 2025" another: for tables and other tight places. */
  short(value: DateInput): string;
  /** "3 minutes ago", "in 2 days" */
  relative(value: DateInput, now?: Date): string;
  /** "12,345" */
  number(value: number | bigint): string;
  /** "3:07", "1:02:05", "2d 1:00:00" from seconds (spec 002 §9: days, hours, minutes and seconds) */
  duration(seconds: number | bigint | undefined): string;
}

/** An Intl formatter made on its first use and kept: making one costs far more than formatting with it. */
function lazy<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

export function createFormatters(locale: string): Formatters {
  const dateFormat = lazy(() => new Intl.DateTimeFormat(locale, { day: "numeric", month: "long", year: "numeric" }));
  const dateTimeFormat = lazy(
    () => new Intl.DateTimeFormat(locale, { day: "numeric", month: "long", hour: "2-digit", minute: "2-digit" }),
  );
  const dateTimeYearFormat = lazy(
    () =>
      new Intl.DateTimeFormat(locale, {
        day: "numeric",
        month: "long",
        year: "numeric",
        hour: "2-digit",
        minute: "2-digit",
      }),
  );
  const timeFormat = lazy(() => new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit" }));
  const shortFormat = lazy(
    () => new Intl.DateTimeFormat(locale, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }),
  );
  const shortYearFormat = lazy(
    () => new Intl.DateTimeFormat(locale, { month: "short", day: "numeric", year: "numeric" }),
  );
  const relativeFormat = lazy(() => new Intl.RelativeTimeFormat(locale, { numeric: "auto" }));
  const numberFormat = lazy(() => new Intl.NumberFormat(locale));
  const dayFormat = lazy(() => new Intl.NumberFormat(locale, { style: "unit", unit: "day", unitDisplay: "narrow" }));
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ["year", 365 * 24 * 3600],
    ["month", 30 * 24 * 3600],
    ["week", 7 * 24 * 3600],
    ["day", 24 * 3600],
    ["hour", 3600],
    ["minute", 60],
  ];
  return {
    date: (value) => {
      const date = toDate(value);
      return date ? dateFormat().format(date) : "";
    },
    dateTime: (value) => {
      const date = toDate(value);
      if (!date) return "";
      return (date.getFullYear() === new Date().getFullYear() ? dateTimeFormat() : dateTimeYearFormat()).format(date);
    },
    time: (value) => {
      const date = toDate(value);
      return date ? timeFormat().format(date) : "";
    },
    short: (value) => {
      const date = toDate(value);
      if (!date) return "";
      return (date.getFullYear() === new Date().getFullYear() ? shortFormat() : shortYearFormat()).format(date);
    },
    relative: (value, now = new Date()) => {
      const date = toDate(value);
      if (!date) return "";
      const seconds = (date.getTime() - now.getTime()) / 1000;
      for (const [unit, size] of units) {
        if (Math.abs(seconds) >= size) return relativeFormat().format(Math.round(seconds / size), unit);
      }
      return relativeFormat().format(0, "minute");
    },
    number: (value) => numberFormat().format(value),
    duration: (seconds) => {
      // Fractions of a second are dropped (a song of 59.9 s is not "1:00"); missing, negative or endless is 0:00.
      const value = typeof seconds === "bigint" ? Number(seconds) : (seconds ?? 0);
      const whole = Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
      const days = Math.floor(whole / 86_400);
      const hours = Math.floor((whole % 86_400) / 3600);
      const minutes = Math.floor((whole % 3600) / 60);
      const rest = String(whole % 60).padStart(2, "0");
      if (days > 0) return `${dayFormat().format(days)} ${hours}:${String(minutes).padStart(2, "0")}:${rest}`;
      return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
    },
  };
}

/**
 * The formatters of each language, made once for the page: every component that formats (a chat row, a table cell)
 * shares them rather than making its own Intl objects when it mounts (issue 25: a chat at four messages a second
 * mounted rows, each making nine, in npm run bench:room-page's profile).
 */
const byLocale = new Map<string, Formatters>();

/** Formatters for the page's current language (the reader's time zone is the browser's). */
export function useFormat(): Formatters {
  const { language } = useAppTranslation("common");
  let formatters = byLocale.get(language);
  if (!formatters) {
    formatters = createFormatters(language);
    byLocale.set(language, formatters);
  }
  return formatters;
}
