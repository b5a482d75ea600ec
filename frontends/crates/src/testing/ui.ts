// Test helpers for the kit's components as the crates screens use them: the toasts raised (the shell mounts the
// toaster, so a remote's test reads the queue), menus opened the way a person does.
import { configure, screen, within } from "@testing-library/react";
import type { UserEvent } from "@testing-library/user-event";
import { currentToasts, dismissToast, type ToastTone } from "@tt/web-kit";

/** The toasts raised so far, as "tone: title". */
// Screens arrive as lazy chunks (dnd-kit, Radix) that a busy machine imports in more than the default second.
configure({ asyncUtilTimeout: 5_000 });

// Radix measures some controls (the Switch's thumb) with ResizeObserver, which jsdom lacks: nothing is laid out,
// so nothing is ever resized.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

export function toasts(): string[] {
  return currentToasts().map((entry) => `${entry.tone}: ${entry.title}`);
}

export function lastToast(): string | undefined {
  return toasts().at(-1);
}

export function toastsOf(tone: ToastTone): string[] {
  return currentToasts()
    .filter((entry) => entry.tone === tone)
    .map((entry) => entry.title);
}

export function clearToasts(): void {
  for (const entry of currentToasts()) dismissToast(entry.id);
}

/** Opens the menu behind the button named `trigger` and chooses `item` in it. */
export async function chooseFromMenu(user: UserEvent, trigger: string | RegExp, item: string | RegExp) {
  await user.click(screen.getByRole("button", { name: trigger }));
  const menu = await screen.findByRole("menu");
  await user.click(within(menu).getByRole("menuitem", { name: item }));
}
