// Enforces the declarative field rules of `tt.options.v1.field` on every request message, before any
// handler (and so any query) runs, for every service and every protocol the host serves:
// - no string anywhere in a request may contain a control character other than tab, line feed and carriage
//   return, nor a lone surrogate (PostgreSQL refuses U+0000 in text, and none of them belongs in our data);
// - a string is at most its field's declared `max_length` characters, counted in Unicode code points as
//   PostgreSQL counts varchar(n);
// - the field's declared `required`, `min_length`, `uuid`, `in`, `pattern`, `gte` / `lte` (field.proto says
//   what each means, and that the value rules skip an absent proto3 value).
// A refusal is InvalidArgument naming the field by its JSON name and path (`profile.nickname`,
// `badges[2]`, `stringMap["k"]`), in the wording the services already use for their own checks.
// What to check is worked out once per message descriptor (a plan, cached); a message that cannot hold a
// string is never walked.
import {
  getOption,
  hasOption,
  ScalarType,
  type DescField,
  type DescMessage,
  type DescService,
} from "@bufbuild/protobuf";
import { FeatureSet_FieldPresence, isWrapperDesc } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { field as fieldOption } from "@tt/proto/tt/options/v1/field_pb";
import { query as queryOption } from "@tt/proto/tt/options/v1/query_pb";
import { isUuid } from "../call.ts";
import { allowedStringsOf, inEnumOf } from "../proto/wire-enum.ts";

/** A control character (C0 but tab, LF, CR; DEL) or a lone surrogate. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|\p{Cs}/u;

/** The field's declared maximum length in characters; 0 when it declares none. */
export function maxLengthOf(field: DescField): number {
  return hasOption(field, fieldOption) ? getOption(field, fieldOption).maxLength : 0;
}

/** A field's declared rules besides `max_length`, compiled once. */
export interface ValueRules {
  required: boolean;
  /** String rules: at least this many code points (0: none), a UUID, one of `in`, matching `pattern`. */
  minLength: number;
  uuid: boolean;
  in?: ReadonlySet<string>;
  inText: string;
  pattern?: RegExp;
  /** Integer rules. */
  gte?: bigint;
  lte?: bigint;
  /** Whether any string rule or any integer rule is declared. */
  strings: boolean;
  integers: boolean;
}

const NO_RULES: ValueRules = {
  required: false,
  minLength: 0,
  uuid: false,
  inText: "",
  strings: false,
  integers: false,
};

const valueRules = new WeakMap<DescField, ValueRules>();

/** The field's declared rules besides `max_length` (a pattern that does not compile is left out, and named by inputRulesProblems). */
export function valueRulesOf(field: DescField): ValueRules {
  let rules = valueRules.get(field);
  if (rules) return rules;
  rules = NO_RULES;
  if (hasOption(field, fieldOption)) {
    const o = getOption(field, fieldOption);
    let pattern: RegExp | undefined;
    try {
      pattern = o.pattern ? new RegExp(o.pattern, "u") : undefined;
    } catch {
      pattern = undefined;
    }
    const allowed = allowedStringsOf(field);
    const strings = o.minLength > 0 || o.uuid || allowed.length > 0 || pattern !== undefined;
    const integers = o.gte !== undefined || o.lte !== undefined;
    if (o.required || strings || integers) {
      rules = {
        required: o.required,
        minLength: o.minLength,
        uuid: o.uuid,
        in: allowed.length ? new Set(allowed) : undefined,
        inText: allowed.join(", "),
        pattern,
        gte: o.gte,
        lte: o.lte,
        strings,
        integers,
      };
    }
  }
  valueRules.set(field, rules);
  return rules;
}

/** A singular message field whose fields REST callers give as top-level query names (tt.options.v1.query). */
function isQueryFlattened(field: DescField): boolean {
  return field.fieldKind === "message" && hasOption(field, queryOption) && getOption(field, queryOption).flatten;
}

/** Messages of google/protobuf: they carry no options, so the field holding one gives their strings' rules. */
function isWellKnown(desc: DescMessage): boolean {
  return desc.typeName.startsWith("google.protobuf.");
}

/** Whether a message of this type can hold, anywhere inside it, a field that `relevant` picks. */
function reachesAny(root: DescMessage, relevant: (f: DescField) => boolean, cache: WeakMap<DescMessage, boolean>) {
  let found = cache.get(root);
  if (found !== undefined) return found;
  found = false;
  const seen = new Set<DescMessage>([root]);
  const queue = [root];
  for (let desc = queue.pop(); desc && !found; desc = queue.pop()) {
    for (const f of desc.fields) {
      if (relevant(f)) {
        found = true;
        break;
      }
      const child = f.message;
      if (child && !seen.has(child)) {
        seen.add(child);
        queue.push(child);
      }
    }
  }
  cache.set(root, found);
  return found;
}

const reachesStringCache = new WeakMap<DescMessage, boolean>();
const needsWalkCache = new WeakMap<DescMessage, boolean>();

/** Whether a message of this type can hold a string anywhere inside it. */
function reachesString(root: DescMessage): boolean {
  return reachesAny(root, holdsStringDirectly, reachesStringCache);
}

/** Whether a message of this type holds a string or a field with declared rules anywhere inside it. */
function needsWalk(root: DescMessage): boolean {
  return reachesAny(root, (f) => holdsStringDirectly(f) || valueRulesOf(f) !== NO_RULES, needsWalkCache);
}

function holdsStringDirectly(f: DescField): boolean {
  switch (f.fieldKind) {
    case "scalar":
      return f.scalar === ScalarType.STRING;
    case "list":
      return f.listKind === "scalar" && f.scalar === ScalarType.STRING;
    case "map":
      return f.mapKey === ScalarType.STRING || (f.mapKind === "scalar" && f.scalar === ScalarType.STRING);
    default:
      return false;
  }
}

/** Whether the field can hold a string, directly or inside the message(s) it holds. */
function holdsString(f: DescField): boolean {
  return holdsStringDirectly(f) || (f.message !== undefined && reachesString(f.message));
}

function isIntegerScalar(t: ScalarType | undefined): boolean {
  return (
    t !== undefined &&
    t !== ScalarType.STRING &&
    t !== ScalarType.BYTES &&
    t !== ScalarType.BOOL &&
    t !== ScalarType.DOUBLE &&
    t !== ScalarType.FLOAT
  );
}

/** The string value(s) of the field itself (not inside a message it holds): string rules apply to them. */
function holdsOwnStrings(f: DescField): boolean {
  return (
    (f.fieldKind === "scalar" && f.scalar === ScalarType.STRING) ||
    (f.fieldKind === "list" && f.listKind === "scalar" && f.scalar === ScalarType.STRING) ||
    (f.fieldKind === "map" && f.mapKind === "scalar" && f.scalar === ScalarType.STRING) ||
    (f.fieldKind === "message" && !f.oneof && f.message.typeName === "google.protobuf.StringValue")
  );
}

/** The integer value(s) of the field itself: integer rules apply to them. */
function holdsOwnIntegers(f: DescField): boolean {
  if (f.fieldKind === "scalar" || (f.fieldKind === "list" && f.listKind === "scalar")) return isIntegerScalar(f.scalar);
  return (
    f.fieldKind === "message" && !f.oneof && isWrapperDesc(f.message) && isIntegerScalar(f.message.fields[0]!.scalar)
  );
}

/** How one field's value is read and checked. */
interface Check {
  field: DescField;
  /**
   * Its JSON name, as REST callers see it; empty for a message field flattened into the query
   * (tt.options.v1.query): REST callers name its fields without it (`s`, not `query.s`).
   */
  name: string;
  max: number;
  rules: ValueRules;
  /** Whether an empty string or a zero is the absent value the value rules skip (proto3 implicit presence). */
  skipEmpty: boolean;
  /** What the value is: a string, an integer, a JSON object (a singular Struct), a message, or a list / map of those. */
  shape: "string" | "integer" | "json" | "message" | "strings" | "integers" | "messages" | "map" | "none";
  /** Map only: whether keys are strings, and what values are. */
  stringKeys?: boolean;
  values?: "string" | "message" | "other";
  /** The message type walked into, if any. */
  message?: DescMessage;
}

type Plan = readonly Check[];

const plans = new WeakMap<DescMessage, Plan>();

function planOf(desc: DescMessage): Plan {
  let plan = plans.get(desc);
  if (plan) return plan;
  const checks: Check[] = [];
  for (const f of desc.fields) {
    const rules = valueRulesOf(f);
    const walked = f.message !== undefined && needsWalk(f.message);
    if (!holdsStringDirectly(f) && !walked && rules === NO_RULES) continue;
    const skipEmpty = f.fieldKind === "scalar" && f.presence === FeatureSet_FieldPresence.IMPLICIT;
    const name = isQueryFlattened(f) ? "" : f.jsonName;
    const base = { field: f, name, max: maxLengthOf(f), rules, skipEmpty };
    switch (f.fieldKind) {
      case "scalar":
        checks.push({ ...base, shape: f.scalar === ScalarType.STRING ? "string" : "integer" });
        break;
      case "enum":
        checks.push({ ...base, shape: "none" });
        break;
      case "message":
        // Protobuf-ES unboxes a singular wrapper (not in a oneof) to its value and a singular Struct
        // (outside Value) to a plain JSON object.
        if (isWrapperDesc(f.message) && !f.oneof) {
          const inner = f.message.fields[0]!.scalar;
          checks.push({
            ...base,
            shape: inner === ScalarType.STRING ? "string" : isIntegerScalar(inner) ? "integer" : "none",
          });
        } else if (f.message.typeName === "google.protobuf.Struct" && desc.typeName !== "google.protobuf.Value")
          checks.push({ ...base, shape: "json" });
        else checks.push({ ...base, shape: walked ? "message" : "none", message: f.message });
        break;
      case "list":
        if (f.listKind === "message") checks.push({ ...base, shape: walked ? "messages" : "none", message: f.message });
        else if (f.listKind === "scalar" && f.scalar === ScalarType.STRING) checks.push({ ...base, shape: "strings" });
        else if (f.listKind === "scalar" && isIntegerScalar(f.scalar)) checks.push({ ...base, shape: "integers" });
        else checks.push({ ...base, shape: "none" });
        break;
      case "map":
        checks.push({
          ...base,
          shape: "map",
          stringKeys: f.mapKey === ScalarType.STRING,
          values:
            f.mapKind === "message"
              ? needsWalk(f.message)
                ? "message"
                : "other"
              : f.mapKind === "scalar" && f.scalar === ScalarType.STRING
                ? "string"
                : "other",
          message: f.mapKind === "message" ? f.message : undefined,
        });
        break;
    }
  }
  plan = checks;
  plans.set(desc, plan);
  return plan;
}

/** A refused string: where (path segments, outermost first) and why. */
interface Problem {
  path: string[];
  reason: string;
}

function checkString(value: unknown, max: number, rules = NO_RULES, skipEmpty = false): string | undefined {
  if (typeof value !== "string") return undefined;
  if (FORBIDDEN.test(value)) {
    return /\p{Cs}/u.test(value) ? "must be valid Unicode text" : "must not contain control characters";
  }
  if (max > 0 && value.length > max && codePoints(value, max) > max) return `must be at most ${max} characters long`;
  if (!rules.strings || (skipEmpty && value === "")) return undefined;
  if (rules.uuid && !isUuid(value)) return "must be a uuid";
  if (rules.in && !rules.in.has(value)) return `must be one of ${rules.inText}`;
  if (rules.minLength > 0 && codePoints(value, rules.minLength) < rules.minLength) {
    return `must be at least ${rules.minLength} characters long`;
  }
  if (rules.pattern && !rules.pattern.test(value)) return `must match ${rules.pattern.source}`;
  return undefined;
}

/** What a range allows, in the services' wording. */
function rangeText(rules: ValueRules): string {
  if (rules.gte !== undefined && rules.lte !== undefined) return `must be between ${rules.gte} and ${rules.lte}`;
  return rules.gte !== undefined ? `must be at least ${rules.gte}` : `must be at most ${rules.lte}`;
}

function checkInteger(value: unknown, rules: ValueRules, skipZero: boolean): string | undefined {
  if (!rules.integers) return undefined;
  let n: bigint;
  if (typeof value === "bigint") n = value;
  else if (typeof value === "number" && Number.isInteger(value)) n = BigInt(value);
  else if (typeof value === "string" && /^-?[0-9]+$/.test(value)) n = BigInt(value);
  else return undefined;
  if (skipZero && n === 0n) return undefined;
  if ((rules.gte !== undefined && n < rules.gte) || (rules.lte !== undefined && n > rules.lte)) return rangeText(rules);
  return undefined;
}

/** Whether a required field's value is absent: unset, empty, zero, false, or an empty list or map. */
function isAbsent(value: unknown): boolean {
  if (value === undefined || value === null || value === "" || value === 0 || value === 0n || value === false) {
    return true;
  }
  if (Array.isArray(value)) return value.length === 0;
  if (value instanceof Uint8Array) return value.length === 0;
  return false;
}

/** The number of code points in `s`, counting no further than `limit + 1`. */
function codePoints(s: string, limit: number): number {
  if (s.length > 2 * limit) return s.length; // more than `limit` whatever the pairs
  let n = 0;
  for (let i = 0; i < s.length && n <= limit; i++, n++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) i++; // a pair (lone surrogates were refused before)
  }
  return n;
}

/** Deeper than this, a request is refused rather than walked (protobuf's own default recursion limit). */
export const MAX_DEPTH = 100;
const TOO_DEEP = "is nested too deeply";

/** A plain JSON value (a singular Struct's form): every key and string inside it. */
function walkJson(value: unknown, max: number, depth: number): string | undefined {
  if (typeof value === "string") return checkString(value, max);
  if (value === null || typeof value !== "object") return undefined;
  if (depth > MAX_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) {
    for (const item of value) {
      const reason = walkJson(item, max, depth + 1);
      if (reason) return reason;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const reason = checkString(key, max) ?? walkJson(item, max, depth + 1);
    if (reason) return reason;
  }
  return undefined;
}

const MISSING = "missing in request";

function hasKeys(value: object): boolean {
  return Object.keys(value).length > 0;
}

function read(message: Record<string, unknown>, field: DescField): unknown {
  if (field.oneof) {
    const group = message[field.oneof.localName] as { case?: string; value?: unknown } | undefined;
    return group?.case === field.localName ? group.value : undefined;
  }
  return message[field.localName];
}

/** Where the walk is: the rules a well-known type inherits from its field, and whether we are inside one. */
interface Scope {
  max: number;
  inWellKnown: boolean;
  depth: number;
}

const TOP: Scope = { max: 0, inWellKnown: false, depth: 0 };

/** A problem found below `segment`, named as the caller sees it (inside a well-known type: at its field). */
function named(scope: Scope, segment: string, problem: Problem | undefined): Problem | undefined {
  if (!problem) return undefined;
  if (scope.inWellKnown) return { path: [], reason: problem.reason };
  if (segment !== "") problem.path.unshift(segment);
  return problem;
}

function reasonAt(reason: string | undefined): Problem | undefined {
  return reason ? { path: [], reason } : undefined;
}

/** Walks a message held by a field whose effective maximum is `max`. */
function walkInner(child: DescMessage, value: unknown, max: number, scope: Scope): Problem | undefined {
  if (scope.depth >= MAX_DEPTH) return reasonAt(TOO_DEEP);
  const wellKnown = scope.inWellKnown || isWellKnown(child);
  return walk(child, value, { max: wellKnown ? max : 0, inWellKnown: wellKnown, depth: scope.depth + 1 });
}

/**
 * The first problem of `message` (of type `desc`), or undefined. Inside a well-known type the rules of the
 * field that holds it apply and problems are reported at that field: its inner structure is not what a
 * REST caller sees.
 */
function walk(desc: DescMessage, message: unknown, scope: Scope): Problem | undefined {
  if (message === null || typeof message !== "object") return undefined;
  const record = message as Record<string, unknown>;
  for (const check of planOf(desc)) {
    const value = read(record, check.field);
    const name = check.name;
    const mapEmpty = check.shape === "map" && value !== null && typeof value === "object" && !hasKeys(value);
    if (check.rules.required && (isAbsent(value) || mapEmpty)) {
      return named(scope, check.field.jsonName, reasonAt(MISSING));
    }
    if (value === undefined || value === null) continue;
    const max = check.max || scope.max;
    let problem: Problem | undefined;
    switch (check.shape) {
      case "string":
        problem = named(scope, name, reasonAt(checkString(value, max, check.rules, check.skipEmpty)));
        break;
      case "integer":
        problem = named(scope, name, reasonAt(checkInteger(value, check.rules, check.skipEmpty)));
        break;
      case "integers": {
        const items = value as unknown[];
        for (let i = 0; i < items.length && !problem; i++) {
          const found = reasonAt(checkInteger(items[i], check.rules, false));
          if (found) problem = named(scope, `${name}[${i}]`, found);
        }
        break;
      }
      case "none":
        break;
      case "json":
        problem = named(scope, name, reasonAt(walkJson(value, max, scope.depth)));
        break;
      case "message":
        problem = named(scope, name, walkInner(check.message!, value, max, scope));
        break;
      case "strings":
      case "messages": {
        const items = value as unknown[];
        for (let i = 0; i < items.length && !problem; i++) {
          const found =
            check.shape === "strings"
              ? reasonAt(checkString(items[i], max, check.rules))
              : walkInner(check.message!, items[i], max, scope);
          if (found) problem = named(scope, `${name}[${i}]`, found);
        }
        break;
      }
      case "map":
        for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
          const keyReason = check.stringKeys ? checkString(key, max) : undefined;
          if (keyReason) {
            problem = named(scope, `${name} keys`, reasonAt(keyReason));
            break;
          }
          const found =
            check.values === "string"
              ? reasonAt(checkString(item, max, check.rules))
              : check.values === "message"
                ? walkInner(check.message!, item, max, scope)
                : undefined;
          if (found) {
            problem = named(scope, `${name}[${JSON.stringify(key)}]`, found);
            break;
          }
        }
        break;
    }
    if (problem) return problem;
  }
  return undefined;
}

function describe(problem: Problem): string {
  const path = problem.path.reduce((acc, s) => (acc === "" ? s : `${acc}.${s}`), "");
  return `${path} ${problem.reason}`;
}

/** Throws InvalidArgument for the first string of `message` that breaks a rule. */
export function assertInputRules(desc: DescMessage, message: unknown): void {
  const problem = walk(desc, message, TOP);
  if (problem) throw new ConnectError(describe(problem), Code.InvalidArgument);
}

async function* checkedStream(desc: DescMessage, messages: AsyncIterable<unknown>): AsyncIterable<unknown> {
  for await (const message of messages) {
    assertInputRules(desc, message);
    yield message;
  }
}

/**
 * The interceptor. Unary requests are checked before `next`; streamed requests message by message as the
 * handler reads them.
 */
export function createInputRulesInterceptor(): Interceptor {
  return (next) => (req) => {
    if (!req.stream) {
      assertInputRules(req.method.input, req.message);
      return next(req);
    }
    return next({ ...req, message: checkedStream(req.method.input, req.message) } as typeof req);
  };
}

/** What is wrong with the field's declared value rules: a rule on a value it cannot hold, or one that cannot hold. */
function ruleProblems(f: DescField): string[] {
  if (!hasOption(f, fieldOption)) return [];
  const o = getOption(f, fieldOption);
  const out: string[] = [];
  if ((o.uuid || o.minLength > 0 || o.pattern !== "" || o.in.length > 0 || o.inEnum !== "") && !holdsOwnStrings(f)) {
    out.push("declares a string rule (uuid, min_length, pattern, in, in_enum) but holds no string of its own");
  }
  const inEnum = inEnumOf(f);
  if (inEnum instanceof Error) out.push(inEnum.message);
  if ((o.gte !== undefined || o.lte !== undefined) && !holdsOwnIntegers(f)) {
    out.push("declares gte/lte but holds no integer of its own");
  }
  if (o.pattern !== "") {
    try {
      new RegExp(o.pattern, "u");
    } catch (err) {
      out.push(`declares a pattern that does not compile (${(err as Error).message})`);
    }
  }
  if (o.gte !== undefined && o.lte !== undefined && o.gte > o.lte) out.push("declares gte above lte");
  if (o.minLength > 0 && o.maxLength > 0 && o.minLength > o.maxLength) out.push("declares min_length above max_length");
  return out;
}

/**
 * Every string field reachable from a request of these services that declares no `max_length` (a field
 * holding a well-known type that carries strings counts as one), and every `max_length` on a field that
 * holds no string. Empty when the protos are complete.
 */
export function inputRulesProblems(services: readonly DescService[]): string[] {
  const problems = new Set<string>();
  const seen = new Set<DescMessage>();
  const visit = (desc: DescMessage, via: string) => {
    // google.api.HttpBody is a raw body (webhooks): bounded by the server's body limit, not by field rules.
    if (seen.has(desc) || isWellKnown(desc) || desc.typeName === "google.api.HttpBody") return;
    seen.add(desc);
    for (const f of desc.fields) {
      const name = `${desc.typeName}.${f.name}`;
      const max = maxLengthOf(f);
      if (holdsString(f) && (holdsStringDirectly(f) || isWellKnown(f.message!))) {
        if (max === 0) problems.add(`${name} (reached from ${via}) declares no max_length`);
      } else if (max > 0) {
        problems.add(`${name} declares max_length but holds no string of its own`);
      }
      for (const problem of ruleProblems(f)) problems.add(`${name} ${problem}`);
      if (f.message && !isWellKnown(f.message)) visit(f.message, via);
    }
  };
  for (const service of services) {
    for (const method of service.methods) visit(method.input, `${service.typeName}.${method.name}`);
  }
  return [...problems];
}
