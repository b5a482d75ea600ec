import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatTemplate, parseTemplate, TemplateParseError } from "./parse.ts";

describe("parseTemplate", () => {
  it.each([
    [
      "/api/user-service",
      [
        { kind: "literal", value: "api" },
        { kind: "literal", value: "user-service" },
      ],
      [],
      undefined,
    ],
    [
      "/api/user-service/profile/{id}",
      [
        { kind: "literal", value: "api" },
        { kind: "literal", value: "user-service" },
        { kind: "literal", value: "profile" },
        { kind: "wildcard" },
      ],
      [{ fieldPath: ["id"], start: 3, end: 4, explicit: false }],
      undefined,
    ],
    [
      "/v1/{thing.id}/x",
      [{ kind: "literal", value: "v1" }, { kind: "wildcard" }, { kind: "literal", value: "x" }],
      [{ fieldPath: ["thing", "id"], start: 1, end: 2, explicit: false }],
      undefined,
    ],
    [
      "/v1/{name=shelves/*}:archive",
      [{ kind: "literal", value: "v1" }, { kind: "literal", value: "shelves" }, { kind: "wildcard" }],
      [{ fieldPath: ["name"], start: 1, end: 3, explicit: true }],
      "archive",
    ],
    [
      "/files/{path=**}",
      [{ kind: "literal", value: "files" }, { kind: "deep" }],
      [{ fieldPath: ["path"], start: 1, end: 2, explicit: true }],
      undefined,
    ],
    [
      "/a/*/b/**",
      [{ kind: "literal", value: "a" }, { kind: "wildcard" }, { kind: "literal", value: "b" }, { kind: "deep" }],
      [],
      undefined,
    ],
    ["/things:stream", [{ kind: "literal", value: "things" }], [], "stream"],
    [
      "/.well-known/jwks.json",
      [
        { kind: "literal", value: ".well-known" },
        { kind: "literal", value: "jwks.json" },
      ],
      [],
      undefined,
    ],
  ])("parses %s", (source, segments, variables, verb) => {
    const t = parseTemplate(source);
    expect(t).toEqual({ segments, variables, verb });
    expect(formatTemplate(t)).toBe(source);
  });

  it.each([
    ["", "must start with /"],
    ["api", "must start with /"],
    ["/", "needs at least one segment"],
    ["/a//b", "empty segment"],
    ["/a/", "empty segment"],
    ["/a/{}", "invalid field path"],
    ["/a/{1x}", "invalid field path"],
    ["/a/{x.}", "invalid field path"],
    ["/a/{x", "unclosed variable"],
    ["/a/{x=}", "empty segment"],
    ["/a/{x={y}}", "variables cannot be nested"],
    ["/a/{x}/{x}", "appears twice"],
    ["/a/**/b", "** must be the last segment"],
    ["/a/{x=**}/b", "** must be the last segment"],
    ["/a:", "invalid verb"],
    ["/a:b/c", "invalid verb"],
    ["/a b", "invalid segment"],
    ["/a}", "unexpected"],
    ["/a/***", "invalid segment"],
  ])("rejects %j (%s) naming the method", (source, reason) => {
    let caught: unknown;
    try {
      parseTemplate(source, "tt.x.v1.XService.Get");
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(TemplateParseError);
    expect((caught as Error).message).toContain("tt.x.v1.XService.Get");
    expect((caught as TemplateParseError).reason).toContain(reason);
  });

  // Generators for valid templates, built from the grammar.
  const ident = fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/);
  const literal = fc.stringMatching(/^[A-Za-z0-9\-._~]{1,8}$/).filter((s) => s !== "*" && s !== "**");
  const plain = fc.oneof(literal, fc.constant("*"));
  const variable = fc
    .tuple(fc.array(ident, { minLength: 1, maxLength: 3 }), fc.option(fc.array(plain, { minLength: 1, maxLength: 3 })))
    .map(([path, segs]) => ({ text: `{${path.join(".")}${segs ? `=${segs.join("/")}` : ""}}`, name: path.join(".") }));
  const template = fc
    .tuple(
      fc.array(
        fc.oneof(
          plain.map((text) => ({ text, name: "" })),
          variable,
        ),
        { minLength: 1, maxLength: 6 },
      ),
      fc.boolean(),
      fc.option(literal),
    )
    .filter(
      ([segs]) => new Set(segs.filter((s) => s.name).map((s) => s.name)).size === segs.filter((s) => s.name).length,
    )
    .map(([segs, deep, verb]) => `/${segs.map((s) => s.text).join("/")}${deep ? "/**" : ""}${verb ? `:${verb}` : ""}`);

  it("parses every generated valid template and prints it back unchanged", () => {
    fc.assert(
      fc.property(template, (source) => {
        expect(formatTemplate(parseTemplate(source))).toBe(source);
      }),
      { numRuns: 500 },
    );
  });

  it("throws only TemplateParseError on arbitrary input", () => {
    const alphabet = fc.constantFrom(..."/{}=*.:abc_1%- ".split(""));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(alphabet, { maxLength: 20 }).map((a) => a.join("")),
        ),
        (source) => {
          try {
            const t = parseTemplate(source);
            // Whatever parses must round-trip to something that parses the same way.
            expect(parseTemplate(formatTemplate(t))).toEqual(t);
          } catch (e) {
            expect(e).toBeInstanceOf(TemplateParseError);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
