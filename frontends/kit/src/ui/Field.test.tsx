import { screen } from "@testing-library/react";
import { renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { Checkbox, Field, Input, TextArea } from "./Field.tsx";
import { Select } from "./Select.tsx";

describe("Field", () => {
  it("names its control with the label", () => {
    renderWithKit(
      <Field label="Nickname">
        <Input />
      </Field>,
    );
    const input = screen.getByLabelText("Nickname");
    expect(input.tagName).toBe("INPUT");
    expect(input.id).not.toBe("");
    expect(input.hasAttribute("aria-invalid")).toBe(false);
    expect(input.hasAttribute("aria-describedby")).toBe(false);
  });

  it("keeps the control's own id", () => {
    renderWithKit(
      <Field label="Bio">
        <TextArea id="bio" />
      </Field>,
    );
    expect(screen.getByLabelText("Bio").id).toBe("bio");
  });

  it("describes the control with the hint, then the error, and marks it invalid", () => {
    renderWithKit(
      <Field label="Nickname" hint="Shown in rooms and chat." error="Nickname must be at most 32 characters">
        <Input aria-describedby="outside" />
      </Field>,
    );
    const input = screen.getByLabelText("Nickname");
    expect(input.getAttribute("aria-invalid")).toBe("true");
    const ids = input.getAttribute("aria-describedby")!.split(" ");
    expect(ids[0]).toBe("outside");
    expect(document.getElementById(ids[1]!)?.textContent).toBe("Shown in rooms and chat.");
    const error = document.getElementById(ids[2]!)!;
    expect(error.textContent).toBe("Nickname must be at most 32 characters");
    // Announced as soon as it appears.
    expect(screen.getByRole("alert")).toBe(error);
  });

  it("labels a picker's trigger", () => {
    renderWithKit(
      <Field label="Role">
        <Select options={[{ value: "user", label: "Member" }]} value="user" />
      </Field>,
    );
    expect(screen.getByRole("combobox", { name: "Role" }).textContent).toContain("Member");
  });
});

describe("Checkbox", () => {
  it("is named by the label beside it", () => {
    renderWithKit(<Checkbox label="Remember me" />);
    expect(screen.getByRole("checkbox", { name: "Remember me" })).toBeTruthy();
  });
});
