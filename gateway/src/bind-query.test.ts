import fc from "fast-check";
import { create, type DescMessage } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { AdminListQuerySchema } from "@tt/proto/tt/common/v1/admin_list_pb";
import { Color, EchoRequestSchema, type EchoRequest } from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import {
  FlatClashRequestSchema,
  FlatExtraSchema,
  FlatListRequestSchema,
  FlatRepeatedRequestSchema,
  FlatScalarRequestSchema,
  type FlatListRequest,
} from "@tt/proto/tt/fixture/v1/flatten_pb";
import { BindError, BindingDefinitionError } from "./bind-values.ts";
import { createNameResolver, isQueryFlattened, queryFieldsOf } from "./bind-query.ts";
import { binding, json } from "./testing/bindings.ts";

const echoGet = binding(EchoRequestSchema, "/t/{tenant}/things/{thing.id}");
const intPath = binding(EchoRequestSchema, "/t/{thing.int32_value}/{tenant}");

describe("query parameters", () => {
  it.each([
    ["string", "thing.stringValue=hi%20there", { stringValue: "hi there" }],
    ["proto names too", "thing.string_value=x", { stringValue: "x" }],
    ["double", "thing.doubleValue=1.5", { doubleValue: 1.5 }],
    ["float NaN", "thing.floatValue=NaN", { floatValue: "NaN" }],
    ["int32", "thing.int32Value=-7", { int32Value: -7 }],
    ["int64 beyond 2^53", "thing.int64Value=9007199254740993", { int64Value: "9007199254740993" }],
    ["uint64", "thing.uint64Value=18446744073709551615", { uint64Value: "18446744073709551615" }],
    [
      "sint32/fixed32/sfixed64",
      "thing.sint32Value=-1&thing.fixed32Value=4&thing.sfixed64Value=-9",
      { sint32Value: -1, fixed32Value: 4, sfixed64Value: "-9" },
    ],
    ["bool true", "thing.boolValue=true", { boolValue: true }],
    ["bool 1", "thing.boolValue=1", { boolValue: true }],
    ["bool False", "thing.boolValue=False", {}],
    ["bytes base64", "thing.bytesValue=AQID", { bytesValue: "AQID" }],
    ["enum by name", "thing.color=COLOR_RED", { color: "COLOR_RED" }],
    ["enum by number", "thing.color=2", { color: "COLOR_GREEN" }],
    [
      "nested message field",
      "thing.nested.name=n&thing.nested.child.amount=3",
      { nested: { name: "n", child: { amount: 3 } } },
    ],
    ["repeated given twice", "thing.repeatedString=a&thing.repeatedString=b,c", { repeatedString: ["a", "b,c"] }],
    ["repeated int64", "thing.repeatedInt64=1&thing.repeatedInt64=2", { repeatedInt64: ["1", "2"] }],
    [
      "repeated enum",
      "thing.repeatedColor=COLOR_RED&thing.repeatedColor=3",
      { repeatedColor: ["COLOR_RED", "COLOR_BLUE"] },
    ],
    ["map entries", "thing.stringMap[a]=1&thing.stringMap[b]=2", { stringMap: { a: "1", b: "2" } }],
    ["timestamp", "thing.timestamp=2024-05-01T10:00:00Z", { timestamp: "2024-05-01T10:00:00Z" }],
    ["duration", "thing.duration=1.5s", { duration: "1.500s" }],
    ["string wrapper", "thing.stringWrapper=w", { stringWrapper: "w" }],
    ["int64 wrapper", "thing.int64Wrapper=5", { int64Wrapper: "5" }],
    ["bool wrapper", "thing.boolWrapper=false", { boolWrapper: false }],
    ["double wrapper", "thing.doubleWrapper=2.5", { doubleWrapper: 2.5 }],
    ["field mask", "thing.fieldMask=stringValue,nested.name", { fieldMask: "stringValue,nested.name" }],
    ["oneof member", "thing.choiceNumber=4", { choiceNumber: 4 }],
    ["optional set to its default", "thing.optionalInt32=0", { optionalInt32: 0 }],
  ])("query: %s", (_what, query, thing) => {
    const m = echoGet.bind(["t1", "id1"], query, undefined);
    expect(json(EchoRequestSchema, m)).toEqual({ tenant: "t1", thing: { id: "id1", ...thing } });
  });

  it.each([
    ["unknown parameter", "nope=1", "nope"],
    ["unknown nested parameter", "thing.nope=1", "thing.nope"],
    ["parameter bound by the path", "tenant=x", "tenant"],
    ["nested parameter bound by the path", "thing.id=x", "thing.id"],
    ["message as a value", "thing.nested=x", "thing.nested"],
    ["through a scalar", "thing.stringValue.x=1", "thing.stringValue.x"],
    ["singular twice", "thing.int32Value=1&thing.int32Value=2", "thing.int32Value"],
    ["bad bool", "thing.boolValue=yes", "thing.boolValue"],
    ["list of messages", "thing.repeatedNested=x", "thing.repeatedNested"],
    ["map without key", "thing.stringMap=x", "thing.stringMap"],
    ["struct", "thing.structValue=x", "thing.structValue"],
  ])("query: %s is a 400 naming it", (_what, query, name) => {
    let caught: unknown;
    try {
      echoGet.bind(["t", "i"], query, undefined);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(BindError);
    expect((caught as BindError).status).toBe(400);
    expect((caught as BindError).message).toContain(name);
  });

  it.each([
    ["int32 not a number", "thing.int32Value=abc", "thing.int32Value"],
    ["int32 out of range", "thing.int32Value=4294967296", "thing.int32Value"],
    ["uint32 negative", "thing.uint32Value=-1", "thing.uint32Value"],
    ["enum name unknown", "thing.color=PURPLE", "thing.color"],
    ["bad timestamp", "thing.timestamp=yesterday", "thing.timestamp"],
    ["bad path variable", "", "thing.int32_value"],
  ])("query: wrong type (%s) is a 400 naming the field", (_what, query, field) => {
    let caught: unknown;
    try {
      (query ? echoGet : intPath).bind(["t", "i"], query, undefined);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(BindError);
    expect((caught as BindError).status).toBe(400);
    expect((caught as BindError).message).toContain(field);
    expect((caught as BindError).field).toBe(field);
  });

  it("map entries with many different keys each land in the map", () => {
    const get = binding(EchoRequestSchema, "/t/{tenant}");
    for (let i = 0; i < 50; i++) {
      const m = get.bind(["t"], `thing.stringMap[k${i}]=${i}&thing.stringMap[z]=z`, undefined) as EchoRequest;
      expect(m.thing?.stringMap).toEqual({ [`k${i}`]: String(i), z: "z" });
    }
  });

  it("property: any int64, int32, string, bool and enum survives the query string", () => {
    const get = binding(EchoRequestSchema, "/t/{tenant}");
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }),
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        fc.string(),
        fc.boolean(),
        fc.constantFrom(Color.UNSPECIFIED, Color.RED, Color.GREEN, Color.BLUE),
        fc.array(fc.string(), { maxLength: 4 }),
        fc.dictionary(
          fc.string({ minLength: 1 }).filter((k) => !/[[\]]/.test(k)),
          fc.string(),
          { maxKeys: 3 },
        ),
        (i64, i32, s, b, color, list, map) => {
          const q = new URLSearchParams();
          q.append("thing.int64Value", String(i64));
          q.append("thing.int32Value", String(i32));
          q.append("thing.stringValue", s);
          q.append("thing.boolValue", String(b));
          q.append("thing.color", String(color));
          for (const x of list) q.append("thing.repeatedString", x);
          for (const [k, v] of Object.entries(map)) q.append(`thing.stringMap[${k}]`, v);
          const m = get.bind(["t"], q.toString(), undefined) as EchoRequest;
          expect(m.thing?.int64Value).toBe(i64);
          expect(m.thing?.int32Value).toBe(i32);
          expect(m.thing?.stringValue).toBe(s);
          expect(m.thing?.boolValue).toBe(b);
          expect(m.thing?.color).toBe(color);
          expect(m.thing?.repeatedString).toEqual(list);
          expect(m.thing?.stringMap).toEqual(map);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("property: arbitrary query strings give a message or a BindError, never another exception", () => {
    const get = binding(EchoRequestSchema, "/t/{tenant}");
    const key = fc.constantFrom(
      "thing.int32Value",
      "thing.boolValue",
      "thing.color",
      "thing.timestamp",
      "thing.stringMap[k]",
      "x",
      "thing",
      "thing.nested.child.amount",
      "thing.doubleWrapper",
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.string()), { maxLength: 5 }), fc.string(), (pairs, junk) => {
        const q = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
        for (const query of [q, junk]) {
          try {
            get.bind(["t"], query, undefined);
          } catch (e) {
            expect(e).toBeInstanceOf(BindError);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("query parameters: regressions", () => {
  // Found by the query-string property: the entry was assigned as a prototype and silently dropped.
  it("keeps a map entry whose key is __proto__", () => {
    const m = echoGet.bind(["t", "i"], "thing.stringMap[__proto__]=v&thing.stringMap[a]=b", undefined) as EchoRequest;
    expect(Object.entries(m.thing!.stringMap)).toEqual([
      ["__proto__", "v"],
      ["a", "b"],
    ]);
  });
});

describe("query parameters: flattened fields (tt.options.v1.query)", () => {
  const list = binding(FlatListRequestSchema, "/t/{tenant}/list");
  const bindList = (query: string) => list.bind(["t"], query, undefined) as FlatListRequest;

  it.each([
    ["s", "s=%7B%22a%22%3A1%7D", { query: { s: '{"a":1}' } }],
    ["limit and offset", "limit=5&offset=10", { query: { limit: 5, offset: 10 } }],
    [
      "repeated filter, proto and JSON names",
      "filter=a||$eq||1&filter=b||$ne||2&sort=a,ASC",
      {
        query: { filter: ["a||$eq||1", "b||$ne||2"], sort: ["a,ASC"] },
      },
    ],
    ["the reserved word or", "or=a||$eq||1", { query: { or: ["a||$eq||1"] } }],
    ["two flattened fields side by side", "page=2&archived=true", { query: { page: 2 }, inner: { archived: true } }],
    ["flattened within flattened", "labels[k]=v", { inner: { deeper: { labels: { k: "v" } } } }],
    [
      "a flattened field inside a nested message",
      "extra.name=n&extra.limit=3",
      {
        extra: { name: "n", query: { limit: 3 } },
      },
    ],
  ])("issue 10: %s binds into the nested field", (_what, query, expected) => {
    expect(json(FlatListRequestSchema, bindList(query))).toEqual({ tenant: "t", ...expected });
  });

  it.each([
    ["the flattened field's own name", "query.s=x", "query.s"],
    ["the flattened field alone", "query=x", "query"],
    ["a name of no field", "nope=1", "nope"],
    ["a flattened field's own name inside a nested message", "extra.query.limit=1", "extra.query.limit"],
  ])("issue 10: %s is an unknown query parameter", (_what, query, name) => {
    expect(() => bindList(query)).toThrow(new BindError(`unknown query parameter "${name}"`, 400, name));
  });

  it("issue 10: a singular flattened value given twice, or of the wrong type, is a 400 naming the top-level name", () => {
    expect(() => bindList("limit=1&limit=2")).toThrow(/query parameter "limit" given more than once/);
    let caught: unknown;
    try {
      bindList("limit=many");
    } catch (e) {
      caught = e;
    }
    expect(caught).toMatchObject({ status: 400, field: "limit" });
    expect((caught as Error).message).toMatch(/^invalid value for limit: /);
  });

  it("issue 10: the path can bind a field of a flattened message by its full path; the query then cannot", () => {
    const byPath = binding(FlatListRequestSchema, "/t/{query.s}");
    expect(json(FlatListRequestSchema, byPath.bind(["x"], "limit=2", undefined))).toEqual({
      query: { s: "x", limit: 2 },
    });
    expect(() => byPath.bind(["x"], "s=y", undefined)).toThrow(/unknown query parameter "s"/);
  });

  it("maps the names of one message level to field chains, flattened fields walked into", () => {
    expect(isQueryFlattened(FlatListRequestSchema.field.query!)).toBe(true);
    expect(isQueryFlattened(FlatListRequestSchema.field.extra!)).toBe(false);
    const chains = [...queryFieldsOf(FlatListRequestSchema)].map(([name, chain]) => [
      name,
      chain.map((f) => f.name).join("."),
    ]);
    expect(Object.fromEntries(chains)).toEqual({
      tenant: "tenant",
      ...Object.fromEntries(AdminListQuerySchema.fields.map((f) => [f.name, `query.${f.name}`])),
      archived: "inner.archived",
      labels: "inner.deeper.labels",
      extra: "extra",
    });
    const names = queryFieldsOf(FlatExtraSchema);
    expect(names.get("limit")?.map((f) => f.name)).toEqual(["query", "limit"]);
    expect(names.has("query")).toBe(false);
  });

  it.each<[string, DescMessage, RegExp]>([
    ["a name that means two fields", FlatClashRequestSchema, /query name "s" would mean both s and query.s/],
    ["a flattened scalar", FlatScalarRequestSchema, /only a singular message field can be flattened/],
    ["a flattened list", FlatRepeatedRequestSchema, /only a singular message field can be flattened/],
  ])("issue 10: refuses %s when the rule is compiled", (_what, desc, message) => {
    expect(() => binding(desc, "/x")).toThrow(BindingDefinitionError);
    expect(() => binding(desc, "/x")).toThrow(message);
  });

  it("resolves form names through flattened fields too, relative to the root it is given", () => {
    const resolve = createNameResolver({ what: "form field", root: FlatListRequestSchema });
    expect(resolve("s")).toMatchObject({ kind: "scalar", path: ["query", "s"], repeated: false });
    expect(resolve("labels[a]")).toMatchObject({ kind: "map", path: ["inner", "deeper", "labels"], key: "a" });
    expect(() => resolve("query.s")).toThrow(/unknown form field "query.s"/);
    expect(create(FlatListRequestSchema).query).toBeUndefined();
  });

  it("property: any admin list query survives the top-level names", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.array(fc.string(), { maxLength: 3 }),
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (s, filter, limit, page) => {
          const q = new URLSearchParams();
          q.append("s", s);
          for (const f of filter) q.append("filter", f);
          q.append("limit", String(limit));
          q.append("page", String(page));
          const m = bindList(q.toString());
          expect(m.query).toMatchObject({ s, filter, limit, page });
        },
      ),
      { numRuns: 200 },
    );
  });
});
