export { ChatPanel, QUICK_REACTIONS, chatKeys } from "./ChatPanel.tsx";
export type { ChatPanelProps } from "./ChatPanel.tsx";
export { mergeHistory, mergeReactions, visibleItems, isEditable } from "./chat-state.ts";
export type { ChatItem } from "./chat-state.ts";
