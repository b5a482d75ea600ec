import type { Transport } from "@connectrpc/connect";

/**
 * A Transport whose implementation (Connect-Web, protobuf, the generated user service) is fetched on the
 * first call. The first paint of a page needs none of it, so it stays off the critical path.
 */
export function createLazyTransport(load: () => Promise<Transport>): Transport {
  let pending: Promise<Transport> | undefined;
  const get = () => {
    pending ??= load().catch((error: unknown) => {
      // A failed chunk load (network blip) must not poison every later call.
      pending = undefined;
      throw error;
    });
    return pending;
  };
  return {
    unary: async (...args) => (await get()).unary(...args),
    stream: async (...args) => (await get()).stream(...args),
  };
}
