import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";

const MIN = Date.UTC(1, 0, 1);
const MAX = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** A request's timestamp as a Date between the years 1 and 9999 (what PostgreSQL and JSON both hold), or a 400. */
export function dateOf(ts: Timestamp, field: string): Date {
  const date = timestampDate(ts);
  const ms = date.getTime();
  if (Number.isNaN(ms) || ms < MIN || ms > MAX) {
    throw new ConnectError(`${field} must be a time between the years 1 and 9999`, Code.InvalidArgument);
  }
  return date;
}
