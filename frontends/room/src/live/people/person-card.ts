// Opening a person's profile card from anywhere in the live room (issue 25: the booth, the crowd, chat, the people
// panel): whoever draws a person calls openPersonCard(uuid); the room's card (PersonCard) listens and shows it.
type Listener = (userUuid: string) => void;
const listeners = new Set<Listener>();

/** Shows the profile card of `userUuid` (a listener, a DJ or a chat author; never a guest). */
export function openPersonCard(userUuid: string): void {
  for (const listener of listeners) listener(userUuid);
}

/** Called with each person to show; returns the unsubscribe. */
export function onOpenPersonCard(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
