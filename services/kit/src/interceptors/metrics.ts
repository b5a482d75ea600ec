// RPC metrics on the process registry. Several hosts may live in one process (all-in-one, tests), so
// the metrics are created once per registry and shared.
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import { Counter, Histogram, register, type Registry } from "prom-client";
import { onStreamEnd } from "./stream-end.ts";

export interface RpcMetrics {
  requests: Counter<"service" | "method" | "code">;
  duration: Histogram<"service" | "method" | "code">;
}

const perRegistry = new WeakMap<Registry, RpcMetrics>();

/** The RPC metrics of a registry (default: prom-client's process-wide one), created on first use. */
export function rpcMetrics(registry: Registry = register): RpcMetrics {
  let metrics = perRegistry.get(registry);
  if (!metrics) {
    const labelNames = ["service", "method", "code"] as const;
    metrics = {
      requests: new Counter({
        name: "rpc_server_requests_total",
        help: "RPCs handled, by service, method and result code",
        labelNames,
        registers: [registry],
      }),
      duration: new Histogram({
        name: "rpc_server_duration_seconds",
        help: "RPC handling time in seconds (until the last message of a stream)",
        labelNames,
        buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        registers: [registry],
      }),
    };
    perRegistry.set(registry, metrics);
  }
  return metrics;
}

export interface MetricsInterceptorOptions {
  registry?: Registry;
}

export function createMetricsInterceptor(opts: MetricsInterceptorOptions = {}): Interceptor {
  const metrics = rpcMetrics(opts.registry);
  return (next) => async (req) => {
    const stopTimer = metrics.duration.startTimer();
    const labels = { service: req.service.typeName, method: req.method.name };
    const done = (failure: unknown) => {
      const code = failure === undefined ? "ok" : codeToString(ConnectError.from(failure).code ?? Code.Unknown);
      stopTimer({ ...labels, code });
      metrics.requests.inc({ ...labels, code });
    };
    let res;
    try {
      res = await next(req);
    } catch (err) {
      done(err);
      throw err;
    }
    if (!res.stream) {
      done(undefined);
      return res;
    }
    return { ...res, message: onStreamEnd(req.contextValues, res.message, done) };
  };
}
