// @tt/web-kit/virtual — long lists (crate songs, people, chat history) that render only the rows in view.
export { VirtualList } from "./VirtualList.tsx";
export type { VirtualListProps } from "./VirtualList.tsx";
