import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { renderWithKit } from "@tt/web-kit/testing";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { Combobox } from "./Combobox.tsx";
import { Field } from "./Field.tsx";

const PEOPLE = [
  { value: "u-1", label: "Oscar", description: "In the room now" },
  { value: "u-2", label: "Olivia" },
  { value: "u-3", label: "Frida", description: "Your friend" },
];

function PersonPicker() {
  const [person, setPerson] = useState("");
  return (
    <>
      <Field label="Person">
        <Combobox
          value={person}
          onValueChange={setPerson}
          options={PEOPLE}
          listLabel="Person"
          emptyText="Nobody by that name"
        />
      </Field>
      <output data-testid="chosen">{person || "none"}</output>
    </>
  );
}

describe("Combobox", () => {
  it("filters by what is typed; arrows move, Enter chooses and the input shows the label, not the value", async () => {
    const user = userEvent.setup();
    renderWithKit(<PersonPicker />);
    const input = screen.getByRole("combobox", { name: "Person" });
    await user.type(input, "o");
    const list = await screen.findByRole("listbox", { name: "Person" });
    expect(
      within(list)
        .getAllByRole("option")
        .map((option) => option.getAttribute("aria-selected")),
    ).toEqual(["false", "false"]);
    expect(within(list).getByRole("option", { name: "Oscar" }).getAttribute("aria-describedby")).toBeTruthy();
    expect(input.getAttribute("aria-expanded")).toBe("true");
    await user.keyboard("{ArrowDown}");
    const active = document.getElementById(input.getAttribute("aria-activedescendant")!);
    expect(active?.textContent).toBe("Olivia");
    await user.keyboard("{Enter}");
    expect(screen.getByTestId("chosen").textContent).toBe("u-2");
    expect((input as HTMLInputElement).value).toBe("Olivia");
    expect(input.getAttribute("aria-expanded")).toBe("false");
    expect(document.activeElement).toBe(input);
  });

  it("says so when nothing matches, takes a choice back when typed over, and closes on Escape", async () => {
    const user = userEvent.setup();
    renderWithKit(<PersonPicker />);
    const input = screen.getByRole("combobox", { name: "Person" });
    await user.click(input);
    await user.click(await screen.findByRole("option", { name: "Frida" }));
    expect(screen.getByTestId("chosen").textContent).toBe("u-3");
    await user.type(input, "zz");
    expect(screen.getByTestId("chosen").textContent).toBe("none");
    expect(await screen.findByText("Nobody by that name")).toBeTruthy();
    await user.keyboard("{Escape}");
    await waitFor(() => expect(input.getAttribute("aria-expanded")).toBe("false"));
  });
});
