// One log line per call, and the single place where unanticipated errors become safe ConnectErrors (the
// detail is logged here, the caller gets "internal error"). Runs inside the request-id interceptor so the
// call logger exists.
import type { ConnectError, Interceptor } from "@connectrpc/connect";
import type { Logger } from "pino";
import { kLogger } from "../context.ts";
import { isServerFault, toLoggedConnectError } from "../errors.ts";
import { onStreamEnd } from "./stream-end.ts";

export interface LoggingInterceptorOptions {
  /** Used when no call logger was set (the request-id interceptor normally sets one). */
  logger: Logger;
}

export function createLoggingInterceptor(opts: LoggingInterceptorOptions): Interceptor {
  return (next) => async (req) => {
    // Asked for only when a line is written: the call logger is made on first use (request-id.ts), and a
    // successful call writes a debug line, which the usual levels drop.
    const logger = () => req.contextValues.get(kLogger) ?? opts.logger;
    const started = performance.now();
    const convert = (err: unknown) => toLoggedConnectError(err, logger());
    const done = (error: ConnectError | undefined) => {
      const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
      if (error === undefined) {
        if (opts.logger.isLevelEnabled("debug")) logger().debug({ durationMs }, "rpc ok");
      } else if (isServerFault(error))
        logger().error({ code: error.code, durationMs, message: error.rawMessage }, "rpc failed");
      else logger().warn({ code: error.code, durationMs, message: error.rawMessage }, "rpc failed");
    };
    let res;
    try {
      res = await next(req);
    } catch (err) {
      const error = convert(err);
      done(error);
      throw error;
    }
    if (!res.stream) {
      done(undefined);
      return res;
    }
    return {
      ...res,
      message: onStreamEnd(req.contextValues, res.message, (e) => done(e as ConnectError | undefined), convert),
    };
  };
}
