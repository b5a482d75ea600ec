// An unhandled rejection must never end a process silently (issue 9 defect 1). Node's default is to crash on
// one; a platform that serves many callers must instead log it (with the request it belongs to), count it and
// keep serving, while the cause is fixed where the log points. Every process entry installs this once.
//
// The request id reaches the log through an AsyncLocalStorage scope: the request-id interceptor (and the
// gateway for REST calls) runs each call inside it, and Node emits `unhandledRejection` in the async context
// of the promise that was rejected, so the handler sees the id of the call that dropped it.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "pino";
import { Counter, register, type Registry } from "prom-client";

interface RequestScope {
  requestId: string;
}

const requestScope = new AsyncLocalStorage<RequestScope>();

/** Runs `fn` as part of the request `requestId`: what it starts can be traced back to the request. */
export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  return requestScope.run({ requestId }, fn);
}

/** The id of the request whose work is running now, when there is one. */
export function currentRequestId(): string | undefined {
  return requestScope.getStore()?.requestId;
}

export const UNHANDLED_REJECTIONS_METRIC = "tt_unhandled_rejections_total";

const counters = new WeakMap<Registry, Counter>();

/** The counter of unhandled rejections on `registry`, created on first use (several guards may share one). */
export function unhandledRejectionsCounter(registry: Registry = register): Counter {
  let counter = counters.get(registry);
  if (!counter) {
    counter = new Counter({
      name: UNHANDLED_REJECTIONS_METRIC,
      help: "Promise rejections nobody handled; each is a bug, logged with its request id, and the process kept serving",
      registers: [registry],
    });
    counters.set(registry, counter);
  }
  return counter;
}

export interface ProcessGuardsOptions {
  logger: Logger;
  /** Where the counter is exposed (`/metrics`); default prom-client's process registry. */
  registry?: Registry;
}

export interface ProcessGuards {
  /** Removes the guard again, when this call installed it (tests, or a runner that guards only its lifetime). */
  uninstall(): void;
}

let installed: ProcessGuards | undefined;

/**
 * Logs and counts every unhandled rejection instead of letting it end the process. Once per process: while a
 * guard is installed, further calls change nothing (the first logger and registry stay in use) and get a
 * handle whose uninstall leaves the installed guard in place.
 */
export function installProcessGuards(opts: ProcessGuardsOptions): ProcessGuards {
  if (installed) return { uninstall() {} };
  const counter = unhandledRejectionsCounter(opts.registry);
  const onRejection = (reason: unknown) => {
    counter.inc();
    const requestId = currentRequestId();
    opts.logger.error(
      { err: reason, ...(requestId === undefined ? {} : { requestId }) },
      "unhandled promise rejection (a bug: the process keeps serving)",
    );
  };
  process.on("unhandledRejection", onRejection);
  const guards: ProcessGuards = {
    uninstall() {
      process.off("unhandledRejection", onRejection);
      if (installed === guards) installed = undefined;
    },
  };
  installed = guards;
  return guards;
}
