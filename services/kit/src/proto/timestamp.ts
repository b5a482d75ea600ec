// An optional google.protobuf.Timestamp field from a date that may be missing: an entity's nullable column, or a
// raw row's timestamp column as the driver hands it over (a Date, or its text).
import { timestampFromDate, type Timestamp } from "@bufbuild/protobuf/wkt";

/** The Timestamp of `date` (a Date or a date's text); undefined, an unset field, for no date. */
export function optionalTimestamp(date: Date | string | null | undefined): Timestamp | undefined {
  return date ? timestampFromDate(new Date(date)) : undefined;
}
