import { act, screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it, vi } from "vitest";
import { Button } from "./Button.tsx";
import { currentToasts, dismissToast, toast } from "@tt/web-kit";
import { Menu, MenuItem, MenuLabel, MenuSeparator, Popover } from "./Menu.tsx";
import { Toaster } from "./Toaster.tsx";

function renderMenu(onSelect: (what: string) => void) {
  renderWithKit(
    <Menu trigger={<Button>Actions</Button>} label="Song actions">
      <MenuLabel>Song</MenuLabel>
      <MenuItem onSelect={() => onSelect("play")}>Play next</MenuItem>
      <MenuItem onSelect={() => onSelect("like")}>Like</MenuItem>
      <MenuItem disabled onSelect={() => onSelect("grab")}>
        Grab
      </MenuItem>
      <MenuSeparator />
      <MenuItem danger onSelect={() => onSelect("remove")}>
        Remove
      </MenuItem>
    </Menu>,
  );
}

describe("Menu", () => {
  it("opens with Enter on its trigger, arrows move (skipping what is disabled), Enter chooses", async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    renderMenu(onSelect);
    const trigger = screen.getByRole("button", { name: "Actions" });
    expect(trigger.getAttribute("aria-haspopup")).toBe("menu");
    trigger.focus();
    await user.keyboard("{Enter}");
    const menu = await screen.findByRole("menu", { name: "Song actions" });
    expect(trigger.getAttribute("aria-expanded")).toBe("true");
    await waitFor(() => expect(document.activeElement?.textContent).toBe("Play next"));
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement?.textContent).toBe("Like");
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement?.textContent).toBe("Remove");
    await user.keyboard("{ArrowUp}");
    expect(document.activeElement?.textContent).toBe("Like");
    expect(menu.contains(document.activeElement)).toBe(true);
    await user.keyboard("{Enter}");
    expect(onSelect).toHaveBeenCalledWith("like");
    await waitFor(() => expect(screen.queryByRole("menu")).toBeNull());
    expect(document.activeElement).toBe(trigger);
  });

  it("closes on Escape without choosing, and gives focus back to its trigger", async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    renderMenu(onSelect);
    const trigger = screen.getByRole("button", { name: "Actions" });
    trigger.focus();
    await user.keyboard("{Enter}");
    await screen.findByRole("menu");
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("menu")).toBeNull());
    expect(onSelect).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(trigger);
  });

  it("marks disabled items and leaves them out of the choice", async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    renderMenu(onSelect);
    await user.click(screen.getByRole("button", { name: "Actions" }));
    const grab = await screen.findByRole("menuitem", { name: "Grab" });
    expect(grab.getAttribute("aria-disabled")).toBe("true");
    await user.click(grab);
    expect(onSelect).not.toHaveBeenCalled();
    expect(screen.getByRole("menuitem", { name: "Remove" }).className).toContain("tt-menu__item--danger");
  });
});

describe("Popover", () => {
  it("closes on Escape pressed inside it even while a toast it raised is shown (Radix gives Escape to the newest layer)", async () => {
    const user = userEvent.setup();
    renderWithKit(
      <>
        <Popover label="Panel" trigger={<Button>Bell</Button>}>
          <Button onClick={() => toast({ title: "Turned on." })}>Turn on</Button>
        </Popover>
        <Toaster />
      </>,
    );
    const trigger = screen.getByRole("button", { name: "Bell" });
    await user.click(trigger);
    await user.click(await screen.findByRole("button", { name: "Turn on" }));
    await screen.findByText("Turned on.");
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Panel" })).toBeNull());
    expect(trigger.getAttribute("aria-expanded")).toBe("false");
    act(() => currentToasts().forEach((entry) => dismissToast(entry.id)));
  });
});
