// Records what a service registers on a ConnectRouter, so the same registrations can feed both the HTTP
// handler (replayed on a real router) and the in-process transport (called directly).
import type { DescMethod, DescService } from "@bufbuild/protobuf";
import {
  createMethodImplSpec,
  createServiceImplSpec,
  type ConnectRouter,
  type MethodImplSpec,
} from "@connectrpc/connect";

export interface CapturedRoutes {
  /** Implementation of each registered method, keyed by `methodKey`. */
  readonly methods: ReadonlyMap<string, MethodImplSpec>;
  /** The services registered (whole services; single `rpc` registrations count their parent). */
  readonly services: readonly DescService[];
  /** Methods of registered services that got no implementation (Connect answers them Unimplemented). */
  readonly unimplemented: ReadonlySet<string>;
  /** Registers everything again on a real router. */
  replay(router: ConnectRouter): void;
}

/** "tt.user.v1.AuthService/Login": one key per method, independent of descriptor object identity. */
export function methodKey(method: DescMethod): string {
  return `${method.parent.typeName}/${method.name}`;
}

type Registration = (router: ConnectRouter) => void;

export function captureRoutes(register: (router: ConnectRouter) => void): CapturedRoutes {
  const methods = new Map<string, MethodImplSpec>();
  const services = new Map<string, DescService>();
  const unimplemented = new Set<string>();
  const registrations: Registration[] = [];
  const router: ConnectRouter = {
    handlers: [],
    service(service, implementation, options) {
      const spec = createServiceImplSpec(service, implementation);
      for (const m of Object.values(spec.methods)) methods.set(methodKey(m.method), m);
      // createServiceImplSpec fills every missing method with an Unimplemented stub; remember which.
      const given = implementation as Record<string, unknown>;
      for (const m of service.methods) {
        if (typeof given[m.localName] === "function") unimplemented.delete(methodKey(m));
        else unimplemented.add(methodKey(m));
      }
      services.set(service.typeName, service);
      registrations.push((r) => r.service(service, implementation, options));
      return router;
    },
    rpc(method, impl, options) {
      methods.set(methodKey(method), createMethodImplSpec(method, impl));
      unimplemented.delete(methodKey(method));
      services.set(method.parent.typeName, method.parent);
      registrations.push((r) => r.rpc(method, impl, options));
      return router;
    },
  };
  register(router);
  return {
    methods,
    services: [...services.values()],
    unimplemented,
    replay(target) {
      for (const registration of registrations) registration(target);
    },
  };
}
