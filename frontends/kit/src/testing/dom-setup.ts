// What the web project's component tests need of a browser that jsdom does not have (vitest.config.ts's
// setupFiles): Radix measures with ResizeObserver, scrolls the highlighted option of a Select into view, and
// captures the pointer on Select and Slider; the theme reads matchMedia. Each stand-in does the least that lets
// the component run; none of them pretends to lay anything out.
import { configure } from "@testing-library/react";

// Screens come in lazy chunks (the design system's components with them) that a worker imports and transforms
// cold the first time: on a busy machine (two cores, several test runs and builds) that takes seconds, far
// beyond Testing Library's default second.
configure({ asyncUtilTimeout: 15_000 });

if (typeof window !== "undefined") {
  const proto = window.Element.prototype as Element & Record<string, unknown>;
  if (!("ResizeObserver" in window)) {
    class ResizeObserver {
      observe(): void {}
      unobserve(): void {}
      disconnect(): void {}
    }
    Object.assign(window, { ResizeObserver });
    Object.assign(globalThis, { ResizeObserver });
  }
  if (!proto["scrollIntoView"]) proto["scrollIntoView"] = function scrollIntoView() {};
  if (!proto["hasPointerCapture"]) proto["hasPointerCapture"] = () => false;
  if (!proto["setPointerCapture"]) proto["setPointerCapture"] = () => undefined;
  if (!proto["releasePointerCapture"]) proto["releasePointerCapture"] = () => undefined;
  if (!window.matchMedia) {
    window.matchMedia = (query: string) =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        addListener: () => undefined,
        removeListener: () => undefined,
        dispatchEvent: () => false,
      }) as MediaQueryList;
  }
}
