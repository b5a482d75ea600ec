// Gives every call an id that follows it through gateway, services and logs: the caller's `x-request-id`
// when it sent a sane one, else a fresh uuid. The id is echoed back, on errors too.
import { randomUUID } from "node:crypto";
import { ConnectError, type Interceptor } from "@connectrpc/connect";
import type { Logger } from "pino";
import { kLogger, kRequestId } from "../context.ts";
import { createCallLogger } from "../logger.ts";
import { runWithRequestId } from "../process-guards.ts";

export const REQUEST_ID_HEADER = "x-request-id";

// Anything else could smuggle line breaks or huge strings into logs and downstream headers.
const SANE_ID = /^[\w.:/+=-]{1,128}$/;

export interface RequestIdInterceptorOptions {
  /** Root logger; each call gets a child with service, method and request id in kLogger. */
  logger: Logger;
}

export function createRequestIdInterceptor(opts: RequestIdInterceptorOptions): Interceptor {
  return (next) => async (req) => {
    const incoming = req.header.get(REQUEST_ID_HEADER);
    const requestId = incoming !== null && SANE_ID.test(incoming) ? incoming : randomUUID();
    req.contextValues.set(kRequestId, requestId);
    req.contextValues.set(
      kLogger,
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
