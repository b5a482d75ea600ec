// Shorthands for the binding table tests: a rule of the fixture service compiled from a template string.
import { toJson, type DescMessage } from "@bufbuild/protobuf";
import { compileBinding, type Binding } from "../bind.ts";
import { parseTemplate } from "../template/parse.ts";

export const binding = (input: DescMessage, template: string, body = ""): Binding =>
  compileBinding({ method: "tt.fixture.v1.FixtureService.Test", input, template: parseTemplate(template), body });

/** A bound message as proto3 JSON, for whole-message comparisons. */
export const json = (input: DescMessage, m: unknown) => toJson(input, m as never);
