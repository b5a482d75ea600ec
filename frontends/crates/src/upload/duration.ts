/** Longest duration the upload service takes (seconds): 3 hours. */
export const MAX_DURATION_S = 3 * 60 * 60;

/** "3:25" → 205, "1:02:05" → 3725, "205" → 205; undefined when it is neither. */
export function parseDuration(text: string): number | undefined {
  const value = text.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
  const clock = /^(?:(\d+):)?(\d{1,2}):(\d{2})$/.exec(value);
  if (!clock) return undefined;
  const [, hours = "0", minutes = "0", seconds = "0"] = clock;
  if (Number(seconds) > 59 || (clock[1] !== undefined && Number(minutes) > 59)) return undefined;
  return Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds);
}
