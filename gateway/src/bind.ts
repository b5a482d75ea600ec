// Builds the request message of a REST call from its path variables, query string and body, per the
// rule's `body`. Everything is turned into proto3 JSON and decoded by protobuf-es (`fromJson`), so the
// JSON forms of enums, 64-bit integers and well-known types are the library's, not a second copy.
//
// Query parameters follow grpc-gateway (runtime/query.go): `a.b=…` for nested fields, proto or JSON
// names; a repeated field is given once per value (`x=1&x=2`; commas are not split, so values may contain
// them); a map entry is `m[key]=value`; bools as Go's ParseBool; enums by name or number. Unlike
// grpc-gateway, a parameter that names no field (or a field bound by the path or the body) is a 400.
import {
  fromJson,
  mergeFromJson,
  ScalarType,
  type DescField,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type Message,
  type Registry,
} from "@bufbuild/protobuf";
import { isWrapperDesc } from "@bufbuild/protobuf/wkt";
import type { PathTemplate } from "./template/parse.ts";

/** Input that cannot become the request message: 400, or 413 for a body over the limit. */
export class BindError extends Error {
  override name = "BindError";
  constructor(
    message: string,
    readonly status: 400 | 413 | 415 = 400,
    /** The field or parameter at fault, when there is one. */
    readonly field?: string,
  ) {
    super(message);
  }
}

/** A rule whose path variables, body or response body name no suitable field; found at start. */
export class BindingDefinitionError extends Error {
  override name = "BindingDefinitionError";
}

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
  /**
   * Builds the request message. `variables` are the decoded path values in template order; `query` the raw
   * query string without "?"; `body` the raw body text when the rule has one.
   */
  bind(variables: readonly string[], query: string, body: string | undefined): Message;
}

/** Reads with unknown JSON fields rejected; the registry resolves `google.protobuf.Any`. */
export const defaultJsonReadOptions = { ignoreUnknownFields: false } as const;

// `parent` is the message that declares `field`; used to pin a decode error on one parameter.
type Target =
  | { kind: "scalar"; field: DescField; parent: DescMessage; path: string[]; repeated: boolean }
  | { kind: "map"; field: DescField; parent: DescMessage; path: string[]; key: string };

const fieldIndex = new WeakMap<DescMessage, Map<string, DescField>>();

/** A message's fields by proto name and by JSON name. */
function fieldsOf(desc: DescMessage): Map<string, DescField> {
  let m = fieldIndex.get(desc);
  if (!m) {
    m = new Map();
    for (const f of desc.fields) {
      m.set(f.name, f);
      m.set(f.jsonName, f);
    }
    fieldIndex.set(desc, m);
  }
  return m;
}

const WKT_STRING_FORM = new Set(["google.protobuf.Timestamp", "google.protobuf.Duration", "google.protobuf.FieldMask"]);

/** Whether a field can take its value from a single string (path variable or query value). */
function isLeaf(field: DescField): boolean {
  if (field.fieldKind === "scalar" || field.fieldKind === "enum") return true;
  if (field.fieldKind === "message") return WKT_STRING_FORM.has(field.message.typeName) || isWrapperDesc(field.message);
  return false;
}

const TRUE = new Set(["1", "t", "T", "TRUE", "true", "True"]);
const FALSE = new Set(["0", "f", "F", "FALSE", "false", "False"]);

/** The JSON value for one string given to a leaf field (or one element of a repeated one). */
function stringToJson(
  name: string,
  raw: string,
  scalar: ScalarType | undefined,
  enumOrMessage: "enum" | "message" | undefined,
  message?: DescMessage,
): JsonValue {
  if (enumOrMessage === "enum") return /^-?\d+$/.test(raw) ? Number(raw) : raw;
  if (enumOrMessage === "message") {
    if (message && isWrapperDesc(message)) {
      const inner = message.fields[0]!;
      return stringToJson(name, raw, inner.scalar ?? undefined, undefined);
    }
    return raw;
  }
  if (scalar === ScalarType.BOOL) {
    if (TRUE.has(raw)) return true;
    if (FALSE.has(raw)) return false;
    throw new BindError(`invalid value for ${name}: "${raw}" is not a bool`, 400, name);
  }
  // Numbers stay strings: proto3 JSON accepts them for every numeric type and fromJson checks the range.
  return raw;
}

function leafJson(field: DescField, name: string, raw: string): JsonValue {
  switch (field.fieldKind) {
    case "scalar":
      return stringToJson(name, raw, field.scalar, undefined);
    case "enum":
      return stringToJson(name, raw, undefined, "enum");
    case "message":
      return stringToJson(name, raw, undefined, "message", field.message);
    case "list":
      return field.listKind === "scalar"
        ? stringToJson(name, raw, field.scalar, undefined)
        : field.listKind === "enum"
          ? stringToJson(name, raw, undefined, "enum")
          : stringToJson(name, raw, undefined, "message", field.message);
    case "map":
      return field.mapKind === "scalar"
        ? stringToJson(name, raw, field.scalar, undefined)
        : field.mapKind === "enum"
          ? stringToJson(name, raw, undefined, "enum")
          : stringToJson(name, raw, undefined, "message", field.message);
  }
}

function setPath(root: JsonObject, path: readonly string[], value: JsonValue): void {
  let obj = root;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    let next = obj[key];
    if (typeof next !== "object" || next === null || Array.isArray(next)) obj[key] = next = {};
    obj = next as JsonObject;
  }
  obj[path[path.length - 1]!] = value;
}

/** Compiles the binding of one rule; throws `BindingDefinitionError` for rules that cannot work. */
export function compileBinding(rule: BindingRule, registry?: Registry): Binding {
  const { input, template, method } = rule;
  const readOptions = registry ? { ...defaultJsonReadOptions, registry } : defaultJsonReadOptions;

  // Path variables: resolved to JSON key paths now, so a request only assigns strings.
  const pathVars = template.variables.map((v) => {
    let desc: DescMessage = input;
    const jsonPath: string[] = [];
    let field: DescField | undefined;
    v.fieldPath.forEach((name, i) => {
      field = desc.fields.find((f) => f.name === name);
      if (!field)
        throw new BindingDefinitionError(`${method}: path variable "${v.fieldPath.join(".")}" names no field`);
      jsonPath.push(field.jsonName);
      if (i < v.fieldPath.length - 1) {
        if (field.fieldKind !== "message" || isLeaf(field)) {
          throw new BindingDefinitionError(
            `${method}: path variable "${v.fieldPath.join(".")}": ${name} is not a message`,
          );
        }
        desc = field.message;
      }
    });
    if (!field || !isLeaf(field)) {
      throw new BindingDefinitionError(
        `${method}: path variable "${v.fieldPath.join(".")}" must be a singular scalar field`,
      );
    }
    return { field, parent: desc, jsonPath, name: v.fieldPath.join(".") };
  });

  let bodyField: DescField | undefined;
  if (rule.body !== "" && rule.body !== "*") {
    bodyField = input.fields.find((f) => f.name === rule.body);
    if (!bodyField) throw new BindingDefinitionError(`${method}: body "${rule.body}" names no top-level field`);
  }
  const wholeBody = rule.body === "*";

  // Fields the query string may not set: those bound by the path, and the body field.
  const boundPaths = new Set(pathVars.map((p) => p.jsonPath.join(".")));
  if (bodyField) boundPaths.add(bodyField.jsonName);
  const isBound = (jsonPath: readonly string[]): boolean => {
    for (let i = 1; i <= jsonPath.length; i++) if (boundPaths.has(jsonPath.slice(0, i).join("."))) return true;
    return false;
  };

  // Query keys resolved once per distinct key (map entries once per map, whatever the entry key); misses
  // are not cached, so junk keys cannot grow the map.
  const targets = new Map<string, Target>();
  const resolve = (key: string): Target => {
    let mapKey: string | undefined;
    let dotted = key;
    const bracket = key.indexOf("[");
    if (bracket > 0 && key.endsWith("]")) {
      mapKey = key.slice(bracket + 1, -1);
      dotted = key.slice(0, bracket);
    }
    const cacheKey = mapKey === undefined ? key : `${dotted}[]`;
    const cached = targets.get(cacheKey);
    if (cached) return cached.kind === "map" ? { ...cached, key: mapKey! } : cached;
    const unknown = () => new BindError(`unknown query parameter "${key}"`, 400, key);
    if (wholeBody) throw unknown();
    const names = dotted.split(".");
    let desc: DescMessage = input;
    const path: string[] = [];
    let field: DescField | undefined;
    for (let i = 0; i < names.length; i++) {
      field = fieldsOf(desc).get(names[i]!);
      if (!field) throw unknown();
      path.push(field.jsonName);
      if (i < names.length - 1) {
        if (field.fieldKind !== "message" || isLeaf(field)) throw unknown();
        desc = field.message;
      }
    }
    if (!field || isBound(path)) throw unknown();
    let target: Target;
    if (mapKey !== undefined) {
      if (field.fieldKind !== "map" || (field.mapKind === "message" && !isLeafMessage(field.message))) throw unknown();
      target = { kind: "map", field, parent: desc, path, key: mapKey };
    } else if (field.fieldKind === "list") {
      if (field.listKind === "message" && !isLeafMessage(field.message)) {
        throw new BindError(`query parameter "${key}" is a list of messages; send it in a body`, 400, key);
      }
      target = { kind: "scalar", field, parent: desc, path, repeated: true };
    } else if (isLeaf(field)) {
      target = { kind: "scalar", field, parent: desc, path, repeated: false };
    } else {
      throw new BindError(
        `query parameter "${key}" is a message or map; set its fields (${key}.field or ${key}[key])`,
        400,
        key,
      );
    }
    targets.set(cacheKey, target);
    return target;
  };

  // Only after a decode failed: find the path variable or query parameter whose value is wrong, so the
  // error names what the caller typed rather than an inner type.
  const blame = (variables: readonly string[], query: string): BindError | undefined => {
    const check = (name: string, parent: DescMessage, field: DescField, json: JsonValue): BindError | undefined => {
      try {
        fromJson(parent, { [field.jsonName]: json }, readOptions);
        return undefined;
      } catch (e) {
        return new BindError(`invalid value for ${name}: ${(e as Error).message}`, 400, name);
      }
    };
    for (let i = 0; i < pathVars.length; i++) {
      const p = pathVars[i]!;
      const err = check(p.name, p.parent, p.field, leafJson(p.field, p.name, variables[i]!));
      if (err) return err;
    }
    for (const [key, raw] of new URLSearchParams(query)) {
      const t = resolve(key);
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
        (what === "request" && blame(variables, query)) || new BindError(`invalid ${what}: ${(e as Error).message}`)
      );
    }
  };

  const hasBody = rule.body !== "";
  return {
    hasBody,
    bind(variables, query, body) {
      const json: JsonObject = {};
      for (let i = 0; i < pathVars.length; i++) {
        const p = pathVars[i]!;
        setPath(json, p.jsonPath, leafJson(p.field, p.name, variables[i]!));
      }
      if (query !== "") {
        const seen = new Set<string>();
        for (const [key, raw] of new URLSearchParams(query)) {
          const t = resolve(key);
          const value = leafJson(t.field, key, raw);
          if (t.kind === "map") {
            setPath(json, [...t.path, t.key], value);
          } else if (t.repeated) {
            const joined = t.path.join(".");
            if (!seen.has(joined)) {
              seen.add(joined);
              setPath(json, t.path, [value]);
            } else {
              let list: JsonValue = json;
              for (const k of t.path) list = (list as JsonObject)[k]!;
              (list as JsonValue[]).push(value);
            }
          } else {
            const joined = t.path.join(".");
            if (seen.has(joined)) throw new BindError(`query parameter "${key}" given more than once`, 400, key);
            seen.add(joined);
            setPath(json, t.path, value);
          }
        }
      }
      if (!hasBody) return decode(json, "request", variables, query);

      let parsed: JsonValue = {};
      if (body !== undefined && body.trim() !== "") {
        try {
          parsed = JSON.parse(body) as JsonValue;
        } catch (e) {
          throw new BindError(`malformed JSON body: ${(e as Error).message}`);
        }
      }
      const message = decode(bodyField ? { [bodyField.jsonName]: parsed } : parsed, "body", variables, query);
      if (pathVars.length === 0 && query === "") return message;
      try {
        return mergeFromJson(input, message, json, readOptions);
      } catch (e) {
        throw blame(variables, query) ?? new BindError(`invalid request: ${(e as Error).message}`);
      }
    },
  };
}

function isLeafMessage(desc: DescMessage): boolean {
  return WKT_STRING_FORM.has(desc.typeName) || isWrapperDesc(desc);
}
