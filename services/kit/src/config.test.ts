import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigError, loadKitConfig, parseEnv } from "./config.ts";

describe("loadKitConfig", () => {
  it("applies the documented defaults", () => {
    const config = loadKitConfig({ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/tt" });
    expect(config).toEqual({
      PORT: 8080,
      HOST: "0.0.0.0",
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/tt",
      NATS_URL: undefined,
      LOG_LEVEL: "info",
      JWT_ISSUER: "turntable",
      JWT_AUDIENCE: "turntable",
      USER_SERVICE_URL: undefined,
      SHUTDOWN_TIMEOUT_MS: 10_000,
      ACCESS_TOKEN_MAX_TTL_SECONDS: 7 * 24 * 3600,
    });
  });

  it("coerces numbers and keeps given values", () => {
    const config = loadKitConfig({
      DATABASE_URL: "postgresql://u:p@db/tt",
      PORT: "0",
      NATS_URL: "nats://nats:4222",
      USER_SERVICE_URL: "http://user:8080",
      LOG_LEVEL: "debug",
      SHUTDOWN_TIMEOUT_MS: "250",
    });
    expect(config.PORT).toBe(0);
    expect(config.NATS_URL).toBe("nats://nats:4222");
    expect(config.USER_SERVICE_URL).toBe("http://user:8080");
    expect(config.LOG_LEVEL).toBe("debug");
    expect(config.SHUTDOWN_TIMEOUT_MS).toBe(250);
  });

  it("treats empty optional URLs as unset", () => {
    expect(loadKitConfig({ DATABASE_URL: "postgres://h/db", NATS_URL: "" }).NATS_URL).toBeUndefined();
  });

  it("lists every bad or missing variable with its reason", () => {
    let error: unknown;
    try {
      loadKitConfig({ PORT: "eighty", LOG_LEVEL: "loud", SHUTDOWN_TIMEOUT_MS: "-1", NATS_URL: "not a url" });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const issues = (error as ConfigError).issues;
    expect(issues.map((i) => i.variable).sort()).toEqual([
      "DATABASE_URL",
      "LOG_LEVEL",
      "NATS_URL",
      "PORT",
      "SHUTDOWN_TIMEOUT_MS",
    ]);
    expect(issues.find((i) => i.variable === "DATABASE_URL")?.reason).toBe("is required");
    expect((error as Error).message).toMatch(/DATABASE_URL: is required/);
    expect((error as Error).message).toMatch(/LOG_LEVEL: /);
  });

  it("refuses a database URL that is not PostgreSQL", () => {
    expect(() => loadKitConfig({ DATABASE_URL: "mysql://h/db" })).toThrow(/DATABASE_URL: must be a postgres/);
  });
});

describe("parseEnv", () => {
  it("validates a service's own part the same way", () => {
    const schema = z.object({ SMTP_URL: z.url(), OUTBOX: z.coerce.boolean().default(false) });
    expect(parseEnv(schema, { SMTP_URL: "smtp://mail" })).toEqual({ SMTP_URL: "smtp://mail", OUTBOX: false });
    expect(() => parseEnv(schema, {})).toThrow(ConfigError);
    expect(() => parseEnv(schema, {})).toThrow(/SMTP_URL: is required/);
  });
});
