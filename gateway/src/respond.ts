// Response messages as proto3 JSON: lowerCamelCase names, and fields at their default values included
// (`alwaysEmitImplicit`), so a client reads `"count": 0` instead of a missing key. `response_body` answers
// with one field of the response instead of the whole message.
import {
  toJson,
  toJsonString,
  type DescField,
  type DescMessage,
  type JsonObject,
  type Message,
  type Registry,
} from "@bufbuild/protobuf";

/** Raised at start when `response_body` names no top-level field. */
export class ResponseBodyError extends Error {
  override name = "ResponseBodyError";
}

export const defaultJsonWriteOptions = { alwaysEmitImplicit: true } as const;

/** Turns a response message into the body text; compiled once per rule. */
export type Renderer = (message: Message) => string;

export function compileRenderer(
  method: string,
  output: DescMessage,
  responseBody: string,
  registry?: Registry,
): Renderer {
  const options = registry ? { ...defaultJsonWriteOptions, registry } : defaultJsonWriteOptions;
  if (responseBody === "") return (message) => toJsonString(output, message, options);
  const field: DescField | undefined = output.fields.find((f) => f.name === responseBody);
  if (!field) throw new ResponseBodyError(`${method}: response_body "${responseBody}" names no top-level field`);
  const key = field.jsonName;
  // An unset message field has no JSON form: the answer is `null`.
  return (message) => JSON.stringify((toJson(output, message, options) as JsonObject)[key] ?? null);
}
