import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import {
  create,
  createFileRegistry,
  setExtension,
  type DescMessage,
  type DescService,
  type MessageInitShape,
} from "@bufbuild/protobuf";
import {
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FieldOptionsSchema,
  FileDescriptorProtoSchema,
  type FieldOptions,
} from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import {
  EchoRequestSchema,
  type EverythingSchema,
  FixtureService,
  NestedSchema,
  UploadRequestSchema,
} from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { field as fieldOption, FieldRulesSchema } from "@tt/proto/tt/options/v1/field_pb";
import { FlatListRequestSchema } from "@tt/proto/tt/fixture/v1/flatten_pb";
import { RulesProbeSchema } from "@tt/proto/tt/testing/v1/field_rules_pb";
import { AuthService, LoginRequestSchema } from "@tt/proto/tt/user/v1/auth_service_pb";
import { describe, expect, it } from "vitest";
import { assertInputRules, createInputRulesInterceptor, inputRulesProblems, MAX_DEPTH } from "./input-rules.ts";

/** The refusal of `assertInputRules`, or "ok". */
function verdict(fn: () => void): string {
  try {
    fn();
    return "ok";
  } catch (err) {
    if (!(err instanceof ConnectError)) throw err;
    expect(err.code).toBe(Code.InvalidArgument);
    return err.rawMessage;
  }
}

const thing = (init: MessageInitShape<typeof EverythingSchema>) =>
  verdict(() => assertInputRules(EchoRequestSchema, create(EchoRequestSchema, { tenant: "t", thing: init })));

describe("input rules: control characters", () => {
  it("issue 9 defect 3: a NUL byte in any string field is invalid_argument naming the field", () => {
    const login = create(LoginRequestSchema, { email: "a\u0000@example.org", password: "secret-password" });
    expect(verdict(() => assertInputRules(LoginRequestSchema, login))).toBe(
      "email must not contain control characters",
    );
  });

  it.each([
    ["\u0001", "must not contain control characters"],
    ["\u001b[31m", "must not contain control characters"],
    ["\u007f", "must not contain control characters"],
    ["\u000b", "must not contain control characters"],
    ["a\ud800b", "must be valid Unicode text"],
    ["\udc00", "must be valid Unicode text"],
  ])("refuses %j", (bad, reason) => {
    expect(thing({ id: bad })).toBe(`thing.id ${reason}`);
  });

  it.each(["tab\there", "line\nfeed", "carriage\r\nreturn", "café ☕ 🎵", "\u0085 next line is C1, allowed", ""])(
    "accepts %j",
    (good) => {
      expect(thing({ stringValue: good })).toBe("ok");
    },
  );
});

describe("input rules: max_length", () => {
  it("issue 9 defect 4: a 500-character login e-mail is invalid_argument naming email", () => {
    const login = create(LoginRequestSchema, { email: `${"a".repeat(488)}@example.org`, password: "secret-password" });
    expect(verdict(() => assertInputRules(LoginRequestSchema, login))).toBe(
      "email must be at most 320 characters long",
    );
  });

  it("lets a string of exactly its limit through and refuses one more", () => {
    expect(thing({ id: "x".repeat(64) })).toBe("ok");
    expect(thing({ id: "x".repeat(65) })).toBe("thing.id must be at most 64 characters long");
  });

  it("counts Unicode code points, as PostgreSQL counts varchar(n)", () => {
    // 64 emoji are 128 UTF-16 units but 64 characters.
    expect(thing({ id: "🎵".repeat(64) })).toBe("ok");
    expect(thing({ id: "🎵".repeat(65) })).toBe("thing.id must be at most 64 characters long");
    expect(thing({ id: `${"🎵".repeat(63)}ab` })).toBe("thing.id must be at most 64 characters long");
  });

  it("names nested, repeated, map and oneof fields with their JSON path", () => {
    expect(thing({ nested: { name: "n".repeat(65) } })).toBe("thing.nested.name must be at most 64 characters long");
    expect(thing({ nested: { child: { child: { name: "a\u0000" } } } })).toBe(
      "thing.nested.child.child.name must not contain control characters",
    );
    expect(thing({ repeatedString: ["ok", "x".repeat(65)] })).toBe(
      "thing.repeatedString[1] must be at most 64 characters long",
    );
    expect(thing({ repeatedNested: [{ name: "a" }, { name: "b\u0000" }] })).toBe(
      "thing.repeatedNested[1].name must not contain control characters",
    );
    expect(thing({ stringMap: { k: "v\u0000" } })).toBe('thing.stringMap["k"] must not contain control characters');
    expect(thing({ stringMap: { ["k".repeat(65)]: "v" } })).toBe(
      "thing.stringMap keys must be at most 64 characters long",
    );
    expect(thing({ stringMap: { "k\u0000": "v" } })).toBe("thing.stringMap keys must not contain control characters");
    expect(thing({ nestedMap: { 7: { name: "x".repeat(65) } } })).toBe(
      'thing.nestedMap["7"].name must be at most 64 characters long',
    );
    expect(thing({ choice: { case: "choiceText", value: "x".repeat(65) } })).toBe(
      "thing.choiceText must be at most 64 characters long",
    );
    expect(thing({ choice: { case: "choiceNested", value: create(NestedSchema, { name: "\u0000" }) } })).toBe(
      "thing.choiceNested.name must not contain control characters",
    );
    expect(thing({ optionalString: "x".repeat(65) })).toBe("thing.optionalString must be at most 64 characters long");
    expect(thing({ choice: { case: "choiceText", value: "x".repeat(64) }, optionalString: "y".repeat(64) })).toBe("ok");
  });

  it("applies the holding field's rules inside well-known types, named at that field", () => {
    expect(thing({ stringWrapper: "x".repeat(257) })).toBe("thing.stringWrapper must be at most 256 characters long");
    expect(thing({ structValue: { a: { b: ["ok", "bad\u0000"] } } })).toBe(
      "thing.structValue must not contain control characters",
    );
    expect(thing({ structValue: { ["k".repeat(257)]: 1 } })).toBe(
      "thing.structValue must be at most 256 characters long",
    );
    expect(thing({ anyValue: { kind: { case: "stringValue", value: "\u0000" } } })).toBe(
      "thing.anyValue must not contain control characters",
    );
    expect(
      thing({
        anyValue: {
          kind: {
            case: "listValue",
            value: {
              values: [
                {
                  kind: {
                    case: "structValue",
                    value: { fields: { k: { kind: { case: "stringValue", value: "x".repeat(257) } } } },
                  },
                },
              ],
            },
          },
        },
      }),
    ).toBe("thing.anyValue must be at most 256 characters long");
    expect(thing({ fieldMask: { paths: ["a", "b\u0000"] } })).toBe(
      "thing.fieldMask must not contain control characters",
    );
    expect(thing({ timestamp: { seconds: 1n }, duration: { seconds: 2n }, int64Wrapper: 5n })).toBe("ok");
  });

  it("refuses a request nested deeper than it walks, instead of overflowing the stack", () => {
    let nested = create(NestedSchema, { name: "leaf" });
    for (let i = 0; i < MAX_DEPTH + 5; i++) nested = create(NestedSchema, { child: nested });
    expect(thing({ nested })).toMatch(/is nested too deeply$/);
  });

  it("checks uploaded files' names but leaves their bytes to the body limit", () => {
    const upload = (filename: string) =>
      verdict(() =>
        assertInputRules(
          UploadRequestSchema,
          create(UploadRequestSchema, {
            attachments: [{ content: new Uint8Array([0, 1, 2]), filename: "a.png" }, { filename }],
          }),
        ),
      );
    expect(upload("b.png")).toBe("ok");
    expect(upload("b\u0000.png")).toBe("attachments[1].filename must not contain control characters");
  });
});

describe("input rules: declared value rules (issue 10)", () => {
  const ID = "0f8fad5b-d9cb-469f-a165-70867728950e";
  const valid = { id: ID, users: [ID], child: { key: "k" } };
  const probe = (init: MessageInitShape<typeof RulesProbeSchema>) =>
    verdict(() =>
      assertInputRules(
        RulesProbeSchema,
        create(RulesProbeSchema, { ...valid, ...init } as MessageInitShape<typeof RulesProbeSchema>),
      ),
    );

  it.each<[string, MessageInitShape<typeof RulesProbeSchema>, string]>([
    ["a valid probe", {}, "ok"],
    ["an upper-case UUID", { id: ID.toUpperCase() }, "ok"],
    ["a missing required string", { id: "" }, "id missing in request"],
    ["a malformed UUID", { id: "not-a-uuid" }, "id must be a uuid"],
    ["a UUID without dashes", { id: ID.replaceAll("-", "") }, "id must be a uuid"],
    ["a missing required message", { child: undefined }, "child missing in request"],
    ["a missing required field inside a message", { child: { key: "" } }, "child.key missing in request"],
    ["an empty required list", { users: [] }, "users missing in request"],
    ["a bad list item, empty ones included", { users: [ID, ""] }, "users[1] must be a uuid"],
    ["an absent (empty) optional string", { nickname: "" }, "ok"],
    ["a string one below min_length", { nickname: "a" }, "nickname must be at least 2 characters long"],
    ["a string of exactly min_length", { nickname: "ab" }, "ok"],
    ["min_length in code points", { nickname: "🎵" }, "nickname must be at least 2 characters long"],
    ["max_length before min_length", { nickname: "x".repeat(9) }, "nickname must be at most 8 characters long"],
    ["a matching pattern", { code: "ABC-12" }, "ok"],
    ["a pattern mismatch", { code: "abc-12" }, "code must match ^[A-Z]{3}-[0-9]{2}$"],
    ["an allowed string", { role: "support" }, "ok"],
    ["a string not in the list", { role: "root" }, "role must be one of admin, support"],
    ["case matters in the list", { role: "Admin" }, "role must be one of admin, support"],
    ["the wire names of an in_enum", { colours: ["deepRed", "blue"] }, "ok"],
    ["a proto value name instead of its wire name", { colours: ["Blue"] }, "colours[0] must be one of deepRed, blue"],
    ["a wire name from another enum", { colours: ["admin"] }, "colours[0] must be one of deepRed, blue"],
    ["a control character before any value rule", { role: "a\u0000" }, "role must not contain control characters"],
    ["an absent (zero) integer", { limit: 0 }, "ok"],
    ["the bounds of a range", { limit: 100 }, "ok"],
    ["below a range", { limit: -1 }, "limit must be between 1 and 100"],
    ["above a range", { limit: 101 }, "limit must be between 1 and 100"],
    ["an int64 below gte only", { offset: -1n }, "offset must be at least 0"],
    ["an int64 above lte only", { budget: 1001n }, "budget must be at most 1000"],
    ["a negative range of a sint32", { delta: -6 }, "delta must be between -5 and 5"],
    ["an explicit-presence zero is checked", { level: 0 }, "level must be between 1 and 5"],
    ["an explicit-presence value in range", { level: 5 }, "ok"],
    ["a wrapper value is checked even empty", { note: "" }, "note must be at least 3 characters long"],
    ["a wrapper value in range", { note: "abc" }, "ok"],
  ])("%s", (_, init, expected) => {
    expect(probe(init)).toBe(expected);
  });

  const asRequest = (input: DescMessage) =>
    ({
      ...FixtureService,
      typeName: "test.Probe",
      methods: [{ ...FixtureService.method.echo, name: "Probe", input }],
    }) as unknown as DescService;

  it("the completeness check passes a proto whose rules fit their fields", () => {
    expect(inputRulesProblems([asRequest(RulesProbeSchema)])).toEqual([]);
  });

  it("the completeness check names a rule on a value the field cannot hold, and rules that cannot hold", () => {
    // A message built at run time, each field with a faulty declaration.
    const rules = (init: MessageInitShape<typeof FieldRulesSchema>) => {
      const options = create(FieldOptionsSchema);
      setExtension(options, fieldOption, create(FieldRulesSchema, init));
      return options;
    };
    const field = (name: string, number: number, type: FieldDescriptorProto_Type, options: FieldOptions) => ({
      name,
      number,
      type,
      label: FieldDescriptorProto_Label.OPTIONAL,
      jsonName: name,
      options,
    });
    const file = create(FileDescriptorProtoSchema, {
      name: "test/bad_rules.proto",
      package: "test",
      syntax: "proto3",
      messageType: [
        {
          name: "Bad",
          field: [
            field("count", 1, FieldDescriptorProto_Type.INT32, rules({ uuid: true })),
            field("name", 2, FieldDescriptorProto_Type.STRING, rules({ maxLength: 8, gte: 1n })),
            field("code", 3, FieldDescriptorProto_Type.STRING, rules({ maxLength: 8, pattern: "(" })),
            field("size", 4, FieldDescriptorProto_Type.INT64, rules({ gte: 5n, lte: 1n })),
            field("nick", 5, FieldDescriptorProto_Type.STRING, rules({ maxLength: 2, minLength: 3 })),
            field("kind", 6, FieldDescriptorProto_Type.STRING, rules({ maxLength: 8, inEnum: "test.Missing" })),
          ],
        },
      ],
    });
    const bad = createFileRegistry(file, () => undefined).getMessage("test.Bad")!;
    expect(inputRulesProblems([asRequest(bad)])).toEqual([
      "test.Bad.count declares a string rule (uuid, min_length, pattern, in, in_enum) but holds no string of its own",
      "test.Bad.name declares gte/lte but holds no integer of its own",
      expect.stringMatching(/^test\.Bad\.code declares a pattern that does not compile \(/),
      "test.Bad.size declares gte above lte",
      "test.Bad.nick declares min_length above max_length",
      'test.Bad.kind names in_enum "test.Missing", which is not an enum of its file or of a file it imports',
    ]);
    // A pattern that does not compile is left out of the checks rather than breaking every request.
    expect(verdict(() => assertInputRules(bad, create(bad, { code: "x" } as never)))).toBe("ok");
  });
});

describe("input rules: fields flattened into the query (tt.options.v1.query)", () => {
  const flat = (init: MessageInitShape<typeof FlatListRequestSchema>) =>
    verdict(() => assertInputRules(FlatListRequestSchema, create(FlatListRequestSchema, init)));

  it("issue 10: names a flattened field's fields as REST callers give them, without the field's own name", () => {
    expect(flat({ query: { s: "x".repeat(16385) } })).toBe("s must be at most 16384 characters long");
    expect(flat({ query: { filter: ["ok", "a\u0000"] } })).toBe("filter[1] must not contain control characters");
    expect(flat({ inner: { deeper: { labels: { k: "v\u0000" } } } })).toBe(
      'labels["k"] must not contain control characters',
    );
    expect(flat({ extra: { query: { s: "\u0000" } } })).toBe("extra.s must not contain control characters");
    expect(flat({ query: { s: "ok" }, tenant: "t" })).toBe("ok");
  });
});

describe("the input-rules interceptor", () => {
  const client = createClient(
    FixtureService,
    createRouterTransport(
      ({ service }) =>
        service(FixtureService, {
          echo: (req) => ({ tenant: req.tenant }),
          async *streamThings(req) {
            for (let index = 0; index < req.count; index++) yield { index };
          },
        }),
      { router: { interceptors: [createInputRulesInterceptor()] } },
    ),
  );

  it("refuses a unary request before the handler, and lets a good one through", async () => {
    await expect(client.echo({ tenant: "x".repeat(65) })).rejects.toMatchObject({
      code: Code.InvalidArgument,
      rawMessage: "tenant must be at most 64 characters long",
    });
    await expect(client.echo({ tenant: "acme" })).resolves.toMatchObject({ tenant: "acme" });
  });

  it("refuses a server-streaming request", async () => {
    const read = async (failCode: string) => {
      const got: number[] = [];
      for await (const m of client.streamThings({ count: 2, failCode })) got.push(m.index);
      return got;
    };
    await expect(read("\u0000")).rejects.toMatchObject({
      code: Code.InvalidArgument,
      rawMessage: "failCode must not contain control characters",
    });
    await expect(read("")).resolves.toEqual([0, 1]);
  });
});

/** Every service generated into proto/gen: a service added tomorrow is covered without touching this test. */
async function generatedServices(): Promise<DescService[]> {
  const root = resolve(import.meta.dirname, "../../../../proto/gen");
  const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith("_pb.ts"));
  const services: DescService[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(root, file)).href)) as Record<string, unknown>;
    for (const value of Object.values(mod)) {
      if ((value as { kind?: string } | null)?.kind === "service") services.push(value as DescService);
    }
  }
  return services;
}

describe("declared rules", () => {
  it("every string field reachable from a request of every service declares a max_length", async () => {
    const services = await generatedServices();
    expect(services.map((s) => s.typeName)).toEqual(
      expect.arrayContaining([AuthService.typeName, FixtureService.typeName, "tt.testing.v1.EchoService"]),
    );
    expect(inputRulesProblems(services)).toEqual([]);
  });

  it("the completeness check names a forgotten field", () => {
    // HelloResponse holds strings without rules: harmless as a response, a problem as soon as it is a request.
    const asRequest = {
      ...FixtureService,
      typeName: "test.Probe",
      methods: [{ ...FixtureService.method.hello, name: "Probe", input: FixtureService.method.hello.output }],
    } as unknown as DescService;
    expect(inputRulesProblems([asRequest])).toEqual([
      "tt.fixture.v1.HelloResponse.service (reached from test.Probe.Probe) declares no max_length",
    ]);
  });
});
