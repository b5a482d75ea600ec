// Query parameters follow grpc-gateway (runtime/query.go): `a.b=…` for nested fields, proto or JSON names;
// a repeated field is given once per value (`x=1&x=2`; commas are not split, so values may contain them); a
// map entry is `m[key]=value`; bools as Go's ParseBool; enums by name or number. Unlike grpc-gateway, a
// parameter that names no field (or a field bound by the path or the body) is a 400.
//
// A field marked `[(tt.options.v1.query).flatten = true]` (a singular message) lends its fields to the
// message that holds it: they are named without its name (`?s=…` for `query.s`), and its own name is not a
// parameter. That keeps a shared message's documented names top-level (every admin list's
// `tt.common.v1.AdminListQuery query`). Two fields that would answer to one name are refused at start.
//
// The same names, relative to the body, bind the text parts of a multipart form (bind-multipart.ts).
import {
  getOption,
  hasOption,
  type DescField,
  type DescMessage,
  type JsonObject,
  type JsonValue,
} from "@bufbuild/protobuf";
import { query as queryOption } from "@tt/proto/tt/options/v1/query_pb";
import {
  BindError,
  BindingDefinitionError,
  isLeaf,
  isLeafMessage,
  isUploadedFile,
  leafJson,
  setPath,
} from "./bind-values.ts";

/** Whether the field is marked `[(tt.options.v1.query).flatten = true]`. */
export function isQueryFlattened(field: DescField): boolean {
  return hasOption(field, queryOption) && getOption(field, queryOption).flatten;
}

const queryNameIndex = new WeakMap<DescMessage, ReadonlyMap<string, readonly DescField[]>>();

const chainName = (chain: readonly DescField[]) => chain.map((f) => f.name).join(".");

/**
 * The names a query string can give at one message level, proto and JSON names alike: each maps to the chain
 * of fields it sets, from a field of `desc` down through flattened fields (a single field when nothing is
 * flattened). Flattened fields are not in it under their own names. Throws `BindingDefinitionError` when a
 * flattened field is not a singular message or when one name would mean two fields.
 */
export function queryFieldsOf(desc: DescMessage): ReadonlyMap<string, readonly DescField[]> {
  const cached = queryNameIndex.get(desc);
  if (cached) return cached;
  const names = new Map<string, readonly DescField[]>();
  const add = (name: string, chain: readonly DescField[]) => {
    const prior = names.get(name);
    if (prior && prior[prior.length - 1] !== chain[chain.length - 1]) {
      throw new BindingDefinitionError(
        `${desc.typeName}: query name "${name}" would mean both ${chainName(prior)} and ${chainName(chain)}`,
      );
    }
    names.set(name, chain);
  };
  const walk = (d: DescMessage, prefix: readonly DescField[], seen: ReadonlySet<DescMessage>) => {
    for (const f of d.fields) {
      const chain = [...prefix, f];
      if (isQueryFlattened(f)) {
        if (f.fieldKind !== "message" || isLeafMessage(f.message)) {
          throw new BindingDefinitionError(
            `${d.typeName}.${f.name}: only a singular message field can be flattened into the query`,
          );
        }
        if (seen.has(f.message)) {
          throw new BindingDefinitionError(`${d.typeName}.${f.name}: flattens ${f.message.typeName} into itself`);
        }
        walk(f.message, chain, new Set([...seen, f.message]));
        continue;
      }
      add(f.name, chain);
      if (f.jsonName !== f.name) add(f.jsonName, chain);
    }
  };
  walk(desc, [], new Set([desc]));
  queryNameIndex.set(desc, names);
  return names;
}

/**
 * Checks the query names of `root` and of every message a dotted name can reach from it, so a bad flatten
 * option fails when the rule is compiled rather than on a request.
 */
export function checkQueryNames(root: DescMessage): void {
  const seen = new Set<DescMessage>();
  const visit = (desc: DescMessage) => {
    if (seen.has(desc)) return;
    seen.add(desc);
    for (const chain of queryFieldsOf(desc).values()) {
      const f = chain[chain.length - 1]!;
      if (f.fieldKind === "message" && !isLeaf(f)) visit(f.message);
    }
  };
  visit(root);
}

/** Where one query parameter (or form field) goes. `parent` declares `field`, to pin a decode error on it. */
export type Target =
  | { kind: "scalar"; field: DescField; parent: DescMessage; path: string[]; repeated: boolean }
  | { kind: "map"; field: DescField; parent: DescMessage; path: string[]; key: string }
  // `fields` is the chain from the request message down to the UploadedFile field.
  | { kind: "file"; field: DescField; parent: DescMessage; path: string[]; fields: DescField[]; repeated: boolean };

export type NameResolver = (key: string) => Target;

export interface NameResolverOptions {
  what: "query parameter" | "form field";
  /** The message the names start at. */
  root: DescMessage;
  /** The fields from the request message down to `root` (the body field of a form), if any. */
  prefix?: readonly DescField[];
  /** Every name is unknown (a rule whose body is the whole message takes no query parameters). */
  refuseAll?: boolean;
  /** JSON paths the name may not set (those bound by the path or the body). */
  bound?: (jsonPath: readonly string[]) => boolean;
}

/**
 * Resolves parameter names to targets. Names are resolved once per distinct name (map entries once per map,
 * whatever the entry key); misses are not cached, so junk names cannot grow the cache. Form fields may also
 * name UploadedFile fields.
 */
export function createNameResolver(opts: NameResolverOptions): NameResolver {
  const { what, root, prefix = [], refuseAll = false, bound = () => false } = opts;
  const files = what === "form field";
  const targets = new Map<string, Target>();
  return (key) => {
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
      const step = queryFieldsOf(desc).get(names[i]!);
      if (!step) throw unknown();
      for (const f of step) {
        path.push(f.jsonName);
        chain.push(f);
      }
      field = step[step.length - 1]!;
      if (i < names.length - 1) {
        if (field.fieldKind !== "message" || isLeaf(field)) throw unknown();
        desc = field.message;
      }
    }
    if (!field || bound(path)) throw unknown();
    const parent = field.parent;
    let target: Target;
    if (files && mapKey === undefined && isUploadedFile(field)) {
      target = { kind: "file", field, parent, path, fields: chain, repeated: field.fieldKind === "list" };
    } else if (mapKey !== undefined) {
      if (field.fieldKind !== "map" || (field.mapKind === "message" && !isLeafMessage(field.message))) throw unknown();
      target = { kind: "map", field, parent, path, key: mapKey };
    } else if (field.fieldKind === "list") {
      if (field.listKind === "message" && !isLeafMessage(field.message)) {
        throw new BindError(`${what} "${key}" is a list of messages; send it in a body`, 400, key);
      }
      target = { kind: "scalar", field, parent, path, repeated: true };
    } else if (isLeaf(field)) {
      target = { kind: "scalar", field, parent, path, repeated: false };
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
}

/**
 * Adds one string value (query parameter or form field) to the JSON being built. `seen` holds the JSON paths
 * already set by this request, so a singular field given twice is a 400 and a repeated one collects values.
 */
export function assignValue(
  json: JsonObject,
  seen: Set<string>,
  t: Target,
  key: string,
  raw: string,
  what: string,
): void {
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
}

/** Sets every parameter of a raw query string (without "?") into the JSON being built. */
export function assignQuery(json: JsonObject, query: string, resolve: NameResolver): void {
  if (query === "") return;
  const seen = new Set<string>();
  for (const [key, raw] of new URLSearchParams(query))
    assignValue(json, seen, resolve(key), key, raw, "query parameter");
}
