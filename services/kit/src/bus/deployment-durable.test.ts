import { createHash } from "node:crypto";
import type { MikroORM } from "@mikro-orm/postgresql";
import { describe, expect, it } from "vitest";
import { deploymentDurable } from "./deployment-durable.ts";

const ormOf = (dbName: string) => ({ config: { get: () => dbName } }) as unknown as MikroORM;
const hash = (s: string) => createHash("sha256").update(s).digest("hex");

describe("deploymentDurable", () => {
  it("names the purpose and the deployment's database, the same for every replica", () => {
    expect(deploymentDurable(ormOf("tt"), "merch-purchases")).toBe(`merch-purchases-${hash("tt").slice(0, 12)}`);
    expect(deploymentDurable(ormOf("tt"), "x")).toBe(deploymentDurable(ormOf("tt"), "x"));
    expect(deploymentDurable(ormOf("tt_test_a"), "x")).not.toBe(deploymentDurable(ormOf("tt_test_b"), "x"));
  });

  it("takes a configured name as it is, and keeps a service's shorter deployed names", () => {
    expect(deploymentDurable(ormOf("tt"), "x", { configured: "mine" })).toBe("mine");
    expect(deploymentDurable(ormOf("tt"), "x", { configured: "" })).toBe(`x-${hash("tt").slice(0, 12)}`);
    expect(deploymentDurable(ormOf("tt"), "room-x", { hashChars: 10 })).toBe(`room-x-${hash("tt").slice(0, 10)}`);
  });
});
