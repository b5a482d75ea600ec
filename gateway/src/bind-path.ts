// Path variables of a rule (`/things/{thing.id}`): each names a singular leaf field by its proto field path,
// as google.api.http says. Resolved to JSON key paths when the rule is compiled, so a request only assigns
// strings; the decoded value is checked by protobuf-es with the rest of the message.
import type { DescField, DescMessage, JsonObject } from "@bufbuild/protobuf";
import type { PathTemplate } from "./template/parse.ts";
import { BindingDefinitionError, isLeaf, leafJson, setPath } from "./bind-values.ts";

export interface PathVariableBinding {
  /** The field the variable sets. */
  field: DescField;
  /** The message that declares `field`. */
  parent: DescMessage;
  /** JSON names from the request message down to `field`. */
  jsonPath: string[];
  /** The variable as the template writes it (`thing.id`), for error messages. */
  name: string;
}

export interface PathBinding {
  variables: readonly PathVariableBinding[];
  /** Sets the decoded path values (in template order) into the JSON being built. */
  assign(json: JsonObject, values: readonly string[]): void;
}

/** Resolves a template's variables against the request message; throws `BindingDefinitionError` for bad ones. */
export function compilePathBinding(method: string, input: DescMessage, template: PathTemplate): PathBinding {
  const variables = template.variables.map((v): PathVariableBinding => {
    const name = v.fieldPath.join(".");
    let desc: DescMessage = input;
    const jsonPath: string[] = [];
    let field: DescField | undefined;
    v.fieldPath.forEach((part, i) => {
      field = desc.fields.find((f) => f.name === part);
      if (!field) throw new BindingDefinitionError(`${method}: path variable "${name}" names no field`);
      jsonPath.push(field.jsonName);
      if (i < v.fieldPath.length - 1) {
        if (field.fieldKind !== "message" || isLeaf(field)) {
          throw new BindingDefinitionError(`${method}: path variable "${name}": ${part} is not a message`);
        }
        desc = field.message;
      }
    });
    if (!field || !isLeaf(field)) {
      throw new BindingDefinitionError(`${method}: path variable "${name}" must be a singular scalar field`);
    }
    return { field, parent: desc, jsonPath, name };
  });
  return {
    variables,
    assign(json, values) {
      for (let i = 0; i < variables.length; i++) {
        const p = variables[i]!;
        setPath(json, p.jsonPath, leafJson(p.field, p.name, values[i]!));
      }
    },
  };
}
