// Builds the request message of a REST call from its path variables, query string and body, per the
// rule's `body`. Everything is turned into proto3 JSON and decoded by protobuf-es (`fromJson`), so the
// JSON forms of enums, 64-bit integers and well-known types are the library's, not a second copy.
//
// Query parameters follow grpc-gateway (runtime/query.go): `a.b=…` for nested fields, proto or JSON
// names; a repeated field is given once per value (`x=1&x=2`; commas are not split, so values may contain
// them); a map entry is `m[key]=value`; bools as Go's ParseBool; enums by name or number. Unlike
// grpc-gateway, a parameter that names no field (or a field bound by the path or the body) is a 400.
//
// A `multipart/form-data` body is read by the same rules, relative to the rule's body: a text part is a
// query parameter by another name, and a file part fills a `tt.common.v1.UploadedFile` field (or adds to a
// repeated one). The files are set on the decoded message directly, so their bytes never pass through
// base64 JSON.
import {
  create,
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
import { reflect, type ReflectList, type ReflectMessage } from "@bufbuild/protobuf/reflect";
import { isWrapperDesc } from "@bufbuild/protobuf/wkt";
import { UploadedFileSchema } from "@tt/proto/tt/common/v1/upload_pb";
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

/** One file part of a multipart body. */
export interface FormFile {
  /** The part's form field name. */
  name: string;
  filename: string;
  contentType: string;
  content: Uint8Array;
}

/** A parsed `multipart/form-data` body, parts in the order they came. */
export interface FormBody {
  fields: Array<[name: string, value: string]>;
  files: FormFile[];
}

export interface Binding {
  /** Whether the rule takes a request body. */
  readonly hasBody: boolean;
  /** Whether the body may be `multipart/form-data`: it has a `tt.common.v1.UploadedFile` field to fill. */
  readonly acceptsForm: boolean;
  /**
   * Builds the request message. `variables` are the decoded path values in template order; `query` the raw
   * query string without "?"; `body` the raw body text when the rule has one.
   */
  bind(variables: readonly string[], query: string, body: string | undefined): Message;
  /**
   * Refuses a form part that cannot bind (unknown name, file for a non-file field or text for a file
   * field); called as each part starts, so a bad upload fails before its bytes are read.
   */
  checkFormPart(name: string, isFile: boolean): void;
  /** Builds the request message from a multipart body; path variables and query win as with JSON. */
  bindForm(variables: readonly string[], query: string, form: FormBody): Message;
}

/** The message a file part fills. */
export const UPLOADED_FILE_TYPE = UploadedFileSchema.typeName;

/** Reads with unknown JSON fields rejected; the registry resolves `google.protobuf.Any`. */
export const defaultJsonReadOptions = { ignoreUnknownFields: false } as const;

// `parent` is the message that declares `field`; used to pin a decode error on one parameter.
type Target =
  | { kind: "scalar"; field: DescField; parent: DescMessage; path: string[]; repeated: boolean }
  | { kind: "map"; field: DescField; parent: DescMessage; path: string[]; key: string }
  // `fields` is the chain from the request message down to the UploadedFile field.
  | { kind: "file"; field: DescField; parent: DescMessage; path: string[]; fields: DescField[]; repeated: boolean };

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

function isUploadedFile(field: DescField): boolean {
  return (
    (field.fieldKind === "message" || (field.fieldKind === "list" && field.listKind === "message")) &&
    field.message.typeName === UPLOADED_FILE_TYPE
  );
}

/** Whether a form can reach an UploadedFile field of `desc` by a dotted name (singular messages only). */
export function hasUploadedFileField(desc: DescMessage, seen: Set<DescMessage> = new Set()): boolean {
  seen.add(desc);
  for (const f of desc.fields) {
    if (isUploadedFile(f)) return true;
    if (f.fieldKind === "message" && !isLeaf(f) && !seen.has(f.message) && hasUploadedFileField(f.message, seen)) {
      return true;
    }
  }
  return false;
}

function setPath(root: JsonObject, path: readonly string[], value: JsonValue): void {
  let obj = root;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    let next = obj[key];
    if (typeof next !== "object" || next === null || Array.isArray(next)) obj[key] = next = {};
    obj = next as JsonObject;
  }
  const last = path[path.length - 1]!;
  // A map key may be "__proto__": assigning it would set the object's prototype instead of adding an entry.
  if (last === "__proto__")
    Object.defineProperty(obj, last, { value, enumerable: true, writable: true, configurable: true });
  else obj[last] = value;
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

  // Names resolved once per distinct name (map entries once per map, whatever the entry key); misses are
  // not cached, so junk names cannot grow the map. Query names start at the request message; form names
  // at the body, where they may also name UploadedFile fields.
  const createResolver = (
    what: "query parameter" | "form field",
    root: DescMessage,
    prefix: readonly DescField[],
    refuseAll: boolean,
    bound: (jsonPath: readonly string[]) => boolean,
  ) => {
    const files = what === "form field";
    const targets = new Map<string, Target>();
    return (key: string): Target => {
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
      const unknown = () => new BindError(`unknown ${what} "${key}"`, 400, key);
      if (refuseAll) throw unknown();
      const names = dotted.split(".");
      let desc: DescMessage = root;
      const path: string[] = prefix.map((f) => f.jsonName);
      const chain: DescField[] = [...prefix];
      let field: DescField | undefined;
      for (let i = 0; i < names.length; i++) {
        field = fieldsOf(desc).get(names[i]!);
        if (!field) throw unknown();
        path.push(field.jsonName);
        chain.push(field);
        if (i < names.length - 1) {
          if (field.fieldKind !== "message" || isLeaf(field)) throw unknown();
          desc = field.message;
        }
      }
      if (!field || bound(path)) throw unknown();
      let target: Target;
      if (files && mapKey === undefined && isUploadedFile(field)) {
        target = { kind: "file", field, parent: desc, path, fields: chain, repeated: field.fieldKind === "list" };
      } else if (mapKey !== undefined) {
        if (field.fieldKind !== "map" || (field.mapKind === "message" && !isLeafMessage(field.message)))
          throw unknown();
        target = { kind: "map", field, parent: desc, path, key: mapKey };
      } else if (field.fieldKind === "list") {
        if (field.listKind === "message" && !isLeafMessage(field.message)) {
          throw new BindError(`${what} "${key}" is a list of messages; send it in a body`, 400, key);
        }
        target = { kind: "scalar", field, parent: desc, path, repeated: true };
      } else if (isLeaf(field)) {
        target = { kind: "scalar", field, parent: desc, path, repeated: false };
      } else {
        throw new BindError(
          `${what} "${key}" is a message or map; set its fields (${key}.field or ${key}[key])`,
          400,
          key,
        );
      }
      targets.set(cacheKey, target);
      return target;
    };
  };
  const resolve = createResolver("query parameter", input, [], wholeBody, isBound);

  // Form names are relative to the body, as JSON keys are; a form may name a path-bound field, and the
  // path then wins, as it does over a JSON body.
  const formRoot = wholeBody
    ? input
    : bodyField?.fieldKind === "message" && !isLeaf(bodyField)
      ? bodyField.message
      : undefined;
  const acceptsForm = formRoot !== undefined && hasUploadedFileField(formRoot);
  const resolveForm = acceptsForm
    ? createResolver("form field", formRoot, bodyField ? [bodyField] : [], false, () => false)
    : undefined;
  const formTarget = (name: string, isFile: boolean): Target => {
    if (!resolveForm) throw new BindError("multipart/form-data is not accepted here; send application/json", 415);
    const t = resolveForm(name);
    if (isFile && t.kind !== "file") {
      throw new BindError(`form field "${name}" is not a file field; send it as text`, 400, name);
    }
    if (!isFile && t.kind === "file") {
      throw new BindError(`form field "${name}" takes a file; send it as a file part`, 400, name);
    }
    return t;
  };

  // Adds one string value (query parameter or form field) to the JSON being built.
  const assign = (json: JsonObject, seen: Set<string>, t: Target, key: string, raw: string, what: string) => {
    const value = leafJson(t.field, key, raw);
    if (t.kind === "map") {
      setPath(json, [...t.path, t.key], value);
    } else if (t.kind === "scalar" && t.repeated) {
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
      if (seen.has(joined)) throw new BindError(`${what} "${key}" given more than once`, 400, key);
      seen.add(joined);
      setPath(json, t.path, value);
    }
  };

  // Only after a decode failed: find the path variable or query parameter whose value is wrong, so the
  // error names what the caller typed rather than an inner type.
  const blame = (
    variables: readonly string[] | undefined,
    entries: Iterable<[string, string]>,
    resolveName: (key: string) => Target = resolve,
  ): BindError | undefined => {
    const check = (name: string, parent: DescMessage, field: DescField, json: JsonValue): BindError | undefined => {
      try {
        fromJson(parent, { [field.jsonName]: json }, readOptions);
        return undefined;
      } catch (e) {
        return new BindError(`invalid value for ${name}: ${(e as Error).message}`, 400, name);
      }
    };
    for (let i = 0; variables && i < pathVars.length; i++) {
      const p = pathVars[i]!;
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

  const mergeOnTop = (message: Message, json: JsonObject, variables: readonly string[], query: string): Message => {
    if (pathVars.length === 0 && query === "") return message;
    try {
      return mergeFromJson(input, message, json, readOptions);
    } catch (e) {
      throw blame(variables, new URLSearchParams(query)) ?? new BindError(`invalid request: ${(e as Error).message}`);
    }
  };

  const hasBody = rule.body !== "";
  return {
    hasBody,
    acceptsForm,
    bind(variables, query, body) {
      const json: JsonObject = {};
      for (let i = 0; i < pathVars.length; i++) {
        const p = pathVars[i]!;
        setPath(json, p.jsonPath, leafJson(p.field, p.name, variables[i]!));
      }
      if (query !== "") {
        const seen = new Set<string>();
        for (const [key, raw] of new URLSearchParams(query))
          assign(json, seen, resolve(key), key, raw, "query parameter");
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
      return mergeOnTop(message, json, variables, query);
    },
    checkFormPart(name, isFile) {
      formTarget(name, isFile);
    },
    bindForm(variables, query, form) {
      if (!resolveForm) throw new BindError("multipart/form-data is not accepted here; send application/json", 415);
      const formJson: JsonObject = {};
      const seen = new Set<string>();
      for (const [key, raw] of form.fields) assign(formJson, seen, formTarget(key, false), key, raw, "form field");
      let message: Message;
      try {
        message = fromJson(input, formJson, readOptions);
      } catch (e) {
        throw blame(undefined, form.fields, resolveForm) ?? new BindError(`invalid form: ${(e as Error).message}`);
      }
      const seenFiles = new Set<string>();
      for (const file of form.files) {
        const t = formTarget(file.name, true) as Extract<Target, { kind: "file" }>;
        // What a browser sends for a file input left empty.
        if (file.filename === "" && file.content.length === 0) continue;
        const joined = t.path.join(".");
        if (!t.repeated && seenFiles.has(joined)) {
          throw new BindError(`form field "${file.name}" given more than once`, 400, file.name);
        }
        seenFiles.add(joined);
        setFile(input, message, t.fields, {
          content: file.content,
          filename: file.filename,
          contentType: file.contentType,
        });
      }
      // Path variables and query values on top, exactly as over a JSON body.
      const json: JsonObject = {};
      for (let i = 0; i < pathVars.length; i++) {
        const p = pathVars[i]!;
        setPath(json, p.jsonPath, leafJson(p.field, p.name, variables[i]!));
      }
      if (query !== "") {
        const seenQuery = new Set<string>();
        for (const [key, raw] of new URLSearchParams(query)) {
          assign(json, seenQuery, resolve(key), key, raw, "query parameter");
        }
      }
      return mergeOnTop(message, json, variables, query);
    },
  };
}

/** Sets (or, for a repeated field, adds) one UploadedFile at the end of `chain`, creating the messages on the way. */
function setFile(
  input: DescMessage,
  message: Message,
  chain: readonly DescField[],
  value: { content: Uint8Array; filename: string; contentType: string },
): void {
  let r: ReflectMessage = reflect(input, message);
  for (let i = 0; i < chain.length - 1; i++) {
    const f = chain[i]!;
    const child = r.get(f) as ReflectMessage;
    if (!r.isSet(f)) r.set(f, child);
    r = child;
  }
  const last = chain[chain.length - 1]!;
  const file = reflect(last.message!, create(last.message!, value));
  if (last.fieldKind === "list") (r.get(last) as ReflectList).add(file);
  else r.set(last, file);
}

function isLeafMessage(desc: DescMessage): boolean {
  return WKT_STRING_FORM.has(desc.typeName) || isWrapperDesc(desc);
}
