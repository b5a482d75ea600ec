import { screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { renderWithKit } from "@tt/web-kit/testing";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { Select } from "./Select.tsx";

const ROLES = [
  { value: "user", label: "Member" },
  { value: "moderator", label: "Moderator" },
  { value: "admin", label: "Admin" },
];

function RolePicker({ initial }: { initial?: string }) {
  const [role, setRole] = useState(initial);
  return (
    <>
      <Select aria-label="Role" options={ROLES} value={role} onValueChange={setRole} placeholder="Choose…" />
      <output>{role ?? "none"}</output>
    </>
  );
}

describe("Select", () => {
  it("shows its placeholder until a value is chosen, and the chosen value as words", () => {
    renderWithKit(<RolePicker />);
    expect(screen.getByRole("combobox", { name: "Role" }).textContent).toContain("Choose…");
  });

  it("is chosen from with the keyboard: Enter opens, arrows move, Enter chooses; Escape closes", async () => {
    const user = userEvent.setup();
    renderWithKit(<RolePicker initial="user" />);
    const trigger = screen.getByRole("combobox", { name: "Role" });
    expect(trigger.textContent).toContain("Member");
    trigger.focus();
    await user.keyboard("{Enter}");
    const listbox = await screen.findByRole("listbox");
    expect(listbox).toBeTruthy();
    // Focus starts on the chosen option.
    await waitFor(() => expect(document.activeElement?.textContent).toBe("Member"));
    await user.keyboard("{ArrowDown}{ArrowDown}");
    expect(document.activeElement?.textContent).toBe("Admin");
    await user.keyboard("{Enter}");
    await waitFor(() => expect(screen.queryByRole("listbox")).toBeNull());
    expect(screen.getByRole("status").textContent).toBe("admin");
    expect(trigger.textContent).toContain("Admin");
    expect(document.activeElement).toBe(trigger);

    await user.keyboard("{Enter}");
    await screen.findByRole("listbox");
    await user.keyboard("{ArrowUp}{Escape}");
    await waitFor(() => expect(screen.queryByRole("listbox")).toBeNull());
    expect(screen.getByRole("status").textContent).toBe("admin");
  });

  it("marks the chosen option", async () => {
    const user = userEvent.setup();
    renderWithKit(<RolePicker initial="moderator" />);
    await user.click(screen.getByRole("combobox", { name: "Role" }));
    const option = await screen.findByRole("option", { name: "Moderator" });
    expect(option.getAttribute("aria-selected")).toBe("true");
    expect(screen.getByRole("option", { name: "Admin" }).getAttribute("aria-selected")).toBe("false");
  });
});
