// Starting a direct conversation from outside the chat panel (issue 25: a profile card's "Message"): the chat panel
// listens, opens the FRIENDS or OTHERS tab that holds the person, and shows the conversation with them.
type Listener = (userUuid: string) => void;
const listeners = new Set<Listener>();

/** Opens the direct conversation with `userUuid` in the room's chat. */
export function openDirectChat(userUuid: string): void {
  for (const listener of listeners) listener(userUuid);
}

/** Called with each person whose conversation is asked for; returns the unsubscribe. */
export function onOpenDirectChat(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
