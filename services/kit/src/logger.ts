// One JSON logger per process; every call gets a child carrying service, method and request id, so a
// request can be followed across the gateway and services by its id alone.
import { pino, type Logger, type LevelWithSilent } from "pino";

export interface LoggerOptions {
  /** The process's service name ("user", "all-in-one"); bound to every line. */
  service: string;
  level?: LevelWithSilent;
  /** Where lines go; default stdout. Tests pass a stream to read them back. */
  destination?: pino.DestinationStream;
}

export function createLogger(opts: LoggerOptions): Logger {
  return pino(
    {
      level: opts.level ?? "info",
      base: { service: opts.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Tokens must never reach the logs, even when someone logs a header object.
      redact: { paths: ["authorization", "*.authorization", "token", "*.token"], censor: "[redacted]" },
    },
    opts.destination,
  );
}

export interface CallBindings {
  service: string;
  method: string;
  requestId: string;
}

/**
 * The logger of one RPC. The process logger already binds `service` (the process's name), so the call is
 * bound as `rpc` ("tt.user.v1.AuthService/SignUp"): two `service` keys in one JSON line would lose one.
 */
export function createCallLogger(root: Logger, call: CallBindings): Logger {
  return root.child({ rpc: `${call.service}/${call.method}`, requestId: call.requestId });
}
