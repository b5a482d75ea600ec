import { describe, expect, it } from "vitest";
import { EchoRequestSchema, GetFileRequestSchema } from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { compilePathBinding } from "./bind-path.ts";
import { BindingDefinitionError } from "./bind-values.ts";
import { parseTemplate } from "./template/parse.ts";
import { binding, json } from "./testing/bindings.ts";

describe("compilePathBinding", () => {
  it.each([
    ["/t/{tenant}", ["x"], { tenant: "x" }],
    ["/t/{thing.id}/{tenant}", ["i", "t"], { thing: { id: "i" }, tenant: "t" }],
    ["/t/{thing.bool_value}", ["true"], { thing: { boolValue: true } }],
    ["/t/{thing.color}", ["2"], { thing: { color: 2 } }],
  ])("%s with %j sets %j", (template, values, expected) => {
    const path = compilePathBinding("m", EchoRequestSchema, parseTemplate(template));
    const out = {};
    path.assign(out, values);
    expect(out).toEqual(expected);
  });

  it.each([
    ["/x/{nope}", /names no field/],
    ["/x/{thing}", /singular scalar/],
    ["/x/{thing.repeated_string}", /singular scalar/],
    ["/x/{tenant.x}", /not a message/],
  ])("refuses %s", (template, message) => {
    expect(() => compilePathBinding("m", EchoRequestSchema, parseTemplate(template))).toThrow(BindingDefinitionError);
    expect(() => compilePathBinding("m", EchoRequestSchema, parseTemplate(template))).toThrow(message);
  });
});

describe("path variables", () => {
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
});
