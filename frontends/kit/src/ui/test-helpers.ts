// Helpers of the ui entry's component tests (never imported by application code).
import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The declarations of one rule of the token sheet (`.tt-dialog__body` → "flex: 1 1 auto; … overflow-y: auto; …"):
 * jsdom lays nothing out and does not parse the sheet, so a test reads what the sheet says about a class.
 */
export function tokenRule(selector: string): string {
  const css = readFileSync(path.join(import.meta.dirname, "..", "tokens.css"), "utf8");
  const escaped = selector.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(`(?:^|\\n)${escaped} \\{([^}]*)\\}`).exec(css);
  if (!match) throw new Error(`tokens.css has no rule for ${selector}`);
  return match[1]!.replace(/\s+/g, " ").trim();
}
