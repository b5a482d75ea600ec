// What the admin's component tests share: driving the kit's menus, pickers and dialogs as a person does, and
// reading the toasts. Never imported by the console itself.
import { configure, screen, within } from "@testing-library/react";
import type { userEvent } from "@testing-library/user-event";
import { currentToasts } from "@tt/web-kit";

type User = ReturnType<typeof userEvent.setup>;

// A screen's first render in a test file loads the kit's components and the generated avatars' art: on a busy
// machine that takes longer than Testing Library's one second, so queries wait up to ten.
configure({ asyncUtilTimeout: 10_000 });

// Radix's pickers ask the pointer and scrolling APIs that jsdom leaves out.
const proto = Element.prototype as unknown as Record<string, unknown>;
proto["hasPointerCapture"] ??= () => false;
proto["releasePointerCapture"] ??= () => undefined;
proto["scrollIntoView"] ??= () => undefined;

/** Opens the "…" menu of the row named `row` and chooses `action` in it. */
export async function rowAction(user: User, row: string, action: string) {
  await user.click(screen.getByRole("button", { name: `Actions for ${row}` }));
  await user.click(await screen.findByRole("menuitem", { name: action }));
}

/** Chooses `option` in the picker labelled `label` (inside `scope`, the page by default). */
export async function pick(user: User, label: string, option: string, scope: HTMLElement = document.body) {
  await user.click(within(scope).getByLabelText(label));
  await user.click(await screen.findByRole("option", { name: option }));
}

/** The picker's shown choice. */
export function picked(label: string, scope: HTMLElement = document.body): string {
  return within(scope).getByLabelText(label).textContent ?? "";
}

/** The title of the newest toast (the outcome of the last action). */
export function lastToast(): string | undefined {
  const last = currentToasts().at(-1);
  return last ? [last.title, last.description].filter(Boolean).join(" · ") : undefined;
}
