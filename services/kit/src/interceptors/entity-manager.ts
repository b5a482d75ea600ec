// One EntityManager fork per call: a fresh identity map, so no entity leaks from one request to another. The fork
// is made when the call first asks for it: a handler that runs its own SQL on the pool (the merch purchase)
// never pays for one (about 5% of a purchase's CPU in bench:ledger).
// A host may run several services, each on its own ORM and schema; the called service decides which.
import type { DescService } from "@bufbuild/protobuf";
import type { Interceptor } from "@connectrpc/connect";
import type { MikroORM } from "@mikro-orm/postgresql";
import { kEm, setLazy } from "../context.ts";

export interface EntityManagerInterceptorOptions {
  /** The ORM of the service that implements `service`; undefined leaves kEm unset. */
  ormFor(service: DescService): MikroORM | undefined;
}

export function createEntityManagerInterceptor(opts: EntityManagerInterceptorOptions): Interceptor {
  return (next) => async (req) => {
    const orm = opts.ormFor(req.service);
    if (orm) setLazy(req.contextValues, kEm, () => orm.em.fork());
    return next(req);
  };
}
