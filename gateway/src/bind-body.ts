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
  /** The JSON of the request message for a raw JSON body (empty or blank: an empty message). */
  toJson(body: string | undefined): JsonValue;
}

/** Resolves a rule's body; throws `BindingDefinitionError` when it names no top-level field. */
export function compileBodyBinding(method: string, input: DescMessage, body: string): BodyBinding {
  let field: DescField | undefined;
  if (body !== "" && body !== "*") {
    field = input.fields.find((f) => f.name === body);
    if (!field) throw new BindingDefinitionError(`${method}: body "${body}" names no top-level field`);
  }
  return {
    hasBody: body !== "",
    wholeBody: body === "*",
    field,
    toJson(raw) {
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
