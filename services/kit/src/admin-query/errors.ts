import { Code, ConnectError } from "@connectrpc/connect";

/** Query parameter names, used as the prefix of every error message so a caller knows what to fix. */
export type AdminQueryParam =
  "fields" | "s" | "filter" | "or" | "sort" | "join" | "limit" | "offset" | "page" | "cache";

/** The one error shape of the admin query language: InvalidArgument (HTTP 400) naming the parameter. */
export function invalidQuery(param: AdminQueryParam, message: string): ConnectError {
  return new ConnectError(`${param}: ${message}`, Code.InvalidArgument);
}
