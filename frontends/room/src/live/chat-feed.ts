// The join stream's chat events (ChatEvent, CHAT's chat.proto), handed to the chat panel: the stream is the
// room page's, the panel only listens. Events that arrive before the panel has mounted are kept (up to a cap)
// and replayed to its first listener, so nothing sent while the panel's code loads is lost.
import type { ChatEvent } from "@tt/proto/tt/social/v1/chat_pb";

/** Events of the join stream handed on to a listener that may mount later (chat events, room activity). */
export interface Feed<T> {
  /** Listens to the events from now on (and to those kept while nobody listened); returns the unsubscribe. */
  subscribe(listener: (event: T) => void): () => void;
  publish(event: T): void;
}

export type ChatFeed = Feed<ChatEvent>;

/** Events kept for a panel that has not mounted yet (the history call covers anything older). */
export const CHAT_FEED_BACKLOG = 300;

export function createChatFeed(): ChatFeed {
  return createFeed<ChatEvent>();
}

export function createFeed<T>(): Feed<T> {
  const listeners = new Set<(event: T) => void>();
  let backlog: T[] = [];
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
