import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { visibleRange, VirtualList } from "./VirtualList.tsx";

afterEach(cleanup);

const items = Array.from({ length: 1_000 }, (_, i) => `song ${i}`);

describe("VirtualList", () => {
  it("renders only the rows in view plus the overscan", () => {
    render(
      <VirtualList
        items={items}
        rowHeight={50}
        height={500}
        overscan={2}
        label="Songs"
        getKey={(item) => item}
        renderRow={(item) => item}
      />,
    );
    const rows = within(screen.getByRole("list", { name: "Songs" })).getAllByRole("listitem");
    expect(rows.map((row) => row.textContent)).toEqual(items.slice(0, 12));
    expect(rows[0]?.getAttribute("aria-setsize")).toBe("1000");
  });

  it("moves the window when scrolled and asks for more at the end", () => {
    const onEndReached = vi.fn();
    const { container } = render(
      <VirtualList
        items={items}
        rowHeight={50}
        height={500}
        overscan={2}
        label="Songs"
        getKey={(item) => item}
        renderRow={(item) => item}
        onEndReached={onEndReached}
      />,
    );
    expect(onEndReached).not.toHaveBeenCalled();
    const box = container.querySelector(".tt-vlist") as HTMLElement;
    box.scrollTop = 25_000;
    fireEvent.scroll(box);
    const rows = screen.getAllByRole("listitem");
    expect(rows[0]?.textContent).toBe("song 498");
    expect(rows[0]?.getAttribute("aria-posinset")).toBe("499");
    box.scrollTop = 49_500;
    fireEvent.scroll(box);
    expect(screen.getAllByRole("listitem").at(-1)?.textContent).toBe("song 999");
    expect(onEndReached).toHaveBeenCalledTimes(1);
  });

  it("scrolls a row it must keep in view into the window", () => {
    const props = {
      items,
      rowHeight: 50,
      height: 500,
      overscan: 0,
      label: "Songs",
      getKey: (item: string) => item,
      renderRow: (item: string) => item,
    };
    const { container, rerender } = render(<VirtualList {...props} keepInView={3} />);
    const box = container.querySelector(".tt-vlist") as HTMLElement;
    expect(box.scrollTop).toBe(0);
    rerender(<VirtualList {...props} keepInView={40} />);
    expect(box.scrollTop).toBe(41 * 50 - 500);
    expect(screen.getAllByRole("listitem").at(-1)?.textContent).toBe("song 40");
    rerender(<VirtualList {...props} keepInView={5} />);
    expect(box.scrollTop).toBe(250);
    expect(screen.getAllByRole("listitem")[0]?.textContent).toBe("song 5");
  });

  it.each([
    [0, 500, 50, 0, 2, 0, 0],
    [0, 500, 50, 3, 2, 0, 3],
    [0, 500, 50, 100, 0, 0, 10],
    [1_000, 500, 50, 100, 5, 15, 35],
    [10_000, 500, 50, 100, 5, 100, 100],
  ])("visibleRange(%i, %i, %i, %i, %i) = [%i, %i)", (scrollTop, height, rowHeight, count, overscan, first, last) => {
    expect(visibleRange(scrollTop, height, rowHeight, count, overscan)).toEqual({ first, last });
  });
});
