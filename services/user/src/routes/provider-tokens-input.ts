// Input checks shared by the provider-token handlers: bad input is a 400 naming the field.
import { Code, ConnectError } from "@connectrpc/connect";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function checkUuid(id: string, field = "id"): string {
  if (!UUID.test(id)) throw new ConnectError(`${field} must be a uuid`, Code.InvalidArgument);
  return id.toLowerCase();
}

export function required(value: string, field: string): string {
  const trimmed = value.trim();
  if (trimmed === "") throw new ConnectError(`${field} is required`, Code.InvalidArgument);
  return trimmed;
}
