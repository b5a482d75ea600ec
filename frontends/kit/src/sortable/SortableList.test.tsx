import { arrayMove } from "@dnd-kit/sortable";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { useState } from "react";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SortableList } from "./SortableList.tsx";

const ROW = 50;

// jsdom lays nothing out. Each row is given the box a browser would draw it in (ROW pixels a row, from the top of the
// list, less the list's scroll), and the list's box its heights, so dnd-kit's keyboard steps find the row below.
let restore: () => void = () => undefined;
beforeAll(() => {
  const rect = HTMLElement.prototype.getBoundingClientRect;
  HTMLElement.prototype.getBoundingClientRect = function getBoundingClientRect(this: HTMLElement) {
    const row = this.closest<HTMLElement>("[data-index]");
    const box = this.closest<HTMLElement>(".tt-vlist");
    if (row && box) {
      const top = Number(row.dataset.index) * ROW - box.scrollTop;
      return new DOMRect(0, top, 600, this.classList.contains("tt-button") ? ROW / 2 : ROW);
    }
    if (this.classList.contains("tt-vlist")) return new DOMRect(0, 0, 600, 10 * ROW);
    return rect.call(this);
  };
  Element.prototype.scrollTo = function scrollTo(this: Element, options?: ScrollToOptions | number) {
    if (typeof options === "object" && options.top !== undefined) this.scrollTop = options.top;
    this.dispatchEvent(new Event("scroll"));
  } as Element["scrollTo"];
  restore = () => {
    HTMLElement.prototype.getBoundingClientRect = rect;
  };
});
afterAll(() => restore());

function Songs({
  initial,
  onMove,
  disabled,
}: {
  initial: string[];
  onMove: (from: number, to: number) => void;
  disabled?: boolean;
}) {
  const [items, setItems] = useState(initial);
  return (
    <SortableList
      items={items}
      rowHeight={ROW}
      height={10 * ROW}
      label="Songs"
      disabled={disabled}
      getKey={(item) => item}
      getLabel={(item) => item}
      onMove={(from, to) => {
        onMove(from, to);
        setItems((current) => arrayMove(current, from, to));
      }}
      renderRow={(item, index, row) => (
        <div data-testid="row">
          {row.handle}
          <strong>{item}</strong>
          <button type="button" disabled={index === 0} onClick={() => row.move(index - 1)}>
            {`Up ${item}`}
          </button>
        </div>
      )}
    />
  );
}

const order = () =>
  within(screen.getByRole("list", { name: "Songs" }))
    .getAllByTestId("row")
    .map((row) => row.querySelector("strong")?.textContent);

const liveRegion = () => document.querySelector<HTMLElement>('[id^="DndLiveRegion"]');

function render(props: Parameters<typeof Songs>[0], search = "") {
  return renderWithKit(<Songs {...props} />, createTestKit({ search }));
}

describe("SortableList", () => {
  it("labels each row's handle with its name, and describes how to move it with the keyboard", () => {
    render({ initial: ["One", "Two", "Three"], onMove: vi.fn() });
    const handle = screen.getByRole("button", { name: "Move Two" });
    expect(handle.getAttribute("aria-roledescription")).toBe("drag handle");
    const described = document.getElementById(handle.getAttribute("aria-describedby") ?? "");
    expect(described?.textContent).toMatch(/^To pick up an item, press Space or Enter on its handle\./);
  });

  it("moves a row with the keyboard: focus its handle, Space, ArrowDown, Space → onMove(from, to), announced", async () => {
    const user = userEvent.setup();
    const onMove = vi.fn();
    render({ initial: ["One", "Two", "Three", "Four"], onMove });
    const handle = screen.getByRole("button", { name: "Move Two" });
    handle.focus();
    await user.keyboard(" ");
    await waitFor(() => expect(liveRegion()?.textContent).toBe("Picked up Two, at position 2 of 4."));
    await user.keyboard("{ArrowDown}");
    await waitFor(() => expect(liveRegion()?.textContent).toBe("Two is now at position 3 of 4."));
    await user.keyboard("{ArrowDown}");
    await waitFor(() => expect(liveRegion()?.textContent).toBe("Two is now at position 4 of 4."));
    await user.keyboard(" ");
    await waitFor(() => expect(onMove).toHaveBeenCalledWith(1, 3));
    expect(onMove).toHaveBeenCalledTimes(1);
    expect(liveRegion()?.textContent).toBe("Dropped Two at position 4 of 4.");
    expect(order()).toEqual(["One", "Three", "Four", "Two"]);
    // The keyboard stays on the moved row's handle: the next move is one more key press away.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("button", { name: "Move Two" })));
  });

  it("moves up with ArrowUp, and Escape puts the row back where it was without a move", async () => {
    const user = userEvent.setup();
    const onMove = vi.fn();
    render({ initial: ["One", "Two", "Three"], onMove });
    screen.getByRole("button", { name: "Move Three" }).focus();
    await user.keyboard(" ");
    await user.keyboard("{ArrowUp}");
    await waitFor(() => expect(liveRegion()?.textContent).toBe("Three is now at position 2 of 3."));
    await user.keyboard("{Escape}");
    await waitFor(() => expect(liveRegion()?.textContent).toBe("Moving cancelled. Three is back at position 3 of 3."));
    expect(onMove).not.toHaveBeenCalled();
    expect(order()).toEqual(["One", "Two", "Three"]);

    await user.keyboard(" ");
    await user.keyboard("{ArrowUp}");
    await user.keyboard("{ArrowUp}");
    await user.keyboard("{Enter}");
    await waitFor(() => expect(onMove).toHaveBeenCalledWith(2, 0));
    expect(order()).toEqual(["Three", "One", "Two"]);
  });

  it("announces in Spanish on a Spanish page", async () => {
    const user = userEvent.setup();
    render({ initial: ["Uno", "Dos"], onMove: vi.fn() }, "?lang=es");
    const handle = screen.getByRole("button", { name: "Mover Uno" });
    expect(handle.getAttribute("aria-roledescription")).toBe("asa de arrastre");
    expect(document.getElementById(handle.getAttribute("aria-describedby") ?? "")?.textContent).toMatch(
      /^Para coger un elemento, pulsa Espacio o Intro/,
    );
    handle.focus();
    await user.keyboard(" ");
    await waitFor(() => expect(liveRegion()?.textContent).toBe("Has cogido Uno, en la posición 1 de 2."));
    await user.keyboard("{ArrowDown}");
    await waitFor(() => expect(liveRegion()?.textContent).toBe("Uno está ahora en la posición 2 de 2."));
    await user.keyboard(" ");
    await waitFor(() => expect(liveRegion()?.textContent).toBe("Has soltado Uno en la posición 2 de 2."));
  });

  it("moves a row by a row action (row.move), shows the new order at once and keeps the focus in the row", async () => {
    const onMove = vi.fn();
    render({ initial: ["One", "Two", "Three"], onMove });
    const up = screen.getByRole("button", { name: "Up Three" });
    up.focus();
    act(() => fireEvent.click(up));
    expect(onMove).toHaveBeenCalledWith(2, 1);
    expect(order()).toEqual(["One", "Three", "Two"]);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("button", { name: "Up Three" })));
  });

  it("has no handles and moves nothing when reordering is off", () => {
    render({ initial: ["One", "Two"], onMove: vi.fn(), disabled: true });
    expect(screen.queryByRole("button", { name: "Move One" })).toBeNull();
    expect(order()).toEqual(["One", "Two"]);
  });

  it("draws only the rows in view of a long list, and keeps the dragged row drawn while the list scrolls", async () => {
    const user = userEvent.setup();
    const songs = Array.from({ length: 2_000 }, (_, i) => `Song ${i}`);
    const { container } = render({ initial: songs, onMove: vi.fn() });
    expect(order().length).toBeLessThan(30);
    screen.getByRole("button", { name: "Move Song 1" }).focus();
    await user.keyboard(" ");
    await waitFor(() => expect(liveRegion()?.textContent).toBe("Picked up Song 1, at position 2 of 2000."));
    const box = container.querySelector(".tt-vlist") as HTMLElement;
    act(() => {
      box.scrollTop = 40_000;
      fireEvent.scroll(box);
    });
    expect(order()).toContain("Song 800");
    expect(order()).toContain("Song 1");
    await user.keyboard("{Escape}");
    await waitFor(() => expect(order()).not.toContain("Song 1"));
  });
});
