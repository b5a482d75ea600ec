// The outcome of an action, told as a toast: any app calls toast(); the shell mounts the one <Toaster> (from
// @tt/web-kit/ui) that shows them. The queue lives here, in the light kit, so raising one costs nothing.
export type ToastTone = "success" | "error" | "info";

export interface ToastMessage {
  id: number;
  title: string;
  description?: string;
  tone: ToastTone;
}

type Listener = (toasts: readonly ToastMessage[]) => void;

let nextId = 1;
let queue: readonly ToastMessage[] = [];
const listeners = new Set<Listener>();

function emit() {
  for (const listener of listeners) listener(queue);
}

/** Shows a toast; returns its id. */
export function toast(message: { title: string; description?: string; tone?: ToastTone }): number {
  const id = nextId++;
  queue = [...queue, { id, tone: message.tone ?? "info", title: message.title, description: message.description }];
  emit();
  return id;
}

export function dismissToast(id: number): void {
  queue = queue.filter((entry) => entry.id !== id);
  emit();
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  listener(queue);
  return () => listeners.delete(listener);
}

export function currentToasts(): readonly ToastMessage[] {
  return queue;
}
