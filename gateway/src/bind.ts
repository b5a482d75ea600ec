// Builds the request message of a REST call from its path variables, query string and body, per the
// rule's `body`; each input has its own module (bind-path, bind-query, bind-body, bind-multipart) and this
// one composes them. Everything is turned into proto3 JSON and decoded by protobuf-es (`fromJson`), so the
// JSON forms of enums, 64-bit integers and well-known types are the library's, not a second copy. When the
// decode fails, the path variable, query parameter or form field whose value is wrong is named.
import {
  fromJson,
  mergeFromJson,
  type DescField,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type Message,
  type Registry,
} from "@bufbuild/protobuf";
import type { PathTemplate } from "./template/parse.ts";
import { compileBodyBinding } from "./bind-body.ts";
import { compileFormBinding, type FormBody } from "./bind-multipart.ts";
import { compilePathBinding } from "./bind-path.ts";
import { assignQuery, checkQueryNames, createNameResolver, type NameResolver } from "./bind-query.ts";
import { BindError, defaultJsonReadOptions, leafJson } from "./bind-values.ts";

export { BindError, BindingDefinitionError, defaultJsonReadOptions, UPLOADED_FILE_TYPE } from "./bind-values.ts";
export { hasUploadedFileField } from "./bind-multipart.ts";
export type { FormBody, FormFile } from "./bind-multipart.ts";
export { isQueryFlattened, queryFieldsOf } from "./bind-query.ts";

export interface BindingRule {
  /** The full name of the RPC, for error messages. */
  method: string;
  input: DescMessage;
  template: PathTemplate;
  /** The rule's `body`: "" (none), "*" or a top-level field name. */
  body: string;
}

export interface Binding {
  /** Whether the rule takes a request body. */
  readonly hasBody: boolean;
  /** Whether the body may be `multipart/form-data`: it has a `tt.common.v1.UploadedFile` field to fill. */
  readonly acceptsForm: boolean;
  /** Whether the body is one `google.api.HttpBody` field, filled with the raw body and its content type. */
  readonly rawBody: boolean;
  /**
   * Builds the request message. `variables` are the decoded path values in template order; `query` the raw
   * query string without "?"; `body` the raw body text when the rule has one.
   */
  bind(variables: readonly string[], query: string, body: string | undefined, contentType?: string): Message;
  /**
   * Refuses a form part that cannot bind (unknown name, file for a non-file field or text for a file
   * field); called as each part starts, so a bad upload fails before its bytes are read.
   */
  checkFormPart(name: string, isFile: boolean): void;
  /** Builds the request message from a multipart body; path variables and query win as with JSON. */
  bindForm(variables: readonly string[], query: string, form: FormBody): Message;
}

/** Compiles the binding of one rule; throws `BindingDefinitionError` for rules that cannot work. */
export function compileBinding(rule: BindingRule, registry?: Registry): Binding {
  const { input, template, method } = rule;
  const readOptions = registry ? { ...defaultJsonReadOptions, registry } : defaultJsonReadOptions;

  const path = compilePathBinding(method, input, template);
  const body = compileBodyBinding(method, input, rule.body);
  checkQueryNames(input);

  // Fields the query string may not set: those bound by the path, and the body field.
  const boundPaths = new Set(path.variables.map((p) => p.jsonPath.join(".")));
  if (body.field) boundPaths.add(body.field.jsonName);
  const isBound = (jsonPath: readonly string[]): boolean => {
    for (let i = 1; i <= jsonPath.length; i++) if (boundPaths.has(jsonPath.slice(0, i).join("."))) return true;
    return false;
  };
  const resolve = createNameResolver({
    what: "query parameter",
    root: input,
    refuseAll: body.wholeBody,
    bound: isBound,
  });
  const form = compileFormBinding(input, body);

  // Only after a decode failed: find the path variable or query parameter whose value is wrong, so the
  // error names what the caller typed rather than an inner type.
  const blame = (
    variables: readonly string[] | undefined,
    entries: Iterable<[string, string]>,
    resolveName: NameResolver = resolve,
  ): BindError | undefined => {
    const check = (name: string, parent: DescMessage, field: DescField, json: JsonValue): BindError | undefined => {
      try {
        fromJson(parent, { [field.jsonName]: json }, readOptions);
        return undefined;
      } catch (e) {
        return new BindError(`invalid value for ${name}: ${(e as Error).message}`, 400, name);
      }
    };
    for (let i = 0; variables && i < path.variables.length; i++) {
      const p = path.variables[i]!;
      const err = check(p.name, p.parent, p.field, leafJson(p.field, p.name, variables[i]!));
      if (err) return err;
    }
    for (const [key, raw] of entries) {
      const t = resolveName(key);
      const v = leafJson(t.field, key, raw);
      const err = check(key, t.parent, t.field, t.kind === "map" ? { [t.key]: v } : t.repeated ? [v] : v);
      if (err) return err;
    }
    return undefined;
  };

  const decode = (json: JsonValue, what: string, variables: readonly string[], query: string): Message => {
    try {
      return fromJson(input, json, readOptions);
    } catch (e) {
      throw (
        (what === "request" && blame(variables, new URLSearchParams(query))) ||
        new BindError(`invalid ${what}: ${(e as Error).message}`)
      );
    }
  };

  // The JSON of the path variables and query parameters.
  const requestJson = (variables: readonly string[], query: string): JsonObject => {
    const json: JsonObject = {};
    path.assign(json, variables);
    assignQuery(json, query, resolve);
    return json;
  };

  // Path variables and query values on top of a decoded body or form, so they win.
  const mergeOnTop = (message: Message, json: JsonObject, variables: readonly string[], query: string): Message => {
    if (path.variables.length === 0 && query === "") return message;
    try {
      return mergeFromJson(input, message, json, readOptions);
    } catch (e) {
      throw blame(variables, new URLSearchParams(query)) ?? new BindError(`invalid request: ${(e as Error).message}`);
    }
  };

  return {
    hasBody: body.hasBody,
    acceptsForm: form.acceptsForm,
    rawBody: body.rawBody,
    bind(variables, query, raw, contentType) {
      const json = requestJson(variables, query);
      if (!body.hasBody) return decode(json, "request", variables, query);
      const message = decode(body.toJson(raw, contentType), "body", variables, query);
      return mergeOnTop(message, json, variables, query);
    },
    checkFormPart(name, isFile) {
      form.checkPart(name, isFile);
    },
    bindForm(variables, query, formBody) {
      const fieldsJson = form.fieldsJson(formBody);
      let message: Message;
      try {
        message = fromJson(input, fieldsJson, readOptions);
      } catch (e) {
        throw blame(undefined, formBody.fields, form.resolve) ?? new BindError(`invalid form: ${(e as Error).message}`);
      }
      form.setFiles(input, message, formBody);
      return mergeOnTop(message, requestJson(variables, query), variables, query);
    },
  };
}
