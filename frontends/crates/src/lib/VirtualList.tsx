import { useEffect, useRef, useState, type ReactNode } from "react";

export interface VirtualListProps<T> {
  items: readonly T[];
  /** Every row has this height in pixels (the list positions rows by index). */
  rowHeight: number;
  /** The visible height in pixels. */
  height: number;
  /** Rows rendered above and below the visible ones. */
  overscan?: number;
  /** The total when more exist than are loaded (aria-setsize). */
  total?: number;
  label: string;
  getKey: (item: T, index: number) => string;
  renderRow: (item: T, index: number) => ReactNode;
  /** Called when the rendered rows reach the end of the loaded items (load the next page). */
  onEndReached?: () => void;
  className?: string;
  /** Scroll so that this row is in view (a row just moved with the keyboard). */
  keepInView?: number | undefined;
}

/** The rows from `first` to `last` (exclusive) that the list renders for a scroll position. */
export function visibleRange(
  scrollTop: number,
  height: number,
  rowHeight: number,
  count: number,
  overscan: number,
): { first: number; last: number } {
  const top = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const bottom = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + overscan);
  return { first: Math.min(top, count), last: Math.max(bottom, Math.min(top, count)) };
}

/**
 * A list that renders only the rows in view (a crate holds thousands of songs): a scroll box with a spacer as
 * tall as every row, and the visible rows placed absolutely by index.
 */
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
  className,
  keepInView,
}: VirtualListProps<T>) {
  const [scrollTop, setScrollTop] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (keepInView === undefined || !element) return;
    const top = keepInView * rowHeight;
    if (top < element.scrollTop) element.scrollTop = top;
    else if (top + rowHeight > element.scrollTop + height) element.scrollTop = top + rowHeight - height;
    else return;
    setScrollTop(element.scrollTop);
  }, [keepInView, rowHeight, height]);
  const { first, last } = visibleRange(scrollTop, height, rowHeight, items.length, overscan);
  const reachedEnd = items.length > 0 && last >= items.length;
  useEffect(() => {
    if (reachedEnd) onEndReached?.();
  }, [reachedEnd, items.length, onEndReached]);

  const rows: ReactNode[] = [];
  for (let index = first; index < last; index++) {
    const item = items[index] as T;
    rows.push(
      <li
        key={getKey(item, index)}
        className="tt-vlist-row"
        aria-posinset={index + 1}
        aria-setsize={total ?? items.length}
        style={{ position: "absolute", top: index * rowHeight, height: rowHeight, left: 0, right: 0 }}
      >
        {renderRow(item, index)}
      </li>,
    );
  }
  return (
    <div
      ref={box}
      className={`tt-vlist${className ? ` ${className}` : ""}`}
      style={{ maxHeight: height, overflowY: "auto" }}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
    >
      <ul aria-label={label} style={{ position: "relative", height: items.length * rowHeight, margin: 0, padding: 0 }}>
        {rows}
      </ul>
    </div>
  );
}
