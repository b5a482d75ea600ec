// The kit's virtual list (TanStack Virtual): what the crates app's hand-written list asserted before it was
// replaced — only the rows in view are drawn, the window follows the scroll, the end asks for more, a row to keep
// in view is scrolled to — plus the rows pinned while a drag holds them.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { installFollowObserver } from "../testing/follow-observer.ts";
import { VirtualList, type VirtualListProps } from "./VirtualList.tsx";

afterEach(cleanup);

// jsdom lays nothing out and has no Element.scrollTo: the list's box is given the heights a browser would compute
// (its content as tall as the list inside, itself at most `height`) and scrolls by its scrollTop.
beforeAll(() => {
  Element.prototype.scrollTo = function scrollTo(this: Element, options?: ScrollToOptions | number) {
    if (typeof options === "object" && options.top !== undefined) this.scrollTop = options.top;
    this.dispatchEvent(new Event("scroll"));
  } as Element["scrollTo"];
  const content = (element: HTMLElement) =>
    parseFloat((element.firstElementChild as HTMLElement | null)?.style.height ?? "0");
  Object.defineProperty(HTMLElement.prototype, "scrollHeight", {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains("tt-vlist") ? content(this) : 0;
    },
  });
  Object.defineProperty(HTMLElement.prototype, "clientHeight", {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains("tt-vlist") ? Math.min(content(this), parseFloat(this.style.maxHeight)) : 0;
    },
  });
  // A scroll past the end stops at the end, as a browser's box does.
  const tops = new WeakMap<Element, number>();
  Object.defineProperty(HTMLElement.prototype, "scrollTop", {
    configurable: true,
    get(this: HTMLElement) {
      return tops.get(this) ?? 0;
    },
    set(this: HTMLElement, top: number) {
      const max = this.classList.contains("tt-vlist") ? Math.max(0, this.scrollHeight - this.clientHeight) : top;
      tops.set(this, Math.max(0, Math.min(top, max)));
    },
  });
});

afterAll(() => {
  for (const name of ["scrollHeight", "clientHeight", "scrollTop"]) Reflect.deleteProperty(HTMLElement.prototype, name);
});

const items = Array.from({ length: 1_000 }, (_, i) => `song ${i}`);

const base: VirtualListProps<string> = {
  items,
  rowHeight: 50,
  height: 500,
  overscan: 2,
  label: "Songs",
  getKey: (item) => item,
  renderRow: (item) => item,
};

const drawn = () =>
  within(screen.getByRole("list", { name: "Songs" }))
    .queryAllByRole("listitem")
    .map((row) => row.textContent);

function scrollTo(container: HTMLElement, top: number) {
  const box = container.querySelector(".tt-vlist") as HTMLElement;
  act(() => {
    box.scrollTop = top;
    fireEvent.scroll(box);
  });
  return box;
}

describe("VirtualList", () => {
  it("renders only the rows in view plus the overscan, each saying its place in the whole", () => {
    render(<VirtualList {...base} />);
    const rows = within(screen.getByRole("list", { name: "Songs" })).getAllByRole("listitem");
    expect(rows.map((row) => row.textContent)).toEqual(items.slice(0, 12));
    expect(rows[0]?.getAttribute("aria-setsize")).toBe("1000");
    expect(rows[3]?.getAttribute("aria-posinset")).toBe("4");
    // The list is as tall as every row, so the scroll bar is the whole crate's.
    expect((screen.getByRole("list", { name: "Songs" }) as HTMLElement).style.height).toBe("50000px");
  });

  it("says the total when more exist than are loaded", () => {
    render(<VirtualList {...base} total={4_321} />);
    expect(within(screen.getByRole("list")).getAllByRole("listitem")[0]?.getAttribute("aria-setsize")).toBe("4321");
  });

  it("moves the window when scrolled and asks for more at the end", () => {
    const onEndReached = vi.fn();
    const { container } = render(<VirtualList {...base} onEndReached={onEndReached} />);
    expect(onEndReached).not.toHaveBeenCalled();
    scrollTo(container, 25_000);
    const rows = screen.getAllByRole("listitem");
    expect(rows[0]?.textContent).toBe("song 498");
    expect(rows[0]?.getAttribute("aria-posinset")).toBe("499");
    scrollTo(container, 49_500);
    expect(drawn().at(-1)).toBe("song 999");
    expect(onEndReached).toHaveBeenCalledTimes(1);
  });

  it.each([
    // scrollTop, count, overscan → first and last row drawn (the hand-written list's visibleRange table)
    [0, 0, 2, undefined, undefined],
    [0, 3, 2, "song 0", "song 2"],
    [0, 100, 0, "song 0", "song 9"],
    [1_000, 100, 5, "song 15", "song 34"],
    [10_000, 100, 5, "song 85", "song 99"],
  ])("scrolled to %i of %i rows with overscan %i: draws %s to %s", (top, count, overscan, first, last) => {
    const { container } = render(<VirtualList {...base} items={items.slice(0, count)} overscan={overscan} />);
    // A scroll past the end stops at the end, as a browser's box does.
    scrollTo(container, Math.min(top, Math.max(0, count * 50 - 500)));
    const rows = drawn();
    expect(rows[0]).toBe(first);
    expect(rows.at(-1)).toBe(last);
  });

  it("scrolls a row it must keep in view into the window", () => {
    const props = { ...base, overscan: 0 };
    const { container, rerender } = render(<VirtualList {...props} keepInView={3} />);
    const box = container.querySelector(".tt-vlist") as HTMLElement;
    expect(box.scrollTop).toBe(0);
    act(() => rerender(<VirtualList {...props} keepInView={40} />));
    expect(box.scrollTop).toBe(41 * 50 - 500);
    expect(drawn().at(-1)).toBe("song 40");
    act(() => rerender(<VirtualList {...props} keepInView={5} />));
    expect(box.scrollTop).toBe(250);
    expect(drawn()[0]).toBe("song 5");
  });

  it("follows the end when asked (a chat): added rows are scrolled to, and the reader leaving or coming back is told", async () => {
    const restore = installFollowObserver();
    onTestFinished(restore);
    const onFollowEndChange = vi.fn();
    const props = { ...base, overscan: 0, onFollowEndChange };
    const { container, rerender } = render(<VirtualList {...props} items={items.slice(0, 20)} followEnd />);
    const box = container.querySelector(".tt-vlist") as HTMLElement;
    // (jsdom sends no scroll event for a write, as a browser does: the test sends it.)
    const landed = async (top: number) => {
      await waitFor(() => expect(box.scrollTop).toBe(top));
      act(() => void fireEvent.scroll(box));
    };
    await landed(20 * 50 - 500);
    expect(drawn().at(-1)).toBe("song 19");
    // Rows added: the list is at its end again in the next frame. The scroll event of its last write may arrive
    // after them (the end moved on): that is not the reader leaving.
    rerender(<VirtualList {...props} items={items.slice(0, 30)} followEnd />);
    fireEvent.scroll(box);
    await landed(30 * 50 - 500);
    expect(drawn().at(-1)).toBe("song 29");
    expect(onFollowEndChange).not.toHaveBeenCalled();
    // The reader scrolls up: told, and (no longer following) the rows added next leave them where they read.
    scrollTo(container, 200);
    expect(onFollowEndChange).toHaveBeenLastCalledWith(false);
    rerender(<VirtualList {...props} items={items.slice(0, 40)} followEnd={false} />);
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(box.scrollTop).toBe(200);
    // Back near the end: told, to follow again.
    scrollTo(container, 40 * 50 - 500 - 20);
    expect(onFollowEndChange).toHaveBeenLastCalledWith(true);
    expect(onFollowEndChange).toHaveBeenCalledTimes(2);
  });

  it("keeps a pinned row drawn however far the list scrolls from it (a row being dragged)", () => {
    const { container, rerender } = render(<VirtualList {...base} pinned={[1]} />);
    scrollTo(container, 25_000);
    expect(drawn()[0]).toBe("song 1");
    expect(drawn()[1]).toBe("song 498");
    // Unpinned, it goes like any other row out of view.
    act(() => rerender(<VirtualList {...base} />));
    expect(drawn()).not.toContain("song 1");
  });
});
