// The HTTP/2 client the gateway reaches services with in distributed mode lives in the kit, which service
// clients (`ServiceDeps.clients`) share; this module keeps the gateway's names for it.
export { backendSession, createBackendTransport, DEFAULT_READ_MAX_BYTES } from "@tt/kit";
export type { BackendProtocol, BackendTransportOptions } from "@tt/kit";
