// The campaign's generators, built at run time from what the platform publishes: every operation of
// `/openapi.json` (method, path template, path and query parameters, request body schema) and every method
// of every registered Connect service descriptor. A service that lands later is in both, so it is fuzzed
// with no edit here. Every request is a fast-check value, so a failure shrinks to the smallest request.
import { gzipSync } from "node:zlib";
import { fromJson, toBinary, type DescMessage, type DescService } from "@bufbuild/protobuf";
import { registryOf } from "@tt/gateway";
import fc from "fast-check";
import type { Ending, Framing } from "./client.ts";

/** Which Authorization header a request carries; real tokens are minted at start and filled in when sent. */
export const AUTH_KINDS = [
  "none",
  "guest",
  "user",
  "admin",
  "service",
  "expired",
  "wrong-key",
  "future-iat",
  "alg-none",
  "garbage",
  "bearer-empty",
  "basic",
  "huge",
  "two-bearers",
] as const;
export type AuthKind = (typeof AUTH_KINDS)[number];

/** One generated request, as printed in a finding. `body` is UTF-8 text, or hex when `binary`. */
export interface FuzzRequest {
  /** The operation it targets: `GET /api/…/{uuid}`, `rpc tt.user.v1.AuthService/Login`, or `misc`. */
  op: string;
  transport: "h1" | "h2";
  method: string;
  target: string;
  auth: AuthKind;
  headers: Array<[string, string]>;
  body: string;
  binary: boolean;
  framing: Framing;
  ending: Ending;
}

export interface Operation {
  id: string;
  arbitrary: fc.Arbitrary<FuzzRequest>;
  /**
   * REST only: the request a well-behaved client sends (declared method, sane path values, a JSON body of the
   * schema's shape, a user's or an admin's token, complete and plainly framed), for the concurrency pass.
   */
  plain?: fc.Arbitrary<FuzzRequest>;
}

type Schema = Record<string, unknown>;
export interface OpenApiDoc {
  paths: Record<string, Record<string, { parameters?: Schema[]; requestBody?: { content: Record<string, Schema> } }>>;
  components: { schemas: Record<string, Schema> };
  /** Values that exist on the platform, so some requests name a real account instead of a random one. */
  known?: Known;
}

export interface Known {
  ids: string[];
  emails: string[];
}

// ---------------------------------------------------------------------------------------------------------
// JSON with the freedom the fuzzer needs: raw tokens (-0, NaN, 1e999, invalid JSON), duplicate keys.

type J = { k: "v"; v: unknown } | { k: "raw"; v: string } | { k: "arr"; v: J[] } | { k: "obj"; v: Array<[string, J]> };

export function serialize(j: J): string {
  switch (j.k) {
    case "v":
      return JSON.stringify(j.v) ?? "null";
    case "raw":
      return j.v;
    case "arr":
      return `[${j.v.map(serialize).join(",")}]`;
    case "obj":
      return `{${j.v.map(([key, x]) => `${JSON.stringify(key)}:${serialize(x)}`).join(",")}}`;
  }
}

const v = (x: unknown): J => ({ k: "v", v: x });

/** `arb` about once in `oneIn` draws, null otherwise (shrinks to null). */
function rarely<T>(arb: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });
}

/** Percent-encodes the UTF-8 bytes of any string (lone surrogates included, unlike encodeURIComponent). */
export function pct(s: string): string {
  let out = "";
  for (const byte of Buffer.from(s, "utf8")) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

const CONTROL = "\u0000\u0001\u0007\b\t\n\u000b\f\r\u001b\u007f\u0085\u2028\u2029\u200b\ufeff\u202e";

/** Strings a careful server must survive: control characters, lone surrogates, encodings, injections. */
const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "",
    "\u0000",
    "a\u0000b",
    "\ud800",
    "\udfff",
    "x\ud83d",
    "..",
    "../../../../etc/passwd",
    "%00",
    "%2f",
    "%",
    "__proto__",
    "constructor",
    "prototype",
    "\u202eevil",
    "😀",
    "\r\nx-injected: 1",
    "'; DROP TABLE users;--",
    "NaN",
    "-0",
    "Infinity",
    "1e309",
    "9".repeat(400),
    "null",
    "true",
    "{}",
    "[]",
    " ",
    "a@b",
    "@",
    "00000000-0000-0000-0000-000000000000",
    "\u00ff\u00fe",
    "Ｗｉｄｅ",
    "é".normalize("NFD"),
  ),
  fc.string({ unit: fc.constantFrom(...CONTROL.split("")), maxLength: 8 }),
  fc.string({ unit: fc.nat(0xffff).map((c) => String.fromCharCode(c)), maxLength: 16 }),
  fc.string({ unit: "grapheme", maxLength: 16 }),
  // Very long: 10 kB and more, of one character.
  fc
    .tuple(fc.constantFrom("a", "\u0000", "é", "😀", "%", "\\", "\ud800"), fc.integer({ min: 10_001, max: 20_000 }))
    .map(([c, n]) => c.repeat(Math.ceil(n / c.length))),
);

/** Number tokens, some of them not JSON at all. */
const hostileNumber: fc.Arbitrary<J> = fc.oneof(
  fc
    .constantFrom(
      "-0",
      "0.0",
      "1e309",
      "-1e309",
      "1e-400",
      "9007199254740993",
      "18446744073709551616",
      "-9223372036854775809",
      "9223372036854775808",
      "4294967296",
      "-2147483649",
      "1.5",
      "0.1e1",
      "1E2",
      "NaN",
      "Infinity",
      "-Infinity",
      "0x10",
      "01",
      "+1",
      ".5",
      "1.",
      "1e",
      "99999999999999999999999999999999999999999",
    )
    .map((raw) => ({ k: "raw", v: raw }) as J),
  fc.double().map((d) => v(d)),
  fc.bigInt().map((b) => ({ k: "raw", v: b.toString() }) as J),
  fc.constantFrom("NaN", "Infinity", "-0", "1e999", "-1", "0x1f", " 1", "1 ", "").map(v),
);

const POLLUTION_KEYS = ["__proto__", "constructor", "prototype"];

/** A JSON value of any type, small. */
const anyJson: fc.Arbitrary<J> = fc.jsonValue({ maxDepth: 3 }).map(v);

/** Deeply nested arrays or objects, as raw text (a parser that recurses is the target). */
const deepNesting: fc.Arbitrary<J> = fc
  .tuple(fc.constantFrom("[", '{"a":'), fc.integer({ min: 64, max: 20_000 }))
  .map(([open, n]) => ({ k: "raw", v: open.repeat(n) + "1" + (open === "[" ? "]" : "}").repeat(n) }));

const pollution: fc.Arbitrary<J> = fc.constantFrom<J>(
  {
    k: "obj",
    v: [
      [
        "__proto__",
        {
          k: "obj",
          v: [
            ["isAdmin", v(true)],
            ["role", v("admin")],
          ],
        },
      ],
    ],
  },
  { k: "obj", v: [["constructor", { k: "obj", v: [["prototype", { k: "obj", v: [["polluted", v(1)]] }]] }]] },
  { k: "obj", v: [["prototype", v({ polluted: 1 })]] },
);

/** A value of the wrong kind for whatever the schema wants. */
const hostileValue: fc.Arbitrary<J> = fc.oneof(
  { weight: 4, arbitrary: hostileString.map(v) },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom(v(null), v(true), v(false), v([]), v({}), v([null]), v([[[]]])) },
  { weight: 1, arbitrary: anyJson },
  { weight: 1, arbitrary: pollution },
  { weight: 1, arbitrary: deepNesting },
);

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

/** A value shaped like the schema, with hostile values mixed in at every level. */
export function schemaValue(doc: OpenApiDoc, schema: Schema, name = "", depth = 0): fc.Arbitrary<J> {
  return fc.oneof({ weight: 7, arbitrary: validish(doc, schema, name, depth) }, { weight: 1, arbitrary: hostileValue });
}

function resolve(doc: OpenApiDoc, schema: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref === "string") return doc.components.schemas[ref.split("/").pop()!] ?? {};
  return schema;
}

/** One of `values` now and then, else `arb`. */
function sometimes(arb: fc.Arbitrary<string>, values: readonly string[] | undefined): fc.Arbitrary<string> {
  return values && values.length > 0 ? fc.oneof(arb, fc.constantFrom(...values)) : arb;
}

function stringFor(schema: Schema, name: string, known: Known | undefined): fc.Arbitrary<string> {
  if (schema.format === "int64" || schema.format === "uint64")
    return fc.bigInt({ min: -1n, max: 2n ** 64n }).map(String);
  if (schema.format === "date-time") return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.contentEncoding === "base64") return fc.uint8Array({ maxLength: 64 }).map(b64);
  if (/uuid|Id$/.test(name))
    return sometimes(fc.oneof(fc.uuid(), fc.constant("00000000-0000-0000-0000-000000000000")), known?.ids);
  if (/email/i.test(name)) return sometimes(fc.emailAddress(), known?.emails);
  if (/password/i.test(name)) return fc.constantFrom("correct-horse-battery-1", "password", "x");
  if (/url|uri/i.test(name)) return fc.webUrl();
  return fc.oneof(fc.string({ maxLength: 24 }), fc.uuid(), fc.emailAddress());
}

function validish(doc: OpenApiDoc, raw: Schema, name: string, depth: number): fc.Arbitrary<J> {
  const schema = resolve(doc, raw);
  if (Array.isArray(schema.enum))
    return fc.oneof(fc.constantFrom(...(schema.enum as string[])).map(v), fc.integer({ min: -1, max: 9 }).map(v));
  const type = Array.isArray(schema.type) ? (schema.type as string[])[0] : (schema.type as string | undefined);
  switch (type) {
    case "string":
      return stringFor(schema, name, doc.known).map(v);
    case "integer":
      return fc.oneof(fc.integer({ min: -5, max: 1000 }), fc.integer()).map(v);
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true }).map(v);
    case "boolean":
      return fc.boolean().map(v);
    case "array":
      if (depth > 3) return fc.constant(v([]));
      return fc
        .array(schemaValue(doc, (schema.items as Schema) ?? {}, name, depth + 1), { maxLength: 3 })
        .map((items) => ({ k: "arr", v: items }) as J);
    case "object": {
      if (depth > 3) return fc.constant(v({}));
      const props = Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {});
      const map = schema.additionalProperties;
      const entries: fc.Arbitrary<Array<[string, J]>> =
        props.length > 0
          ? fc
              .subarray(props)
              .chain((chosen) =>
                fc.tuple(
                  ...chosen.map(([k, s]) => schemaValue(doc, s, k, depth + 1).map((x) => [k, x] as [string, J])),
                ),
              )
          : typeof map === "object" && map !== null
            ? fc.array(
                fc.tuple(
                  fc.oneof(fc.string({ maxLength: 8 }), hostileString),
                  schemaValue(doc, map as Schema, name, depth + 1),
                ),
                { maxLength: 3 },
              )
            : fc.constant([]);
      // Mutations of the object itself: unknown and prototype-polluting keys, a key given twice.
      return fc
        .tuple(
          entries,
          rarely(fc.tuple(fc.oneof(fc.constantFrom(...POLLUTION_KEYS), fc.string({ maxLength: 8 })), hostileValue), 6),
          rarely(fc.constant(true), 8),
        )
        .map(([list, extra, duplicate]) => {
          const out = [...list];
          if (extra) out.push(extra);
          if (duplicate && out.length > 0) out.push([out[0]![0], v("duplicate")]);
          return { k: "obj", v: out } as J;
        });
    }
    default:
      return anyJson;
  }
}

/**
 * A value a well-behaved client sends: every property of an object, of its schema's type, with no hostile
 * mutation (the concurrency pass wants requests that get as far as the handler's writes).
 */
function plainValue(doc: OpenApiDoc, raw: Schema, name: string, depth: number): fc.Arbitrary<J> {
  const schema = resolve(doc, raw);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as string[])).map(v);
  const type = Array.isArray(schema.type) ? (schema.type as string[])[0] : (schema.type as string | undefined);
  switch (type) {
    case "string":
      return (/Id$|^id$|uuid/i.test(name) ? sometimes(fc.uuid(), doc.known?.ids) : stringFor(schema, name, doc.known))
        .filter((x) => x.trim() !== "")
        .map(v);
    case "integer":
      return fc.integer({ min: 1, max: 100 }).map(v);
    case "number":
      return fc.double({ min: 0, max: 100, noNaN: true }).map(v);
    case "boolean":
      return fc.boolean().map(v);
    case "array":
      if (depth > 3) return fc.constant(v([]));
      return fc
        .array(plainValue(doc, (schema.items as Schema) ?? {}, name, depth + 1), { minLength: 1, maxLength: 2 })
        .map((items) => ({ k: "arr", v: items }) as J);
    case "object": {
      if (depth > 3) return fc.constant(v({}));
      const props = Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {});
      // Every property, or some: a change call's optional fields (a picture id) are as often left out.
      return fc
        .oneof(fc.constant(props), fc.subarray(props))
        .chain((chosen) =>
          fc.tuple(...chosen.map(([k, sch]) => plainValue(doc, sch, k, depth + 1).map((x) => [k, x] as [string, J]))),
        )
        .map((entries) => ({ k: "obj", v: entries }) as J);
    }
    default:
      return fc.constant(v({}));
  }
}

// ---------------------------------------------------------------------------------------------------------
// Shared request parts.

const transport = fc.constantFrom<"h1" | "h2">("h1", "h1", "h2");

// Mostly real tokens (or none), so requests get past authentication and reach the handlers.
const authKind: fc.Arbitrary<AuthKind> = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom<AuthKind>("none", "guest", "user", "admin") },
  { weight: 3, arbitrary: fc.constantFrom(...AUTH_KINDS) },
);

const ending: fc.Arbitrary<Ending> = fc.oneof(
  { weight: 16, arbitrary: fc.constant<Ending>({ kind: "complete" }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 100_000 }).map<Ending>((extra) => ({ kind: "early-end", extra })) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 40 }))
      .map<Ending>(([cut, afterMs]) => ({ kind: "disconnect", cut, afterMs })),
  },
);

const framing: fc.Arbitrary<Framing> = fc.oneof(
  { weight: 20, arbitrary: fc.constant<Framing>("length") },
  { weight: 1, arbitrary: fc.constantFrom<Framing>("chunked", "bad-chunked", "duplicate-length", "none") },
);

/** Headers besides the ones an operation needs: CORS, request ids, forwarded-for, language, junk. */
const extraHeaders: fc.Arbitrary<Array<[string, string]>> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Array<[string, string]>>([]) },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.oneof(
        fc.constantFrom<[string, string]>(
          ["origin", "https://fuzz.example"],
          ["origin", "null"],
          ["origin", "https://evil.example"],
          ["access-control-request-method", "POST"],
          ["accept", "text/event-stream"],
          ["accept", "*/*"],
          ["accept-encoding", "gzip, br"],
          ["x-forwarded-for", "1.2.3.4, 5.6.7.8"],
          ["x-forwarded-for", "garbage"],
          ["traceparent", "00-zz-zz-zz"],
          ["expect", "100-continue"],
          ["content-encoding", "gzip"],
          ["accept-language", "*;q=x, ,,"],
        ),
        fc.tuple(
          fc.constantFrom("x-request-id", "user-agent", "accept-language", "traceparent", "x-forwarded-for", "x-fuzz"),
          fc.oneof(
            { weight: 20, arbitrary: fc.string({ maxLength: 40 }) },
            { weight: 1, arbitrary: fc.constant("a".repeat(9_000)) },
          ),
        ),
      ),
      { maxLength: 3 },
    ),
  },
);

// ---------------------------------------------------------------------------------------------------------
// REST operations from /openapi.json.

/** A path segment a client would send: an id, a number or a short word, percent-encoded. */
const saneSegment = (known?: Known): fc.Arbitrary<string> =>
  fc
    .oneof(
      sometimes(fc.uuid(), known?.ids),
      fc.integer({ min: 0, max: 99999 }).map(String),
      fc.string({ minLength: 1, maxLength: 12 }),
    )
    .map(pct);

/** One path segment, already as it goes on the wire: sane values percent-encoded, hostile ones raw. */
const pathSegment = (schema: Schema, known?: Known): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 10, arbitrary: saneSegment(known) },
    {
      weight: 1,
      arbitrary: (schema.enum ? fc.constantFrom(...(schema.enum as string[])) : fc.constant("x")).map(pct),
    },
    {
      weight: 4,
      arbitrary: fc.oneof(
        fc.constantFrom(
          "..",
          ".",
          "%2e%2e",
          "%2E%2E%2F%2E%2E",
          "%2f",
          "a%2Fb",
          "%",
          "%zz",
          "%00",
          "a%00b",
          "%C0%AF",
          "%ff",
          "%F0%9F%98",
          "é",
          "😀",
          "%F0%9F%98%80",
          "%EF%BF%BF",
          "%ED%A0%80",
          ";",
          "a;b=c",
          "~",
          "%20",
          "+",
          "\\",
          "%5c",
          "%25",
          "%2525",
          "-1",
          "1e999",
          "0x10",
          "18446744073709551616",
          "__proto__",
          "constructor",
          ":",
          "a:b",
          "",
        ),
        fc.string({ unit: fc.constantFrom("a", "%", "/", ".", "é", ":", "0"), maxLength: 12 }),
        fc.integer({ min: 10_001, max: 40_000 }).map((n) => "a".repeat(n)),
        hostileString.map(pct),
      ),
    },
  );

function queryValue(doc: OpenApiDoc, schema: Schema, name: string): fc.Arbitrary<string> {
  const s = resolve(doc, schema);
  return fc.oneof(
    {
      weight: 3,
      arbitrary: validish(doc, s, name, 2).map((j) => (j.k === "v" && typeof j.v === "string" ? j.v : serialize(j))),
    },
    { weight: 1, arbitrary: fc.constantFrom("true", "false", "1", "0", "yes", "-1", "1e999", "NaN", "", "null") },
    { weight: 2, arbitrary: hostileString },
  );
}

const rawQueryJunk = fc.constantFrom(
  "%",
  "%zz",
  "%00",
  "a=%",
  "=",
  "&&&",
  "a",
  "a=1&a=2",
  "__proto__.polluted=1",
  "__proto__[polluted]=1",
  "constructor.prototype.polluted=1",
  "a[b][c]=1",
  "a.b.c.d.e.f=1",
  "%E0%A4%A",
  "%ED%A0%80=1",
  "%u0041=1",
  "+=+",
  "a=b=c",
  "?=?",
  "#x",
);

function query(doc: OpenApiDoc, params: Schema[]): fc.Arbitrary<string> {
  const named = params.filter((p) => p.in === "query");
  const pair = fc.oneof(
    ...(named.length > 0
      ? [
          {
            weight: 4,
            arbitrary: fc.constantFrom(...named).chain((p) => {
              const name = String(p.name).replace("[key]", "[k]");
              return queryValue(doc, (p.schema as Schema) ?? {}, name).map((val) => [name, val] as [string, string]);
            }),
          },
        ]
      : []),
    {
      weight: 1,
      arbitrary: fc.tuple(fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom(...POLLUTION_KEYS)), hostileString),
    },
  );
  return fc
    .tuple(
      fc.oneof(
        { weight: named.length > 0 ? 1 : 6, arbitrary: fc.constant([]) },
        {
          weight: 1,
          arbitrary: fc.array(
            fc.tuple(
              pair,
              fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
            ),
            { maxLength: 4 },
          ),
        },
      ),
      rarely(rawQueryJunk, 6),
      rarely(fc.integer({ min: 10_001, max: 30_000 }), 40),
    )
    .map(([pairs, junk, long]) => {
      const parts = pairs.map(([[k, val], encode]) =>
        encode ? `${pct(k)}=${pct(val)}` : `${k}=${val.replace(/[\s#]/g, "")}`,
      );
      if (junk) parts.push(junk);
      if (long) parts.push(`x=${"a".repeat(long)}`);
      return parts.join("&");
    });
}

const REST_CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=xyz",
  "application/xml",
  "application/json; charset=utf-16",
  "application/proto",
  "application/vnd.api+json",
  "*/*",
  "\u00ff",
  "",
];

/** A multipart body, well or badly formed. */
const multipartBody: fc.Arbitrary<string> = fc
  .tuple(fc.string({ maxLength: 10 }), hostileString, fc.boolean(), fc.boolean())
  .map(
    ([name, value, file, closed]) =>
      `--xyz\r\ncontent-disposition: form-data; name="${name}"${file ? '; filename="a.png"\r\ncontent-type: image/png' : ""}\r\n\r\n${value}\r\n${closed ? "--xyz--\r\n" : ""}`,
  );

/** A `multipart/form-data` request (content type and body) for an operation whose form has these fields. */
function formRequest(names: string[]): fc.Arbitrary<{ contentType: string; body: string }> {
  const part = fc.record({
    name: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...(names.length > 0 ? names : ["x"])) },
      { weight: 1, arbitrary: fc.oneof(hostileString, fc.constantFrom(...POLLUTION_KEYS)) },
    ),
    filename: fc.oneof(
      { weight: 3, arbitrary: fc.constant(null) },
      {
        weight: 2,
        arbitrary: fc.constantFrom("a.png", "", "../../../etc/passwd", "a\u0000.png", "é.png", "x".repeat(5_000)),
      },
      { weight: 1, arbitrary: hostileString },
    ),
    type: fc.constantFrom(
      "image/png",
      "image/jpeg",
      "text/plain",
      "application/octet-stream",
      "",
      "\u00ff",
      "multipart/mixed",
    ),
    content: fc.oneof(fc.constant("\x89PNG\r\n\x1a\n\u0000\u0000"), fc.string({ maxLength: 30 }), hostileString),
    junk: rarely(
      fc.constantFrom(
        "content-transfer-encoding: base64",
        "content-disposition: attachment",
        `x-long: ${"a".repeat(9_000)}`,
        "no colon here",
      ),
      6,
    ),
  });
  return fc
    .record({
      boundary: fc.oneof(
        { weight: 6, arbitrary: fc.constant("fuzzboundary") },
        { weight: 1, arbitrary: fc.constantFrom("", "a".repeat(200), '"quoted"', "x y", "é") },
      ),
      mismatch: rarely(fc.constantFrom("other", ""), 8),
      parts: fc.array(part, { maxLength: 4 }),
      close: fc.constantFrom("proper", "proper", "proper", "missing", "junk-after", "no-crlf"),
    })
    .map(({ boundary, mismatch, parts, close }) => {
      const b = boundary.replace(/^"|"$/g, "");
      const text = parts
        .map((p) => {
          const disposition = `content-disposition: form-data; name="${p.name}"${p.filename === null ? "" : `; filename="${p.filename}"`}`;
          const head = [
            disposition,
            ...(p.filename === null ? [] : [`content-type: ${p.type}`]),
            ...(p.junk ? [p.junk] : []),
          ];
          return `--${b}\r\n${head.join("\r\n")}\r\n\r\n${p.content}\r\n`;
        })
        .join("");
      const end =
        close === "proper"
          ? `--${b}--\r\n`
          : close === "junk-after"
            ? `--${b}--\r\ntrailing junk`
            : close === "no-crlf"
              ? `--${b}--`
              : "";
      return { contentType: `multipart/form-data; boundary=${mismatch ?? boundary}`, body: text + end };
    });
}

function restBody(doc: OpenApiDoc, schema: Schema | undefined): fc.Arbitrary<string> {
  const shaped = schema ? schemaValue(doc, schema) : anyJson;
  return fc.oneof(
    { weight: 12, arbitrary: shaped.map(serialize) },
    // Truncated JSON: a body that stops in the middle of a value.
    {
      weight: 2,
      arbitrary: fc
        .tuple(shaped.map(serialize), fc.double({ min: 0, max: 1, noNaN: true }))
        .map(([s, f]) => s.slice(0, Math.floor(s.length * f))),
    },
    { weight: 1, arbitrary: shaped.map((j) => `[${serialize(j)}]`) },
    { weight: 1, arbitrary: hostileValue.map(serialize) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("", " ", "null", "[]", "{}", "\ufeff{}", "{}{}", '{"a":1,}', "{'a':1}", "\u0000"),
    },
    { weight: 1, arbitrary: multipartBody },
  );
}

const PATH_RESHAPES = [
  "trailing-slash",
  "double-slash",
  "dot-segment",
  "dotdot-segment",
  "unknown-verb",
  "empty-verb",
  "upper-case",
  "encoded-slashes",
  "matrix-params",
  "fragment",
] as const;

/** The same path in a shape a router may read differently: extra slashes, dot segments, verbs, encodings. */
function reshapePath(path: string, how: (typeof PATH_RESHAPES)[number]): string {
  switch (how) {
    case "trailing-slash":
      return `${path}/`;
    case "double-slash":
      return path.replace(/\/([^/]*)$/, "//$1");
    case "dot-segment":
      return path.replace(/\/([^/]*)$/, "/./$1");
    case "dotdot-segment":
      return path.replace(/\/([^/]*)$/, "/x/../$1");
    case "unknown-verb":
      return `${path}:nope`;
    case "empty-verb":
      return `${path}:`;
    case "upper-case":
      return path.toUpperCase();
    case "encoded-slashes":
      return path.slice(0, 1) + path.slice(1).replaceAll("/", "%2F");
    case "matrix-params":
      return `${path};a=b`;
    case "fragment":
      return `${path}#frag`;
  }
}

function restOperations(doc: OpenApiDoc): Operation[] {
  const ops: Operation[] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = op.parameters ?? [];
      const pathParams = new Map(
        params.filter((p) => p.in === "path").map((p) => [String(p.name), (p.schema as Schema) ?? {}]),
      );
      // Template pieces: literals, {variables}, and the `*`/`**` of rules without a named variable.
      const pieces = template.split(/(\{[^}]+\})/).filter((s) => s !== "");
      const segs = pieces.map((piece) => {
        if (piece.startsWith("{")) return pathSegment(pathParams.get(piece.slice(1, -1)) ?? {}, doc.known);
        const parts = piece.split("/");
        return fc
          .tuple(
            ...parts.map((p) =>
              p === "*"
                ? pathSegment({})
                : p === "**"
                  ? fc.array(pathSegment({}), { minLength: 1, maxLength: 3 }).map((a) => a.join("/"))
                  : fc.constant(p),
            ),
          )
          .map((a) => a.join("/"));
      });
      const bodySchema = op.requestBody?.content["application/json"]?.schema as Schema | undefined;
      const formSchema = op.requestBody?.content["multipart/form-data"]?.schema as Schema | undefined;
      const form = formSchema
        ? rarely(formRequest(Object.keys((formSchema.properties as Schema | undefined) ?? {})), 3)
        : fc.constant(null);
      const id = `${method.toUpperCase()} ${template}`;
      const upper = method.toUpperCase();
      const arbitrary = fc
        .record({
          transport,
          method: fc.oneof(
            { weight: 12, arbitrary: fc.constant(upper) },
            {
              weight: 1,
              arbitrary: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "FUZZ"),
            },
          ),
          path: fc.tuple(...segs).map((a) => a.join("")),
          query: query(doc, params),
          auth: authKind,
          contentType: fc.oneof(
            { weight: 8, arbitrary: fc.constant("application/json") },
            { weight: 2, arbitrary: fc.constantFrom(...REST_CONTENT_TYPES) },
            { weight: 1, arbitrary: fc.constant(undefined) },
          ),
          body: op.requestBody
            ? restBody(doc, bodySchema)
            : fc.oneof({ weight: 6, arbitrary: fc.constant("") }, { weight: 1, arbitrary: restBody(doc, undefined) }),
          headers: extraHeaders,
          framing,
          ending,
          form,
          reshape: rarely(fc.constantFrom(...PATH_RESHAPES), 8),
        })
        .map((r) => (r.form ? { ...r, ...r.form } : r))
        .map((r) => (r.reshape ? { ...r, path: reshapePath(r.path, r.reshape) } : r))
        .map<FuzzRequest>((r) => ({
          op: id,
          transport: r.transport,
          method: r.method,
          target: r.query ? `${r.path}?${r.query}` : r.path,
          auth: r.auth,
          headers: [
            ...(r.contentType !== undefined && (r.body !== "" || op.requestBody)
              ? [["content-type", r.contentType] as [string, string]]
              : []),
            ...r.headers,
          ],
          body: r.body,
          binary: false,
          framing: r.framing,
          ending: r.ending,
        }));
      const plainPath = pieces.map((piece) =>
        piece.startsWith("{")
          ? saneSegment(doc.known)
          : fc
              .tuple(...piece.split("/").map((p) => (p === "*" || p === "**" ? saneSegment() : fc.constant(p))))
              .map((a) => a.join("/")),
      );
      const plain = fc
        .record({
          path: fc.tuple(...plainPath).map((a) => a.join("")),
          // The pass chooses the caller (a new user, an admin, a service).
          auth: fc.constant<AuthKind>("user"),
          body: op.requestBody ? plainValue(doc, bodySchema ?? {}, "", 0).map(serialize) : fc.constant(""),
        })
        .map<FuzzRequest>((r) => ({
          op: id,
          transport: "h1",
          method: upper,
          target: r.path,
          auth: r.auth,
          headers: r.body === "" ? [] : [["content-type", "application/json"]],
          body: r.body,
          binary: false,
          framing: "length",
          ending: { kind: "complete" },
        }));
      ops.push({ id, arbitrary, plain });
    }
  }
  return ops;
}

// ---------------------------------------------------------------------------------------------------------
// Connect, gRPC and gRPC-Web from the service descriptors.

/** Protobuf wire bytes a decoder must refuse cleanly. */
const hostileProto: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc
    .constantFrom(
      [0xff, 0xff],
      [0x0a],
      [0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f],
      [0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
      [0x0a, 0x02, 0xc3, 0x28],
      [0x0a, 0x01, 0x00],
      [0x0a, 0x03, 0xed, 0xa0, 0x80],
      [0x0b],
      [0x0c],
      [0x0b, 0x0b, 0x0b, 0x0b],
      [0x00],
      [0x07, 0x01],
      [0x12, 0x05, 0x0a, 0x03, 0x61],
      [0x0d, 0x01],
      [0x09, 0x01, 0x02],
    )
    .map((a) => Uint8Array.from(a)),
  fc.uint8Array({ maxLength: 64 }),
  // A long string field (field 1, length-delimited), 10 kB and more, of one byte.
  fc.tuple(fc.constantFrom(0x61, 0x00, 0xff), fc.integer({ min: 10_001, max: 40_000 })).map(([byte, n]) => {
    const len: number[] = [];
    for (let x = n; ; x >>>= 7) {
      if (x < 0x80) {
        len.push(x);
        break;
      }
      len.push((x & 0x7f) | 0x80);
    }
    return Uint8Array.from([0x0a, ...len, ...new Array<number>(n).fill(byte)]);
  }),
  // Nested length-delimited messages, deep.
  fc.integer({ min: 50, max: 5_000 }).map(nested),
);

/** `depth` messages each holding the next in field 1, written outside-in in one pass. */
function nested(depth: number): Uint8Array {
  const sizes = [0];
  for (let i = 1; i <= depth; i++) sizes.push(1 + varint(sizes[i - 1]!).length + sizes[i - 1]!);
  const out: number[] = [];
  for (let i = depth; i >= 1; i--) out.push(0x0a, ...varint(sizes[i - 1]!));
  return Uint8Array.from(out);
}

function varint(n: number): number[] {
  const out: number[] = [];
  for (let x = n; ; x >>>= 7) {
    if (x < 0x80) {
      out.push(x);
      return out;
    }
    out.push((x & 0x7f) | 0x80);
  }
}

interface Frame {
  flags: number;
  data: Uint8Array;
  /** Added to the declared length (a lying length prefix). */
  lie: number;
}

const frame = (data: fc.Arbitrary<Uint8Array>): fc.Arbitrary<Frame> =>
  fc.record({
    flags: fc.oneof(
      { weight: 8, arbitrary: fc.constant(0) },
      { weight: 1, arbitrary: fc.constantFrom(1, 2, 0x80, 0x81, 0xff) },
      { weight: 1, arbitrary: fc.nat(255) },
    ),
    data,
    lie: fc.oneof(
      { weight: 8, arbitrary: fc.constant(0) },
      { weight: 1, arbitrary: fc.integer({ min: -5, max: 5 }) },
      { weight: 1, arbitrary: fc.constantFrom(0x7fffffff, 0xffffff, 2 ** 32 - 1) },
    ),
  });

function envelope(frames: Frame[], cutHeader: boolean): Uint8Array {
  const parts: Buffer[] = [];
  for (const f of frames) {
    const head = Buffer.alloc(5);
    head[0] = f.flags;
    head.writeUInt32BE(Math.max(0, Math.min(2 ** 32 - 1, f.data.length + f.lie)), 1);
    parts.push(head, Buffer.from(f.data));
  }
  const all = Buffer.concat(parts);
  return cutHeader ? all.subarray(0, Math.min(all.length, 3)) : all;
}

/** How an RPC is called: the Connect, gRPC and gRPC-Web forms, and a content type none of them uses. */
type Protocol =
  | "connect-proto"
  | "connect-json"
  | "connect-get"
  | "connect-stream"
  | "grpc"
  | "grpc-web"
  | "grpc-web-text"
  | "wrong-type";

function rpcOperations(doc: OpenApiDoc, services: DescService[]): Operation[] {
  const registry = registryOf(services);
  const ops: Operation[] = [];
  for (const service of services) {
    for (const method of service.methods) {
      const id = `rpc ${service.typeName}/${method.name}`;
      const path = `/${service.typeName}/${method.name}`;
      const input: DescMessage = method.input;
      const schema = doc.components.schemas[input.typeName];
      const json = schema ? schemaValue(doc, { $ref: `#/components/schemas/${input.typeName}` }) : anyJson;
      // Valid-ish binary messages: the JSON value encoded when protobuf-es accepts it, else random bytes.
      const encoded: fc.Arbitrary<Uint8Array> = json.map((j) => {
        try {
          return toBinary(input, fromJson(input, JSON.parse(serialize(j)), { registry, ignoreUnknownFields: true }));
        } catch {
          return Uint8Array.from(Buffer.from(serialize(j)));
        }
      });
      const mutated: fc.Arbitrary<Uint8Array> = fc
        .tuple(encoded, fc.array(fc.tuple(fc.nat(), fc.nat(255)), { maxLength: 3 }), rarely(fc.nat(), 3))
        .map(([bytes, flips, cut]) => {
          const out = Uint8Array.from(bytes);
          for (const [at, byte] of flips) if (out.length > 0) out[at % out.length] = byte;
          return cut === null || out.length === 0 ? out : out.subarray(0, cut % out.length);
        });
      const message = fc.oneof(
        { weight: 4, arbitrary: encoded },
        { weight: 3, arbitrary: mutated },
        { weight: 3, arbitrary: hostileProto },
      );
      const frames = fc.oneof(
        { weight: 6, arbitrary: frame(message).map((f) => [f]) },
        { weight: 1, arbitrary: fc.array(frame(message), { maxLength: 3 }) },
      );
      const timeoutHeader = rarely(
        fc.oneof(
          fc.tuple(fc.constant("connect-timeout-ms"), fc.constantFrom("0", "1", "-1", "abc", "99999999999", "1.5", "")),
          fc.tuple(fc.constant("grpc-timeout"), fc.constantFrom("1n", "0S", "abc", "99999999H", "1", "5m", "")),
        ),
        8,
      );
      const arbitrary = fc
        .record({
          transport: fc.constantFrom<"h1" | "h2">("h1", "h2"),
          // Only what the protocol sends is generated: JSON text, one message, or envelope frames.
          payload: fc.oneof(
            fc.record({
              protocol: fc.constantFrom<Protocol>("connect-proto", "wrong-type"),
              json: fc.constant(""),
              message,
              frames: fc.constant<Frame[]>([]),
            }),
            fc.record({
              protocol: fc.constantFrom<Protocol>("connect-json", "connect-get"),
              json: json.map(serialize),
              message: fc.constant(new Uint8Array()),
              frames: fc.constant<Frame[]>([]),
            }),
            fc.record({
              protocol: fc.constantFrom<Protocol>("connect-get"),
              json: fc.constant(""),
              message,
              frames: fc.constant<Frame[]>([]),
            }),
            fc.record({
              protocol: fc.constantFrom<Protocol>("connect-stream", "grpc", "grpc-web", "grpc-web-text"),
              json: fc.constant(""),
              message: fc.constant(new Uint8Array()),
              frames,
            }),
          ),
          method: fc.oneof(
            { weight: 12, arbitrary: fc.constant("POST") },
            { weight: 1, arbitrary: fc.constantFrom("GET", "PUT", "DELETE", "OPTIONS") },
          ),
          cut: fc.oneof({ weight: 12, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
          version: fc.oneof(
            { weight: 6, arbitrary: fc.constant("1") },
            { weight: 1, arbitrary: fc.constantFrom("", "2", "x") },
          ),
          encoding: fc.oneof(
            { weight: 10, arbitrary: fc.constant(undefined) },
            { weight: 1, arbitrary: fc.constantFrom("gzip", "br", "identity", "zz") },
          ),
          gzipped: fc.boolean(),
          timeout: timeoutHeader,
          auth: authKind,
          headers: extraHeaders,
          framing,
          ending,
          wrongType: fc.constantFrom(
            "text/xml",
            "application/octet-stream",
            "application/grpc+json; charset=utf-16",
            "application/connect",
            "application/proto; x=\u00ff",
            "application/json; charset=latin1",
          ),
        })
        .map(({ payload, ...rest }) => ({ ...rest, ...payload }))
        .map<FuzzRequest>((r) => {
          const headers: Array<[string, string]> = [];
          let body: Uint8Array = new Uint8Array();
          let target = path;
          let method = r.method;
          const enveloped = () => {
            const frames =
              r.encoding === "gzip" && r.gzipped
                ? r.frames.map((f) => ({ ...f, flags: f.flags | 1, data: gzipSync(f.data) }))
                : r.frames;
            return envelope(frames, r.cut);
          };
          switch (r.protocol) {
            case "connect-proto":
              headers.push(["content-type", "application/proto"], ["connect-protocol-version", r.version]);
              if (r.encoding) headers.push(["content-encoding", r.encoding]);
              body = r.encoding === "gzip" && r.gzipped ? gzipSync(r.message) : r.message;
              break;
            case "connect-json":
              headers.push(["content-type", "application/json"], ["connect-protocol-version", r.version]);
              body = Buffer.from(r.json);
              break;
            case "connect-get":
              method = "GET";
              {
                // A JSON message percent-encoded, or a binary one in base64 (URL-safe, or plain with its + and /).
                const proto = r.json === "";
                const message = proto
                  ? Buffer.from(r.message).toString(r.gzipped ? "base64url" : "base64")
                  : pct(r.json);
                target = `${path}?connect=v${r.version}&encoding=${proto ? "proto&base64=1" : "json"}&message=${message}${r.encoding ? `&compression=${r.encoding}` : ""}`;
              }
              break;
            case "connect-stream":
              headers.push(
                ["content-type", r.gzipped ? "application/connect+json" : "application/connect+proto"],
                ["connect-protocol-version", r.version],
              );
              if (r.encoding) headers.push(["connect-content-encoding", r.encoding]);
              body = enveloped();
              break;
            case "grpc":
              headers.push(
                ["content-type", r.gzipped ? "application/grpc+proto" : "application/grpc"],
                ["te", "trailers"],
              );
              if (r.encoding) headers.push(["grpc-encoding", r.encoding]);
              body = enveloped();
              break;
            case "grpc-web":
              headers.push(["content-type", "application/grpc-web+proto"], ["x-grpc-web", "1"]);
              if (r.encoding) headers.push(["grpc-encoding", r.encoding]);
              body = enveloped();
              break;
            case "grpc-web-text":
              headers.push(["content-type", "application/grpc-web-text"], ["x-grpc-web", "1"]);
              body = Buffer.from(Buffer.from(enveloped()).toString("base64") + (r.cut ? "!" : ""));
              break;
            case "wrong-type":
              headers.push(["content-type", r.wrongType]);
              body = r.message;
              break;
          }
          if (r.timeout) headers.push(r.timeout);
          return {
            op: id,
            transport: r.transport,
            method,
            target,
            auth: r.auth,
            headers: [...headers, ...r.headers],
            body: Buffer.from(body).toString("hex"),
            binary: true,
            framing: r.framing,
            ending: r.ending,
          };
        });
      ops.push({ id, arbitrary });
    }
  }
  return ops;
}

// ---------------------------------------------------------------------------------------------------------
// The rest of the surface: health, metrics, the document itself, unknown paths, odd request targets.

const MISC_TARGETS = [
  "/",
  "/healthz",
  "/readyz",
  "/metrics",
  "/openapi.json",
  "/openapi.json?x=%",
  "*",
  "//",
  "/%",
  "/%zz",
  "/%00",
  "/..%2f..%2f..%2fetc%2fpasswd",
  "/media/..%2f..%2f..%2fetc%2fpasswd",
  "/media/../../../../etc/passwd",
  "/media/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
  "/media/",
  "/media/%00",
  "/api",
  "/api/",
  "/api/user-service",
  "/api/user-service/",
  "/api/nope",
  "http://evil.example/healthz",
  "/remotes.json",
  "/tt.user.v1.AuthService/",
  "/tt.user.v1.AuthService/Nope",
  "/tt.nope.v1.Nope/Call",
  "/grpc.health.v1.Health/Check",
  "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
];

function miscOperation(): Operation {
  const arbitrary = fc
    .record({
      transport,
      method: fc.constantFrom("GET", "HEAD", "POST", "OPTIONS", "DELETE", "PRI", "CONNECT", "get", "G\u00e9T"),
      target: fc.oneof(
        fc.constantFrom(...MISC_TARGETS),
        fc.string({ maxLength: 20 }).map((s) => `/${pct(s)}`),
      ),
      auth: authKind,
      headers: extraHeaders,
      body: fc.oneof(fc.constant(""), fc.string({ maxLength: 20 })),
      framing,
      ending,
    })
    .map<FuzzRequest>((r) => ({ op: "misc", ...r, binary: false }));
  return { id: "misc", arbitrary };
}

/** Every operation of the platform: REST from the document, RPCs from the descriptors, and the rest. */
export function buildOperations(raw: OpenApiDoc, services: DescService[], known?: Known): Operation[] {
  const doc = known ? { ...raw, known } : raw;
  return [...restOperations(doc), ...rpcOperations(doc, services), miscOperation()];
}

/** Requests sent together, 1 to `max` of them: the counterexample of a failure shrinks to the one that fails. */
export function batchArbitrary(ops: Operation[], max: number): fc.Arbitrary<FuzzRequest[]> {
  const one = fc.oneof(...ops.map((o) => o.arbitrary));
  return fc.array(one, { minLength: 1, maxLength: max, size: "max" });
}
