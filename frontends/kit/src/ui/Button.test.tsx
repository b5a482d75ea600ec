import { screen } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { renderWithKit } from "@tt/web-kit/testing";
import { Plus } from "lucide-react";
import { describe, expect, it, vi } from "vitest";
import { Button, buttonClass, IconButton } from "./Button.tsx";

describe("Button", () => {
  it("runs its action on a click and on Enter", async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    renderWithKit(<Button onClick={onClick}>Save</Button>);
    const button = screen.getByRole("button", { name: "Save" });
    expect(button.getAttribute("type")).toBe("button");
    await user.click(button);
    button.focus();
    await user.keyboard("{Enter}");
    expect(onClick).toHaveBeenCalledTimes(2);
  });

  it("is busy: keeps its label, shows a spinner, says so, and refuses clicks", async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    renderWithKit(
      <Button busy onClick={onClick} icon={<Plus data-testid="icon" />}>
        Save
      </Button>,
    );
    const button = screen.getByRole("button", { name: "Save" });
    expect(button.getAttribute("aria-busy")).toBe("true");
    expect(button).toHaveProperty("disabled", true);
    // The spinner stands in for the icon, so the width does not jump.
    expect(button.querySelector(".tt-spinner")?.getAttribute("aria-hidden")).toBe("true");
    expect(screen.queryByTestId("icon")).toBeNull();
    await user.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it("is disabled: not clickable, not busy", async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    renderWithKit(
      <Button disabled onClick={onClick}>
        Save
      </Button>,
    );
    const button = screen.getByRole("button", { name: "Save" });
    expect(button).toHaveProperty("disabled", true);
    expect(button.hasAttribute("aria-busy")).toBe(false);
    await user.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it("has the variant's and size's classes, which links can take too", () => {
    renderWithKit(
      <Button variant="danger" size="sm">
        Delete
      </Button>,
    );
    expect(screen.getByRole("button").className).toBe("tt-button tt-button--danger tt-button--sm");
    expect(buttonClass()).toBe("tt-button");
    expect(buttonClass("secondary", "md", "wide")).toBe("tt-button tt-button--secondary wide");
  });
});

describe("IconButton", () => {
  it("is named by its label, which is also its tooltip; the icon is decoration", () => {
    renderWithKit(<IconButton label="Add a song" icon={<Plus aria-hidden="true" />} />);
    const button = screen.getByRole("button", { name: "Add a song" });
    expect(button.getAttribute("title")).toBe("Add a song");
    expect(button.textContent).toBe("");
    expect(button.className).toContain("tt-button--icon");
  });

  it("is busy like a button", () => {
    renderWithKit(<IconButton label="Add a song" icon={<Plus />} busy />);
    const button = screen.getByRole("button", { name: "Add a song" });
    expect(button.getAttribute("aria-busy")).toBe("true");
    expect(button).toHaveProperty("disabled", true);
  });
});
