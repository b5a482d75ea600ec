// Runs tasks one after another and never inside the caller's stack, so an in-process subscriber sees
// messages in publish order, asynchronously, exactly as it would from a network connection.

export class SerialQueue {
  #tasks: Array<() => unknown> = [];
  #running = false;
  #closed = false;
  #idle: Array<() => void> = [];

  constructor(private readonly onError: (err: unknown) => void) {}

  push(task: () => unknown): void {
    if (this.#closed) return;
    this.#tasks.push(task);
    if (this.#running) return;
    this.#running = true;
    setImmediate(() => void this.#pump());
  }

  async #pump(): Promise<void> {
    for (let task = this.#tasks.shift(); task; task = this.#tasks.shift()) {
      try {
        await task();
      } catch (err) {
        this.onError(err);
      }
    }
    this.#running = false;
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  /** Drops what has not started; resolves once the running task has finished. */
  close(): Promise<void> {
    this.#closed = true;
    this.#tasks.length = 0;
    if (!this.#running) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }
}
