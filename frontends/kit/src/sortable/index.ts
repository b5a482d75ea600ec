// @tt/web-kit/sortable — lists sorted by dragging (dnd-kit) with a keyboard alternative, inside the kit's virtual
// list; its own federation singleton, so only the screens that reorder load dnd-kit.
export { SortableList } from "./SortableList.tsx";
export type { SortableListProps, SortableRow } from "./SortableList.tsx";
export { SORTABLE_NAMESPACE, sortableTranslations } from "./locales.ts";
