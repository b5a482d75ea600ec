// Every service of the catalogue keeps the template's shape (docs/new-service.md): the kit's structure check, run for
// each, so the next service cannot drift.
import path from "node:path";
import { serviceStructureProblems } from "@tt/kit/testing";
import { describe, expect, it } from "vitest";
import { serviceNames } from "./catalogue.ts";

const services = path.resolve(import.meta.dirname, "../..");

describe("service structure", () => {
  it.each(serviceNames)("%s keeps the template's shape", (name) => {
    expect(serviceStructureProblems(path.join(services, name))).toEqual([]);
  });
});
