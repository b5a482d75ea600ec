// Whether a chat message names someone with `@nickname`: the web room highlights the reader's mentions with it and a
// bot's mention handler fires on it, so both read a mention the same way. Imports nothing of Node or of the DOM.

/** Whether a message's text mentions `@nickname` (case-insensitive, as a whole name). */
export function mentions(text: string, nickname: string | undefined): boolean {
  if (!nickname) return false;
  const escaped = nickname.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\p{L}\\p{N}_])@${escaped}(?![\\p{L}\\p{N}_])`, "iu").test(text);
}
