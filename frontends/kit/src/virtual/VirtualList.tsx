import {
  defaultRangeExtractor,
  measureElement,
  observeElementRect,
  useVirtualizer,
  type Range,
} from "@tanstack/react-virtual";
import { useCallback, useEffect, useRef, type ReactNode } from "react";

export interface VirtualListProps<T> {
  items: readonly T[];
  /** A row's height in pixels (an estimate when rows differ: each row is measured once drawn). */
  rowHeight: number;
  /**
   * The list's visible height in pixels at most; "fill": as tall as its container (which must have a height: a
   * column of the page), taken to be FILL_ESTIMATE pixels until measured.
   */
  height: number | "fill";
  /** Rows rendered beyond the visible ones. */
  overscan?: number;
  /** The total when more exist than are loaded (aria-setsize). */
  total?: number;
  /** The list's accessible name. */
  label: string;
  getKey: (item: T, index: number) => string;
  renderRow: (item: T, index: number) => ReactNode;
  /** Called when the drawn rows reach the end of the loaded items (load the next page). */
  onEndReached?: () => void;
  /** Rows differ in height (chat messages): measure each one drawn. */
  measureRows?: boolean;
  /** Scroll so that this row is in view (a row just moved with the keyboard). */
  keepInView?: number | undefined;
  /**
   * Keep the end of the list in view (a chat following its newest message): when rows are added or change size the
   * list scrolls to its end, after the frame's layout (a ResizeObserver).
   */
  followEnd?: boolean;
  /** The reader scrolled away from the end (false) or back to within END_MARGIN of it (true). */
  onFollowEndChange?: (follow: boolean) => void;
  /**
   * Rows drawn even when out of view: a row being dragged must stay in the page while the list scrolls under it
   * (its drag would end if it were removed).
   */
  pinned?: readonly number[] | undefined;
  className?: string;
}

/**
 * A list that draws only the rows in view (TanStack Virtual): a scroll box, a list as tall as every row, and the
 * drawn rows placed by index; each row says its position in the whole (aria-posinset / aria-setsize).
 */
/** A filling list's height before it is measured (and where nothing is laid out, as in jsdom). */
const FILL_ESTIMATE = 600;
/** Within this many pixels of its end a list is at its end (followEnd). */
export const END_MARGIN = 48;

export function VirtualList<T>({
  items,
  rowHeight,
  height,
  overscan = 8,
  total,
  label,
  getKey,
  renderRow,
  onEndReached,
  measureRows = false,
  keepInView,
  followEnd = false,
  onFollowEndChange,
  pinned,
  className,
}: VirtualListProps<T>) {
  const box = useRef<HTMLDivElement>(null);
  const fallback = height === "fill" ? FILL_ESTIMATE : height;
  const pinnedKey = pinned?.join(",") ?? "";
  const rangeExtractor = useCallback(
    (range: Range) => {
      const drawn = defaultRangeExtractor(range);
      const extra = pinnedKey
        .split(",")
        .filter(Boolean)
        .map(Number)
        .filter((index) => index >= 0 && index < range.count && !drawn.includes(index));
      return extra.length === 0 ? drawn : [...drawn, ...extra].sort((a, b) => a - b);
    },
    [pinnedKey],
  );
  // TanStack Virtual hands back functions that change with the scroll: the React Compiler leaves this component be.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => box.current,
    estimateSize: () => rowHeight,
    overscan,
    getItemKey: (index) => getKey(items[index] as T, index),
    rangeExtractor,
    // Before the box is measured, and wherever it measures nothing (hidden, or jsdom, which lays nothing out), it is
    // taken to be `height` tall.
    initialRect: { width: 0, height: fallback },
    // A measured row or a resized box re-renders the list in React's next batch, not synchronously inside the
    // ResizeObserver or ref callback: with a chat at 20 changes a second the synchronous flushes were a large part of
    // the room page's main thread (npm run bench:room-page), and React warns about flushSync inside a lifecycle.
    useFlushSync: false,
    // A row drawn for the first time is measured at once (offsetHeight, a forced layout) only when it is in view,
    // where its estimated height would show; one drawn out of view (the newest message below a chat's end, the
    // overscan) is measured by the ResizeObserver after the frame's own layout, as TanStack does while scrolling.
    measureElement: (element, entry, instance) => {
      if (!entry) {
        const item = instance.measurementsCache[instance.indexFromElement(element)];
        const top = instance.scrollOffset ?? 0;
        const bottom = top + (instance.scrollRect?.height ?? fallback);
        if (item && (item.start >= bottom || item.end <= top)) return item.size;
      }
      return measureElement(element, entry, instance);
    },
    observeElementRect: (instance, onChange) =>
      observeElementRect(instance, (rect) =>
        onChange(rect.height > 0 ? rect : { width: rect.width, height: fallback }),
      ),
  });
  const rows = virtualizer.getVirtualItems();
  const last = rows.at(-1)?.index ?? -1;
  const reachedEnd = items.length > 0 && last >= items.length - 1;
  useEffect(() => {
    if (reachedEnd) onEndReached?.();
  }, [reachedEnd, items.length, onEndReached]);
  useEffect(() => {
    if (keepInView !== undefined && keepInView >= 0 && keepInView < items.length) {
      virtualizer.scrollToIndex(keepInView, { align: "auto" });
    }
  }, [keepInView, items.length, virtualizer]);
  // Following the end (a chat): when the list inside grows or the box changes size, a ResizeObserver scrolls to the
  // end. Its callback runs after the frame's layout, so reading the box's height and writing its scrollTop there
  // forces no layout: TanStack's scrollToIndex per change re-read the scroll height for frames after each one
  // (`_elementMaxScrollOffset`), and reading it in an animation frame forced a layout of the page every message (npm
  // run bench:room-page, a message every 250 ms).
  const hasRows = items.length > 0;
  /** Where the last scroll to the end landed: a scroll event there is that write's, not the reader's. */
  const landed = useRef<number | undefined>(undefined);
  useEffect(() => {
    const element = box.current;
    const content = element?.firstElementChild;
    if (!followEnd || !element || !content || !hasRows) return;
    const observer = new ResizeObserver(() => {
      element.scrollTop = element.scrollHeight; // the browser stops it at the end
      landed.current = element.scrollTop;
    });
    observer.observe(content);
    observer.observe(element);
    return () => observer.disconnect();
  }, [followEnd, hasRows]);
  // Whether the reader left the end or came back to it, told on their scrolls. The reads share the layout that
  // TanStack's own scroll listener reads scrollTop from in the same event (no extra one).
  useEffect(() => {
    const element = box.current;
    if (!element || !onFollowEndChange) return;
    const onScroll = () => {
      const top = element.scrollTop;
      // Our own write, or further down: still at the end (a message added since is followed at the next frame).
      if (followEnd && landed.current !== undefined && top >= landed.current - 1) return;
      const atEnd = element.scrollHeight - top - element.clientHeight < END_MARGIN;
      if (atEnd !== followEnd) onFollowEndChange(atEnd);
    };
    element.addEventListener("scroll", onScroll, { passive: true });
    return () => element.removeEventListener("scroll", onScroll);
  }, [followEnd, onFollowEndChange]);
  return (
    <div
      ref={box}
      className={`tt-vlist${className ? ` ${className}` : ""}`}
      style={height === "fill" ? { height: "100%", overflowY: "auto" } : { maxHeight: height, overflowY: "auto" }}
    >
      <ul
        aria-label={label}
        style={{ position: "relative", height: virtualizer.getTotalSize(), margin: 0, padding: 0, listStyle: "none" }}
      >
        {rows.map((row) => (
          <li
            key={row.key}
            data-index={row.index}
            ref={measureRows ? virtualizer.measureElement : undefined}
            className="tt-vlist-row"
            aria-posinset={row.index + 1}
            aria-setsize={total ?? items.length}
            style={{
              position: "absolute",
              top: 0,
              left: 0,
              right: 0,
              transform: `translateY(${row.start}px)`,
              ...(measureRows ? {} : { height: row.size }),
            }}
          >
            {renderRow(items[row.index] as T, row.index)}
          </li>
        ))}
      </ul>
    </div>
  );
}
