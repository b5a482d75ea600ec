// Helpers for the room app's component tests over the kit's Radix components in jsdom.
import { configure, fireEvent, screen, within } from "@testing-library/react";
import { currentToasts, dismissToast } from "@tt/web-kit";
import "./jsdom.ts";

// A screen's first visit imports its lazy chunk (and the kit's components): on a loaded machine that takes more than
// the default second.
configure({ asyncUtilTimeout: 10_000 });

/** Chooses a tab (Radix activates a tab on mouse down, as a pointer does). */
export function chooseTab(tab: HTMLElement): void {
  fireEvent.mouseDown(tab, { button: 0, ctrlKey: false });
}

/**
 * Chooses a value of a kit Select inside a form: the picker (a combobox named by its label) keeps a native select
 * beside it for the form, which is what a browser's autofill changes too.
 */
export function choose(picker: HTMLElement, value: string): void {
  const native = picker.parentElement?.querySelector("select");
  if (!native) throw new Error("the picker has no native select beside it (is it inside a form?)");
  fireEvent.change(native, { target: { value } });
}

/**
 * Picks a person in a form's person field (the kit Combobox named by its label): types part of the nickname and
 * clicks the option named by it, as a person does. Waits for the option to be listed (the people load).
 */
export async function pickPerson(form: HTMLElement, label: string, typed: string, nickname: string): Promise<void> {
  const input = within(form).getByRole("combobox", { name: label });
  fireEvent.click(input);
  fireEvent.change(input, { target: { value: typed } });
  const list = await screen.findByRole("listbox", { name: label });
  const option = await within(list).findByRole("option", { name: nickname });
  fireEvent.mouseDown(option);
  if ((input as HTMLInputElement).value !== nickname)
    throw new Error(`the field shows "${(input as HTMLInputElement).value}"`);
}

/** The open confirmation dialog. */
export async function confirmation(): Promise<HTMLElement> {
  return screen.findByRole("alertdialog");
}

/** Confirms the open confirmation dialog with its button. */
export async function confirm(label: string): Promise<void> {
  const dialog = await confirmation();
  fireEvent.click(within(dialog).getByRole("button", { name: label }));
}

/** The toasts raised so far (the shell's Toaster shows them; tests read the queue). */
export function toastTitles(): string[] {
  return currentToasts().map((entry) => entry.title);
}

export function clearToasts(): void {
  for (const entry of currentToasts()) dismissToast(entry.id);
}
