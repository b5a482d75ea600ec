// Input checks shared by the provider-token handlers: bad input is a 400 naming the field.
import { Code, ConnectError } from "@connectrpc/connect";

export function required(value: string, field: string): string {
  const trimmed = value.trim();
  if (trimmed === "") throw new ConnectError(`${field} is required`, Code.InvalidArgument);
  return trimmed;
}
