// Gives every call an id that follows it through gateway, services and logs: the caller's `x-request-id`
// when it sent a sane one, else a fresh uuid. The id is echoed back, on errors too.
import { randomUUID } from "node:crypto";
import { ConnectError, type Interceptor } from "@connectrpc/connect";
import type { Logger } from "pino";
import { kLogger, kRequestId, setLazy } from "../context.ts";
import { createCallLogger } from "../logger.ts";
import { runWithRequestId } from "../process-guards.ts";

export const REQUEST_ID_HEADER = "x-request-id";

// Printable ASCII without spaces, at most 128 characters: anything else could smuggle line breaks or huge
// strings into logs and downstream headers. The gateway keeps exactly the ids kept here (it calls
// requestIdOf too), so the id a caller sees echoed is the id in every log line of the call.
const SANE_ID = /^[\x21-\x7e]{1,128}$/;

/** The caller's request id when it is sane (printable ASCII, no spaces, 1–128 characters), otherwise a new uuid. */
export function requestIdOf(incoming: string | null | undefined): string {
  return typeof incoming === "string" && SANE_ID.test(incoming) ? incoming : randomUUID();
}

export interface RequestIdInterceptorOptions {
  /** Root logger; each call gets a child with service, method and request id in kLogger. */
  logger: Logger;
}

export function createRequestIdInterceptor(opts: RequestIdInterceptorOptions): Interceptor {
  return (next) => async (req) => {
    const requestId = requestIdOf(req.header.get(REQUEST_ID_HEADER));
    req.contextValues.set(kRequestId, requestId);
    // Made when something logs: a pino child costs about as much as the rest of this interceptor chain.
    setLazy(req.contextValues, kLogger, () =>
      createCallLogger(opts.logger, { service: req.service.typeName, method: req.method.name, requestId }),
    );
    try {
      // Whatever the call starts carries its id, even where no context reaches (process-guards.ts).
      const res = await runWithRequestId(requestId, () => next(req));
      res.header.set(REQUEST_ID_HEADER, requestId);
      return res;
    } catch (err) {
      if (err instanceof ConnectError) err.metadata.set(REQUEST_ID_HEADER, requestId);
      throw err;
    }
  };
}
