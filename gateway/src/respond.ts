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

/** A google.api.HttpBody answer: the bytes and their content type, written as they are. */
export interface RawBody {
  contentType: string;
  data: Uint8Array;
}

/** Reads the raw answer out of a response message. */
export type RawRenderer = (message: Message) => RawBody;

const HTTP_BODY = "google.api.HttpBody";

/**
 * When the rule answers a `google.api.HttpBody` (the whole response, or the field `response_body` names), the
 * REST answer is its `data` with its `content_type` instead of JSON (playlists, keys, media segments).
 * Undefined for every other rule.
 */
export function compileRawRenderer(output: DescMessage, responseBody: string): RawRenderer | undefined {
  const read = (body: Message | undefined): RawBody => {
    const b = body as { contentType?: string; data?: Uint8Array } | undefined;
    return { contentType: b?.contentType || "application/octet-stream", data: b?.data ?? new Uint8Array() };
  };
  if (responseBody === "") return output.typeName === HTTP_BODY ? (message) => read(message) : undefined;
  const field = output.fields.find((f) => f.name === responseBody);
  if (field?.fieldKind !== "message" || field.message.typeName !== HTTP_BODY) return undefined;
  const key = field.localName;
  return (message) => read((message as unknown as Record<string, Message | undefined>)[key]);
}
