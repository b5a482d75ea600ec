// For component tests of a list that follows its end (VirtualList's followEnd): jsdom lays nothing out and its
// ResizeObserver (the kit's dom-setup stand-in) never reports. This one reports the list's box and the list inside it
// every animation frame, as a browser would when they change size; other elements (rows TanStack measures) never.
const FOLLOWED = ".tt-vlist, .tt-vlist > ul";

export function installFollowObserver(): () => void {
  const original = globalThis.ResizeObserver;
  class FollowObserver {
    private readonly observed = new Set<Element>();
    private frame = 0;
    constructor(private readonly callback: ResizeObserverCallback) {}
    observe(element: Element): void {
      if (!element.matches(FOLLOWED)) return;
      this.observed.add(element);
      this.tick();
    }
    unobserve(element: Element): void {
      this.observed.delete(element);
    }
    disconnect(): void {
      this.observed.clear();
      cancelAnimationFrame(this.frame);
    }
    private tick(): void {
      cancelAnimationFrame(this.frame);
      this.frame = requestAnimationFrame(() => {
        if (this.observed.size === 0) return;
        const entries = [...this.observed].map((target) => ({ target }) as ResizeObserverEntry);
        this.callback(entries, this as unknown as ResizeObserver);
        this.tick();
      });
    }
  }
  Object.assign(globalThis, { ResizeObserver: FollowObserver });
  Object.assign(window, { ResizeObserver: FollowObserver });
  return () => {
    Object.assign(globalThis, { ResizeObserver: original });
    Object.assign(window, { ResizeObserver: original });
  };
}
