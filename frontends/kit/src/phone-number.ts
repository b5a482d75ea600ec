/**
 * A number that can receive a text: an optional +, then 8 to 15 digits (E.164), spaces, dots, dashes and
 * brackets allowed between them. Whether it is a real, non-VoIP mobile number only the server can tell.
 */
export function isPlausiblePhoneNumber(input: string): boolean {
  const trimmed = input.trim();
  if (!/^\+?[\d\s().-]+$/.test(trimmed)) return false;
  const digits = trimmed.replace(/\D/g, "");
  return digits.length >= 8 && digits.length <= 15;
}

export function normalisePhoneNumber(input: string): string {
  const trimmed = input.trim();
  return (trimmed.startsWith("+") ? "+" : "") + trimmed.replace(/\D/g, "");
}

/** The server has no such call yet; the screen says so instead of pretending it worked. */
export class FeatureUnavailableError extends Error {
  constructor(feature: string) {
    super(`${feature} is not available on this server yet`);
    this.name = "FeatureUnavailableError";
  }
}

/** By name, not instanceof: a remote may bundle its own copy of the kit's connect entry. */
export function isFeatureUnavailable(error: unknown): error is FeatureUnavailableError {
  return error instanceof Error && error.name === "FeatureUnavailableError";
}
