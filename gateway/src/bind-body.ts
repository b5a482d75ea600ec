// The rule's `body`: "" (none), "*" (the whole request message) or one top-level field, which the JSON
// body then is. Path variables and query parameters are merged on top of the decoded body, so they win.
import type { DescField, DescMessage, JsonValue } from "@bufbuild/protobuf";
import { BindError, BindingDefinitionError } from "./bind-values.ts";

export interface BodyBinding {
  /** Whether the rule takes a request body. */
  hasBody: boolean;
  /** `body: "*"`. */
  wholeBody: boolean;
  /** The top-level field the body fills, for `body: "<field>"`. */
  field?: DescField;
  /**
   * `body: "<field>"` naming a `google.api.HttpBody` field: that field receives the body as it came (its bytes
   * and content type, never parsed), for callers that sign the raw body (webhooks). Any content type is taken.
   */
  rawBody: boolean;
  /** The JSON of the request message for a raw JSON body (empty or blank: an empty message). */
  toJson(body: string | undefined, contentType?: string): JsonValue;
}

const HTTP_BODY = "google.api.HttpBody";

/** Resolves a rule's body; throws `BindingDefinitionError` when it names no top-level field. */
export function compileBodyBinding(method: string, input: DescMessage, body: string): BodyBinding {
  let field: DescField | undefined;
  if (body !== "" && body !== "*") {
    field = input.fields.find((f) => f.name === body);
    if (!field) throw new BindingDefinitionError(`${method}: body "${body}" names no top-level field`);
  }
  const rawBody = field?.fieldKind === "message" && field.message.typeName === HTTP_BODY;
  return {
    hasBody: body !== "",
    wholeBody: body === "*",
    field,
    rawBody,
    toJson(raw, contentType) {
      if (rawBody) {
        const data = Buffer.from(raw ?? "", "utf8").toString("base64");
        return { [field!.jsonName]: { contentType: contentType ?? "", data } };
      }
      let parsed: JsonValue = {};
      if (raw !== undefined && raw.trim() !== "") {
        try {
          parsed = JSON.parse(raw) as JsonValue;
        } catch (e) {
          throw new BindError(`malformed JSON body: ${(e as Error).message}`);
        }
      }
      return field ? { [field.jsonName]: parsed } : parsed;
    },
  };
}
