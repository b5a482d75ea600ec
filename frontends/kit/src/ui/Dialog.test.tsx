import { Code, ConnectError } from "@connectrpc/connect";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { renderWithKit } from "@tt/web-kit/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { currentToasts, dismissToast } from "@tt/web-kit";
import { Button } from "./Button.tsx";
import { ConfirmDialog, Dialog, DialogClose } from "./Dialog.tsx";
import { Input } from "./Field.tsx";
import { tokenRule } from "./test-helpers.ts";
import { Toaster } from "./Toaster.tsx";

function EditDialog({ rows = 0 }: { rows?: number }) {
  return (
    <Dialog
      trigger={<Button>Edit room</Button>}
      title="Edit the room"
      description="Changes show to everyone in the room."
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">Cancel</Button>
          </DialogClose>
          <Button>Confirm</Button>
        </>
      }
    >
      <Input aria-label="Name" />
      {Array.from({ length: rows }, (_, row) => (
        <p key={row}>Row {row}</p>
      ))}
    </Dialog>
  );
}

describe("Dialog", () => {
  it("opens from its trigger, named by its title and described by its description", async () => {
    const user = userEvent.setup();
    renderWithKit(<EditDialog />);
    expect(screen.queryByRole("dialog")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Edit room" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit the room" });
    expect(dialog.getAttribute("aria-describedby")).toBe(screen.getByText("Changes show to everyone in the room.").id);
  });

  it("moves focus in and keeps it there: Tab and Shift+Tab cycle through the dialog's controls", async () => {
    const user = userEvent.setup();
    renderWithKit(
      <>
        <button type="button">Before</button>
        <EditDialog />
        <button type="button">After</button>
      </>,
    );
    await user.click(screen.getByRole("button", { name: "Edit room" }));
    const dialog = await screen.findByRole("dialog");
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    // The close button, the field, Cancel, Confirm — then round again, never to the page behind.
    const seen: string[] = [];
    for (let step = 0; step < 8; step++) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
      seen.push(document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent ?? "");
    }
    expect(new Set(seen)).toEqual(new Set(["Close", "Name", "Cancel", "Confirm"]));
    for (let step = 0; step < 5; step++) {
      await user.tab({ shift: true });
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
  });

  it("lets a form put focus on its first field as it opens", async () => {
    const user = userEvent.setup();
    renderWithKit(
      <Dialog
        trigger={<Button>Edit name</Button>}
        title="Edit your name"
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          document.getElementById("name-field")?.focus();
        }}
      >
        <Input id="name-field" aria-label="Name" />
      </Dialog>,
    );
    await user.click(screen.getByRole("button", { name: "Edit name" }));
    const dialog = await screen.findByRole("dialog");
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole("textbox", { name: "Name" })));
  });

  it("closes on Escape and gives focus back to its trigger", async () => {
    const user = userEvent.setup();
    renderWithKit(<EditDialog />);
    const trigger = screen.getByRole("button", { name: "Edit room" });
    await user.click(trigger);
    await screen.findByRole("dialog");
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(document.activeElement).toBe(trigger);
  });

  it("closes from its close button and from a DialogClose", async () => {
    const user = userEvent.setup();
    renderWithKit(<EditDialog />);
    await user.click(screen.getByRole("button", { name: "Edit room" }));
    await user.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await user.click(screen.getByRole("button", { name: "Edit room" }));
    await user.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("scrolls its body when taller than the screen, keeping the title and the footer's buttons in reach", async () => {
    const user = userEvent.setup();
    renderWithKit(<EditDialog rows={200} />);
    await user.click(screen.getByRole("button", { name: "Edit room" }));
    const dialog = await screen.findByRole("dialog");
    // The structure: header, body, footer as the dialog's children; the rows and the field in the body only.
    const parts = [...dialog.children].map((child) => child.className);
    expect(parts).toEqual(["tt-dialog__header", "tt-dialog__description", "tt-dialog__body", "tt-dialog__footer"]);
    const body = dialog.querySelector(".tt-dialog__body")!;
    expect(body.contains(screen.getByText("Row 199"))).toBe(true);
    const footer = dialog.querySelector(".tt-dialog__footer")!;
    expect(within(footer as HTMLElement).getByRole("button", { name: "Confirm" })).toBeTruthy();
    // The sheet: the dialog is a column no taller than the viewport (at 1280 × 800 and 390 × 844 alike), and the
    // body is the part that scrolls.
    const dialogRule = tokenRule(".tt-dialog");
    expect(dialogRule).toContain("display: flex;");
    expect(dialogRule).toContain("flex-direction: column;");
    expect(dialogRule).toMatch(/max-height: calc\(100dvh - [\d.]+rem\);/);
    expect(dialogRule).toMatch(/width: min\([\d.]+rem, calc\(100vw - [\d.]+rem\)\);/);
    const bodyRule = tokenRule(".tt-dialog__body");
    expect(bodyRule).toContain("overflow-y: auto;");
    expect(bodyRule).toContain("min-height: 0;");
    expect(tokenRule(".tt-dialog__footer")).not.toContain("overflow");
  });
});

describe("ConfirmDialog", () => {
  // The toast queue is the page's: each test starts without the last one's.
  afterEach(() => {
    for (const entry of currentToasts()) dismissToast(entry.id);
  });

  function setup(onConfirm: () => Promise<unknown>) {
    const user = userEvent.setup();
    renderWithKit(
      <>
        <ConfirmDialog
          trigger={<Button variant="danger">Ban</Button>}
          title="Ban Ada?"
          description="She will not be able to join your rooms."
          confirmLabel="Ban her"
          tone="danger"
          onConfirm={onConfirm}
          successMessage="Ada is banned."
        />
        <Toaster />
      </>,
    );
    return user;
  }

  it("runs the action, closes and tells the outcome as a toast", async () => {
    const onConfirm = vi.fn(async () => undefined);
    const user = setup(onConfirm);
    await user.click(screen.getByRole("button", { name: "Ban" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Ban Ada?" });
    await user.click(within(dialog).getByRole("button", { name: "Ban her" }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(await screen.findByText("Ada is banned.")).toBeTruthy();
  });

  it("shows the server's message inside itself on failure and stays open; the button is busy meanwhile", async () => {
    let fail!: (error: unknown) => void;
    const onConfirm = vi.fn(() => new Promise((_resolve, reject) => (fail = reject)));
    const user = setup(onConfirm);
    await user.click(screen.getByRole("button", { name: "Ban" }));
    const dialog = await screen.findByRole("alertdialog");
    await user.click(within(dialog).getByRole("button", { name: "Ban her" }));
    const confirm = within(dialog).getByRole("button", { name: "Ban her" });
    expect(confirm.getAttribute("aria-busy")).toBe("true");
    fail(new ConnectError("you cannot ban the room's owner", Code.PermissionDenied));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("You cannot ban the room's owner");
    expect(screen.getByRole("alertdialog")).toBe(dialog);
    expect(confirm.hasAttribute("aria-busy")).toBe(false);
    expect(screen.queryByText("Ada is banned.")).toBeNull();
    // Cancel closes it; opening it again starts without the old message.
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    await user.click(screen.getByRole("button", { name: "Ban" }));
    expect(within(await screen.findByRole("alertdialog")).queryByRole("alert")).toBeNull();
  });

  it("shows the generic text for a server failure (5xx)", async () => {
    const user = setup(async () => {
      throw new ConnectError("database on fire", Code.Internal);
    });
    await user.click(screen.getByRole("button", { name: "Ban" }));
    const dialog = await screen.findByRole("alertdialog");
    await user.click(within(dialog).getByRole("button", { name: "Ban her" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Something went wrong, please try again.");
  });
});
