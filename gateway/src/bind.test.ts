import { create, toJson, type DescMessage } from "@bufbuild/protobuf";
import { FieldMaskSchema, timestampFromDate } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  Color,
  EchoRequestSchema,
  type EchoRequest,
  EverythingSchema,
  GetFileRequestSchema,
  UpdateThingRequestSchema,
  UploadRequestSchema,
  type UploadRequest,
} from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { BindError, BindingDefinitionError, compileBinding } from "./bind.ts";
import { parseTemplate } from "./template/parse.ts";

const binding = (input: DescMessage, template: string, body = "") =>
  compileBinding({ method: "tt.fixture.v1.FixtureService.Test", input, template: parseTemplate(template), body });

const echoGet = binding(EchoRequestSchema, "/t/{tenant}/things/{thing.id}");
const echoPost = binding(EchoRequestSchema, "/t/{tenant}/things", "thing");
const echoPut = binding(EchoRequestSchema, "/echo", "*");
const intPath = binding(EchoRequestSchema, "/t/{thing.int32_value}/{tenant}");
const update = binding(UpdateThingRequestSchema, "/things/{thing.id}", "thing");

const json = (input: DescMessage, m: unknown) => toJson(input, m as never);

describe("compileBinding", () => {
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

  it("body field: the body is that field; the query sets the others", () => {
    const m = echoPost.bind(["t"], "", JSON.stringify({ id: "x", int64Value: "12", nested: { name: "n" } }));
    expect(json(EchoRequestSchema, m)).toEqual({
      tenant: "t",
      thing: { id: "x", int64Value: "12", nested: { name: "n" } },
    });
    expect(() => echoPost.bind(["t"], "thing.id=1", "{}")).toThrow(/unknown query parameter "thing.id"/);
  });

  it("body *: the whole message; path variables win over the body; no query parameters", () => {
    const m = echoPut.bind([], "", JSON.stringify({ tenant: "a", thing: { id: "x" } }));
    expect(json(EchoRequestSchema, m)).toEqual({ tenant: "a", thing: { id: "x" } });
    expect(() => echoPut.bind([], "tenant=b", "{}")).toThrow(BindError);
    const u = update.bind(
      ["from-path"],
      "updateMask=stringValue",
      JSON.stringify({ id: "from-body", stringValue: "s" }),
    );
    expect(json(UpdateThingRequestSchema, u)).toEqual({
      thing: { id: "from-path", stringValue: "s" },
      updateMask: "stringValue",
    });
  });

  it("an empty body is an empty message", () => {
    expect(json(EchoRequestSchema, echoPut.bind([], "", ""))).toEqual({});
  });

  it.each([
    ["malformed JSON", "{", /malformed JSON/],
    ["unknown body field", '{"nope":1}', /nope/],
    ["wrong type in body", '{"thing":{"int32Value":"x"}}', /int32_value/],
    ["body not an object", "[1]", /EchoRequest/],
  ])("body: %s is a 400", (_what, body, message) => {
    let caught: unknown;
    try {
      echoPut.bind([], "", body);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(BindError);
    expect((caught as BindError).status).toBe(400);
    expect((caught as BindError).message).toMatch(message);
  });

  it("map entries with many different keys each land in the map", () => {
    const get = binding(EchoRequestSchema, "/t/{tenant}");
    for (let i = 0; i < 50; i++) {
      const m = get.bind(["t"], `thing.stringMap[k${i}]=${i}&thing.stringMap[z]=z`, undefined) as EchoRequest;
      expect(m.thing?.stringMap).toEqual({ [`k${i}`]: String(i), z: "z" });
    }
  });

  it("accepts every field kind in a body", () => {
    const thing = create(EverythingSchema, {
      id: "x",
      int64Value: 1n << 60n,
      color: Color.BLUE,
      repeatedNested: [{ name: "a" }],
      nestedMap: { 3: { amount: 1 } },
      timestamp: timestampFromDate(new Date("2024-01-01T00:00:00Z")),
      structValue: { fields: {} },
      fieldMask: create(FieldMaskSchema, { paths: ["string_value"] }),
      choice: { case: "choiceText", value: "t" },
      optionalString: "",
    });
    const body = JSON.stringify({ thing: toJson(EverythingSchema, thing) });
    expect(json(EchoRequestSchema, echoPut.bind([], "", body))).toEqual({ thing: toJson(EverythingSchema, thing) });
  });

  it("keeps path values verbatim, slashes included", () => {
    const files = binding(GetFileRequestSchema, "/files/{bucket}/{path=**}");
    expect(json(GetFileRequestSchema, files.bind(["b", "a/b c"], "", undefined))).toEqual({
      bucket: "b",
      path: "a/b c",
    });
  });

  it.each([
    ["/x/{nope}", "", /names no field/],
    ["/x/{thing}", "", /singular scalar/],
    ["/x/{thing.repeated_string}", "", /singular scalar/],
    ["/x/{tenant.x}", "", /not a message/],
    ["/x", "nope", /names no top-level field/],
  ])("refuses the rule %s (body %j) at start", (template, body, message) => {
    expect(() => binding(EchoRequestSchema, template, body)).toThrow(BindingDefinitionError);
    expect(() => binding(EchoRequestSchema, template, body)).toThrow(message);
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

describe("compileBinding: regressions", () => {
  // Found by the query-string property: the entry was assigned as a prototype and silently dropped.
  it("keeps a map entry whose key is __proto__", () => {
    const m = echoGet.bind(["t", "i"], "thing.stringMap[__proto__]=v&thing.stringMap[a]=b", undefined) as EchoRequest;
    expect(Object.entries(m.thing!.stringMap)).toEqual([
      ["__proto__", "v"],
      ["a", "b"],
    ]);
  });
});

describe("compileBinding: multipart forms", () => {
  const upload = binding(UploadRequestSchema, "/uploads", "*");
  const uploadKind = binding(UploadRequestSchema, "/uploads/{kind}", "*");
  const uploadMeta = binding(UploadRequestSchema, "/uploads/{kind}/meta", "meta");
  const file = (name: string, bytes: number[], filename = "f", contentType = "application/octet-stream") => ({
    name,
    filename,
    contentType,
    content: new Uint8Array(bytes),
  });

  it("accepts forms only where the body can reach an UploadedFile field", () => {
    expect(upload.acceptsForm).toBe(true);
    expect(uploadMeta.acceptsForm).toBe(true);
    expect(binding(UploadRequestSchema, "/uploads/{kind}/x", "size").acceptsForm).toBe(false);
    expect(binding(UploadRequestSchema, "/uploads").acceptsForm).toBe(false);
    expect(echoPut.acceptsForm).toBe(false);
    expect(() => echoPut.bindForm([], "", { fields: [], files: [] })).toThrow(
      expect.objectContaining({ status: 415 }) as Error,
    );
  });

  it("binds text parts like query values and file parts as UploadedFile messages", () => {
    const m = upload.bindForm([], "", {
      fields: [
        ["kind", "k"],
        ["size", "-3"],
        ["colors", "COLOR_GREEN"],
        ["colors", "1"],
        ["meta.nested.color", "COLOR_BLUE"],
      ],
      files: [file("file", [1, 2]), file("attachments", [3], "a", "text/plain"), file("meta.cover", [4])],
    }) as UploadRequest;
    expect(m.kind).toBe("k");
    expect(m.size).toBe(-3);
    expect(m.colors).toEqual([Color.GREEN, Color.RED]);
    expect(m.file).toMatchObject({ content: new Uint8Array([1, 2]), filename: "f" });
    expect(m.attachments).toHaveLength(1);
    expect(m.attachments[0]).toMatchObject({ content: new Uint8Array([3]), filename: "a", contentType: "text/plain" });
    expect(m.meta?.cover?.content).toEqual(new Uint8Array([4]));
    expect(m.meta?.nested?.color).toBe(Color.BLUE);
  });

  it("lets path variables win over form fields, and reads body-field forms relative to the field", () => {
    const m = uploadKind.bindForm(["path"], "", { fields: [["kind", "form"]], files: [] }) as UploadRequest;
    expect(m.kind).toBe("path");
    const meta = uploadMeta.bindForm(["k"], "size=4", {
      fields: [["title", "t"]],
      files: [file("cover", [9])],
    }) as UploadRequest;
    expect(meta).toMatchObject({ kind: "k", size: 4, meta: { title: "t", cover: { content: new Uint8Array([9]) } } });
    expect(() => uploadMeta.checkFormPart("kind", false)).toThrow(/unknown form field "kind"/);
  });

  it.each<[string, string, boolean, RegExp]>([
    ["unknown", "nope", false, /unknown form field "nope"/],
    ["unknown nested", "meta.nope", true, /unknown form field "meta.nope"/],
    ["file for text", "size", true, /"size" is not a file field/],
    ["text for file", "file", false, /"file" takes a file/],
    ["text for a file inside a message", "meta.cover", false, /"meta.cover" takes a file/],
    ["a message", "meta", false, /is a message or map/],
  ])("checkFormPart refuses %s", (_, name, isFile, message) => {
    expect(() => upload.checkFormPart(name, isFile)).toThrow(BindError);
    expect(() => upload.checkFormPart(name, isFile)).toThrow(message);
  });

  it("names the form field whose value does not decode", () => {
    expect(() => upload.bindForm([], "", { fields: [["size", "1e99"]], files: [] })).toThrow(
      expect.objectContaining({ status: 400, field: "size" }) as Error,
    );
    expect(() => uploadKind.bindForm(["k"], "", { fields: [["meta.nested.amount", "x"]], files: [] })).toThrow(
      expect.objectContaining({ status: 400, field: "meta.nested.amount" }) as Error,
    );
  });

  it("property: any int32 and string survive a form as they do a query string", () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.string(), (size, kind) => {
        const m = upload.bindForm([], "", {
          fields: [
            ["size", String(size)],
            ["kind", kind],
          ],
          files: [],
        }) as UploadRequest;
        expect([m.size, m.kind]).toEqual([size, kind]);
      }),
    );
  });
});
