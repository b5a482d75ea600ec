import { describe, expect, it } from "vitest";
import { EchoRequestSchema, UpdateThingRequestSchema } from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { BindError } from "./bind.ts";
import { binding, json } from "./testing/bindings.ts";

// How compileBinding composes the stages (bind-path, bind-query, bind-body, bind-multipart); each stage has
// its own table tests beside it.
const echoPost = binding(EchoRequestSchema, "/t/{tenant}/things", "thing");
const echoPut = binding(EchoRequestSchema, "/echo", "*");
const update = binding(UpdateThingRequestSchema, "/things/{thing.id}", "thing");

describe("compileBinding", () => {
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

  it("checks query names before the body: an unknown parameter wins over malformed JSON", () => {
    expect(() => echoPost.bind(["t"], "nope=1", "{")).toThrow(/unknown query parameter "nope"/);
  });
});
