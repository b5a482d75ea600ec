// What jsdom lacks and the kit's Radix and TanStack Virtual components use: a ResizeObserver (the slider measures its
// thumb) and element scrolling (the chat keeps its newest message in view). Imported by the room app's tests.
class NoResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

if (typeof globalThis.ResizeObserver === "undefined") {
  globalThis.ResizeObserver = NoResizeObserver as unknown as typeof ResizeObserver;
}
if (typeof Element !== "undefined") {
  const scrollTo = Element.prototype.scrollTo as
    ((this: Element, options?: ScrollToOptions | number, y?: number) => void) | undefined;
  Element.prototype.scrollTo = function (this: Element, options?: ScrollToOptions | number, y?: number) {
    if (this.classList.contains("tt-vlist") && typeof options === "object" && options.top !== undefined) {
      this.scrollTop = options.top;
      this.dispatchEvent(new Event("scroll"));
      return;
    }
    if (typeof options === "number") scrollTo?.call(this, options, y ?? 0);
    else scrollTo?.call(this, options as ScrollToOptions);
  } as Element["scrollTo"];
}
if (typeof Element !== "undefined" && !Element.prototype.scrollIntoView) {
  Element.prototype.scrollIntoView = function scrollIntoView() {};
}

// jsdom lays nothing out: a virtual list's box is as tall as its max-height and each of its rows 64 px, so the list
// draws the rows a browser would.
if (typeof HTMLElement !== "undefined") {
  const heightOf = (name: "clientHeight" | "offsetHeight") =>
    Object.getOwnPropertyDescriptor(HTMLElement.prototype, name);
  const client = heightOf("clientHeight") ?? Object.getOwnPropertyDescriptor(Element.prototype, "clientHeight");
  const offset = heightOf("offsetHeight");
  Object.defineProperty(HTMLElement.prototype, "clientHeight", {
    configurable: true,
    get(this: HTMLElement) {
      if (this.classList.contains("tt-vlist")) return Number.parseFloat(this.style.maxHeight) || 0;
      return (client?.get?.call(this) as number | undefined) ?? 0;
    },
  });
  Object.defineProperty(HTMLElement.prototype, "offsetHeight", {
    configurable: true,
    get(this: HTMLElement) {
      if (this.classList.contains("tt-vlist-row")) return 64;
      return (offset?.get?.call(this) as number | undefined) ?? 0;
    },
  });
}

// …and scrolls it: its content is as tall as its list, its scroll position is kept (jsdom's are always 0).
if (typeof HTMLElement !== "undefined") {
  const scrollHeight = Object.getOwnPropertyDescriptor(Element.prototype, "scrollHeight");
  Object.defineProperty(HTMLElement.prototype, "scrollHeight", {
    configurable: true,
    get(this: HTMLElement) {
      if (this.classList.contains("tt-vlist")) {
        return Number.parseFloat((this.firstElementChild as HTMLElement | null)?.style.height ?? "") || 0;
      }
      return (scrollHeight?.get?.call(this) as number | undefined) ?? 0;
    },
  });
  const positions = new WeakMap<Element, number>();
  const scrollTop = Object.getOwnPropertyDescriptor(Element.prototype, "scrollTop");
  Object.defineProperty(HTMLElement.prototype, "scrollTop", {
    configurable: true,
    get(this: HTMLElement) {
      if (this.classList.contains("tt-vlist")) return positions.get(this) ?? 0;
      return (scrollTop?.get?.call(this) as number | undefined) ?? 0;
    },
    set(this: HTMLElement, value: number) {
      if (this.classList.contains("tt-vlist")) positions.set(this, value);
      else scrollTop?.set?.call(this, value);
    },
  });
}
