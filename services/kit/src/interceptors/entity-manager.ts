// One EntityManager fork per call: a fresh identity map, so no entity leaks from one request to another.
// A host may run several services, each on its own ORM and schema; the called service decides which.
import type { DescService } from "@bufbuild/protobuf";
import type { Interceptor } from "@connectrpc/connect";
import type { MikroORM } from "@mikro-orm/postgresql";
import { kEm } from "../context.ts";

export interface EntityManagerInterceptorOptions {
  /** The ORM of the service that implements `service`; undefined leaves kEm unset. */
  ormFor(service: DescService): MikroORM | undefined;
}

export function createEntityManagerInterceptor(opts: EntityManagerInterceptorOptions): Interceptor {
  return (next) => async (req) => {
    const orm = opts.ormFor(req.service);
    if (orm) req.contextValues.set(kEm, orm.em.fork());
    return next(req);
  };
}
