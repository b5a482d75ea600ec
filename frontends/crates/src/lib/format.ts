const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * A duration in seconds as the crates app shows it (spec 002 §9: days, hours, minutes and seconds):
 * `m:ss` under an hour, `h:mm:ss` under a day, then `<days><unit> h:mm:ss` ("1d 2:03:04"). Fractions
 * of a second are dropped; a negative, missing or non-finite value shows as 0:00.
 */
export function formatDuration(seconds: number | bigint | undefined, dayUnit = "d"): string {
  const value = typeof seconds === "bigint" ? Number(seconds) : (seconds ?? 0);
  const total = Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
  const days = Math.floor(total / DAY);
  const hours = Math.floor((total % DAY) / HOUR);
  const minutes = Math.floor((total % HOUR) / MINUTE);
  const secs = total % MINUTE;
  if (days > 0) return `${days}${dayUnit} ${hours}:${pad(minutes)}:${pad(secs)}`;
  if (hours > 0) return `${hours}:${pad(minutes)}:${pad(secs)}`;
  return `${minutes}:${pad(secs)}`;
}
