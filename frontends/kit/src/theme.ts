// The colour theme: "system" (follow prefers-color-scheme, the default), "dark" or "light", remembered per browser.
// tokens.css reads <html data-theme>; without the attribute the system preference decides.
import { useSyncExternalStore } from "react";

export type ThemeChoice = "system" | "dark" | "light";
export const THEME_STORAGE_KEY = "tt-theme";

const listeners = new Set<() => void>();

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

export function getThemeChoice(): ThemeChoice {
  const stored = storage()?.getItem(THEME_STORAGE_KEY);
  return stored === "dark" || stored === "light" ? stored : "system";
}

/** The theme the page shows now: the choice, or the system's preference. */
export function resolvedTheme(choice: ThemeChoice = getThemeChoice()): "dark" | "light" {
  if (choice !== "system") return choice;
  return globalThis.matchMedia?.("(prefers-color-scheme: light)").matches ? "light" : "dark";
}

/** Puts the remembered choice on <html>; the shell calls it before its first render. */
export function applyTheme(choice: ThemeChoice = getThemeChoice()): void {
  const root = globalThis.document?.documentElement;
  if (!root) return;
  if (choice === "system") root.removeAttribute("data-theme");
  else root.dataset["theme"] = choice;
}

export function setThemeChoice(choice: ThemeChoice): void {
  if (choice === "system") storage()?.removeItem(THEME_STORAGE_KEY);
  else storage()?.setItem(THEME_STORAGE_KEY, choice);
  applyTheme(choice);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const media = globalThis.matchMedia?.("(prefers-color-scheme: light)");
  media?.addEventListener("change", listener);
  return () => {
    listeners.delete(listener);
    media?.removeEventListener("change", listener);
  };
}

/** The current choice and the theme it resolves to, re-rendering when either changes. */
export function useTheme(): { choice: ThemeChoice; theme: "dark" | "light"; setChoice: (choice: ThemeChoice) => void } {
  const choice = useSyncExternalStore(subscribe, getThemeChoice, () => "system" as const);
  const theme = useSyncExternalStore(
    subscribe,
    () => resolvedTheme(choice),
    () => "dark" as const,
  );
  return { choice, theme, setChoice: setThemeChoice };
}
