import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  MeasuringStrategy,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type DragStartEvent,
  type Modifier,
  type UniqueIdentifier,
} from "@dnd-kit/core";
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useAppTranslation } from "@tt/web-kit";
import { IconButton } from "@tt/web-kit/ui";
import { VirtualList, type VirtualListProps } from "@tt/web-kit/virtual";
import { GripVertical } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState, type FocusEvent, type ReactNode } from "react";
import { SORTABLE_NAMESPACE, sortableTranslations } from "./locales.ts";

/** What a row gets besides its item: its drag handle (null when reordering is off), and a way to move it. */
export interface SortableRow {
  /** The row's drag handle, labelled "Move <name>": drag it, or focus it and use Space and the arrow keys. */
  handle: ReactNode;
  /** The row is the one being dragged. */
  dragging: boolean;
  /** Moves this row to another index (row actions such as "Move up" or "Move to top"). */
  move: (to: number) => void;
}

export interface SortableListProps<T> extends Omit<VirtualListProps<T>, "renderRow" | "pinned" | "getKey"> {
  /** Each item's stable id: the row's key and its identity while it moves. */
  getKey: (item: T, index: number) => string;
  /** What a row is called, for its handle ("Move <name>") and what a screen reader hears while it moves. */
  getLabel: (item: T) => string;
  /**
   * A row moved from one index to another (of `items`). The list shows the new order at once and keeps showing it
   * until `items` changes, so the caller answers with the reordered items (or the old ones, when the move failed).
   */
  onMove: (from: number, to: number) => void;
  /** Reordering is off (someone else's list): no handles, nothing moves. */
  disabled?: boolean;
  renderRow: (item: T, index: number, row: SortableRow) => ReactNode;
}

// Rows move up and down only.
const vertically: Modifier = ({ transform }) => ({ ...transform, x: 0 });

// Rows are drawn and dropped while the list scrolls: measure the drop targets all along, not once at the start.
const MEASURING = { droppable: { strategy: MeasuringStrategy.Always } };

/** How long after a move the focus is put back on the moved row if the move took it away (the row was re-inserted). */
const FOCUS_RESTORE_MS = 3_000;

function Row({
  id,
  disabled,
  label,
  roleDescription,
  children,
}: {
  id: string;
  disabled: boolean;
  label: string;
  roleDescription: string;
  children: (handle: ReactNode, dragging: boolean) => ReactNode;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id,
    disabled,
    attributes: { roleDescription },
  });
  const handle = disabled ? null : (
    <IconButton
      ref={setActivatorNodeRef}
      {...attributes}
      {...listeners}
      label={label}
      icon={<GripVertical aria-hidden="true" />}
      size="sm"
      className="tt-sortable__handle"
    />
  );
  return (
    <div
      ref={setNodeRef}
      className="tt-sortable__row"
      data-dragging={isDragging || undefined}
      style={{ transform: CSS.Translate.toString(transform), transition }}
    >
      {children(handle, isDragging)}
    </div>
  );
}

/**
 * A list sorted by dragging (dnd-kit) inside the kit's virtual list, for lists of thousands of rows. Each row has a
 * visible handle: drag it with a mouse or a finger, or focus it, press Space, move with the arrow keys and press
 * Space again; every step is announced in the page's language. A move is reported as (from index, to index).
 *
 * Inside a virtual list only the rows in view exist: the dragged row is pinned so it stays drawn while the list
 * scrolls under it, the drop targets are measured continuously as rows come and go, and a row moved out of view is
 * scrolled back into it.
 */
export function SortableList<T>({
  items: given,
  getKey,
  getLabel,
  onMove,
  disabled = false,
  renderRow,
  keepInView,
  total,
  className,
  ...list
}: SortableListProps<T>) {
  const { t } = useAppTranslation(SORTABLE_NAMESPACE, sortableTranslations);
  // The order just made here, shown until the caller answers with new items.
  const [pending, setPending] = useState<{ base: readonly T[]; order: readonly T[] } | null>(null);
  const items = pending && pending.base === given ? pending.order : given;
  const ids = useMemo(() => items.map((item, index) => getKey(item, index)), [items, getKey]);
  const [active, setActive] = useState<number | null>(null);
  const [scrollTo, setScrollTo] = useState<number | undefined>(undefined);
  const lastFocus = useRef<HTMLElement | null>(null);
  const movedAt = useRef(0);
  const box = useRef<HTMLDivElement>(null);
  const count = total ?? items.length;

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const indexOf = useCallback((id: UniqueIdentifier) => ids.indexOf(String(id)), [ids]);
  const nameOf = useCallback(
    (id: UniqueIdentifier) => {
      const index = indexOf(id);
      return index >= 0 ? getLabel(items[index] as T) : String(id);
    },
    [indexOf, getLabel, items],
  );

  const move = useCallback(
    (from: number, to: number) => {
      if (disabled || from === to || from < 0 || to < 0 || from >= items.length || to >= items.length) return;
      setPending({ base: given, order: arrayMove([...items], from, to) });
      setScrollTo(to);
      movedAt.current = Date.now();
      onMove(from, to);
    },
    [disabled, given, items, onMove],
  );

  // The scroll to a moved row happens once (the list's effect runs before this one); later changes leave it be.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- one render with the target is the point
    if (scrollTo !== undefined) setScrollTo(undefined);
  }, [scrollTo]);

  // A moved row is re-inserted where it now belongs, which takes the focus from whatever in it had it (its handle,
  // its menu's button): give it back, so the next key press moves it again.
  useEffect(() => {
    const element = lastFocus.current;
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (!lost || !element || !element.isConnected || !box.current?.contains(element)) return;
    if (Date.now() - movedAt.current > FOCUS_RESTORE_MS) return;
    element.focus();
  }, [ids]);

  // The first "over" of a drag is the picked-up row over itself, right after "Picked up …": not worth saying again.
  const justPickedUp = useRef(false);
  const announcements = useMemo<Announcements>(() => {
    const at = (id: UniqueIdentifier) => ({ name: nameOf(id), position: indexOf(id) + 1, total: count });
    return {
      onDragStart: ({ active: dragged }) => {
        justPickedUp.current = true;
        return t("pickedUp", at(dragged.id));
      },
      onDragOver: ({ active: dragged, over }) => {
        const first = justPickedUp.current;
        justPickedUp.current = false;
        if (first && over?.id === dragged.id) return undefined;
        return over
          ? t("over", { ...at(dragged.id), position: indexOf(over.id) + 1 })
          : t("notOver", { name: nameOf(dragged.id) });
      },
      onDragEnd: ({ active: dragged, over }) =>
        over && over.id !== dragged.id
          ? t("dropped", { ...at(dragged.id), position: indexOf(over.id) + 1 })
          : t("stayed", at(dragged.id)),
      onDragCancel: ({ active: dragged }) => t("cancelled", at(dragged.id)),
    };
  }, [t, nameOf, indexOf, count]);

  const start = ({ active: dragged }: DragStartEvent) => setActive(indexOf(dragged.id));
  const end = ({ active: dragged, over }: DragEndEvent) => {
    setActive(null);
    if (over) move(indexOf(dragged.id), indexOf(over.id));
  };

  return (
    <div
      ref={box}
      className="tt-sortable"
      onFocus={(event: FocusEvent<HTMLDivElement>) => {
        lastFocus.current = event.target;
      }}
    >
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        modifiers={[vertically]}
        measuring={MEASURING}
        onDragStart={start}
        onDragEnd={end}
        onDragCancel={() => setActive(null)}
        accessibility={{ announcements, screenReaderInstructions: { draggable: t("instructions") } }}
      >
        <SortableContext items={ids} strategy={verticalListSortingStrategy} disabled={disabled}>
          <VirtualList
            {...list}
            className={`tt-sortable__list ${className ?? ""}`.trim()}
            items={items}
            total={total}
            getKey={(_item, index) => ids[index] ?? String(index)}
            pinned={active !== null && active >= 0 ? [active] : undefined}
            keepInView={keepInView ?? scrollTo}
            renderRow={(item, index) => {
              const id = ids[index] ?? String(index);
              return (
                <Row
                  id={id}
                  disabled={disabled}
                  label={t("handle", { name: getLabel(item) })}
                  roleDescription={t("roleDescription")}
                >
                  {(handle, dragging) => renderRow(item, index, { handle, dragging, move: (to) => move(index, to) })}
                </Row>
              );
            }}
          />
        </SortableContext>
      </DndContext>
    </div>
  );
}
