// jsdom lays nothing out. For the virtual song lists: every row gets the box a browser would draw it in (rowHeight
// pixels a row from the top of its list, less the list's scroll), the list's box its heights, and elements scroll,
// so dnd-kit's keyboard steps find the row below and TanStack Virtual can scroll a row into view.
import { afterAll, beforeAll } from "vitest";

export function layOutRows(rowHeight: number, listHeight = 560): void {
  const rect = HTMLElement.prototype.getBoundingClientRect;
  const scrollTo = Element.prototype.scrollTo;
  beforeAll(() => {
    HTMLElement.prototype.getBoundingClientRect = function getBoundingClientRect(this: HTMLElement) {
      const row = this.closest<HTMLElement>("[data-index]");
      const box = this.closest<HTMLElement>(".tt-vlist");
      if (row && box) {
        const top = Number(row.dataset.index) * rowHeight - box.scrollTop;
        return new DOMRect(0, top, 800, this.classList.contains("tt-button") ? rowHeight / 2 : rowHeight);
      }
      if (this.classList.contains("tt-vlist")) return new DOMRect(0, 0, 800, listHeight);
      return rect.call(this);
    };
    Element.prototype.scrollTo = function scroll(this: Element, options?: ScrollToOptions | number) {
      if (typeof options === "object" && options.top !== undefined) this.scrollTop = options.top;
      this.dispatchEvent(new Event("scroll"));
    } as Element["scrollTo"];
  });
  afterAll(() => {
    HTMLElement.prototype.getBoundingClientRect = rect;
    Element.prototype.scrollTo = scrollTo;
  });
}
