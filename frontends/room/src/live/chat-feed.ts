// The join stream's chat events (ChatEvent, CHAT's chat.proto), handed to the chat panel: the stream is the
// room page's, the panel only listens. Events that arrive before the panel has mounted are kept (up to a cap)
// and replayed to its first listener, so nothing sent while the panel's code loads is lost.
import type { ChatEvent } from "@tt/proto/tt/social/v1/chat_pb";

export interface ChatFeed {
  /** Listens to the chat events from now on; returns the unsubscribe function. */
  subscribe(listener: (event: ChatEvent) => void): () => void;
  publish(event: ChatEvent): void;
}

/** Events kept for a panel that has not mounted yet (the history call covers anything older). */
export const CHAT_FEED_BACKLOG = 300;

export function createChatFeed(): ChatFeed {
  const listeners = new Set<(event: ChatEvent) => void>();
  let backlog: ChatEvent[] = [];
  return {
    subscribe(listener) {
      listeners.add(listener);
      const pending = backlog;
      backlog = [];
      for (const event of pending) listener(event);
      return () => listeners.delete(listener);
    },
    publish(event) {
      if (listeners.size === 0) {
        backlog.push(event);
        if (backlog.length > CHAT_FEED_BACKLOG) backlog.splice(0, backlog.length - CHAT_FEED_BACKLOG);
        return;
      }
      for (const listener of listeners) listener(event);
    },
  };
}
