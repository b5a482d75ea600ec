import { act, screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { renderWithKit } from "@tt/web-kit/testing";
import { afterEach, describe, expect, it } from "vitest";
import { currentToasts, dismissToast, toast } from "@tt/web-kit";
import { Toaster } from "./Toaster.tsx";

afterEach(() => {
  for (const entry of currentToasts()) dismissToast(entry.id);
});

describe("Toaster", () => {
  it("shows a toast raised with toast(), with its tone and description", async () => {
    renderWithKit(<Toaster />);
    act(() => void toast({ title: "Saved.", description: "The room is renamed.", tone: "success" }));
    const title = await screen.findByText("Saved.");
    const item = title.closest(".tt-toast") as HTMLElement;
    expect(item.className).toContain("tt-toast--success");
    expect(within(item).getByText("The room is renamed.")).toBeTruthy();
    // A region screen readers and F8 reach.
    expect(screen.getByRole("region", { name: /Notifications/ })).toBeTruthy();
  });

  it("shows toasts raised before it was mounted (the shell mounts it with the first one)", async () => {
    toast({ title: "Welcome!" });
    renderWithKit(<Toaster />);
    const item = (await screen.findByText("Welcome!")).closest(".tt-toast") as HTMLElement;
    expect(item.className).toContain("tt-toast--info");
  });

  it("dismisses a toast with its button", async () => {
    const user = userEvent.setup();
    renderWithKit(<Toaster />);
    act(() => void toast({ title: "Could not save.", tone: "error" }));
    const item = (await screen.findByText("Could not save.")).closest(".tt-toast") as HTMLElement;
    await user.click(within(item).getByRole("button", { name: "Dismiss" }));
    await waitFor(() => expect(screen.queryByText("Could not save.")).toBeNull());
    expect(currentToasts()).toEqual([]);
  });

  it("dismisses a toast after its time", async () => {
    renderWithKit(<Toaster duration={50} />);
    act(() => void toast({ title: "Done.", tone: "success" }));
    expect(await screen.findByText("Done.")).toBeTruthy();
    await waitFor(() => expect(screen.queryByText("Done.")).toBeNull(), { timeout: 3000 });
  });
});
