import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  checkSetTogether,
  ConfigError,
  envFlag,
  httpBaseUrl,
  loadKitConfig,
  metricsListen,
  optionalEnvString,
  parseEnv,
  parseEnvParts,
  serverLimits,
} from "./config.ts";
import { DEFAULT_SERVER_LIMITS } from "./transport/server.ts";

describe("loadKitConfig", () => {
  it("applies the documented defaults", () => {
    const config = loadKitConfig({ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/tt" });
    expect(config).toEqual({
      PORT: 8080,
      HOST: "0.0.0.0",
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/tt",
      DATABASE_POOL_MAX: 10,
      NATS_URL: undefined,
      DEPLOYMENT_NAME: "turntable",
      LOG_LEVEL: "info",
      JWT_ISSUER: "turntable",
      JWT_AUDIENCE: "turntable",
      USER_SERVICE_URL: undefined,
      SHUTDOWN_TIMEOUT_MS: 10_000,
      ACCESS_TOKEN_MAX_TTL_SECONDS: 7 * 24 * 3600,
      METRICS_PORT: undefined,
      METRICS_HOST: undefined,
      HEADERS_TIMEOUT_MS: 15_000,
      BODY_TIMEOUT_MS: 30_000,
      IDLE_TIMEOUT_MS: 65_000,
      MAX_CONNECTIONS: 10_000,
      MAX_CONNECTIONS_PER_ADDRESS: 256,
    });
    expect(serverLimits(config)).toEqual(DEFAULT_SERVER_LIMITS);
  });

  it("reads DATABASE_POOL_MAX, a positive whole number of connections per service", () => {
    const base = { DATABASE_URL: "postgres://h/db" };
    expect(loadKitConfig({ ...base, DATABASE_POOL_MAX: "3" }).DATABASE_POOL_MAX).toBe(3);
    for (const bad of ["0", "-2", "2.5", "many"]) {
      let error: unknown;
      try {
        loadKitConfig({ ...base, DATABASE_POOL_MAX: bad });
      } catch (err) {
        error = err;
      }
      expect(error, bad).toBeInstanceOf(ConfigError);
      expect(
        (error as ConfigError).issues.map((i) => i.variable),
        bad,
      ).toEqual(["DATABASE_POOL_MAX"]);
    }
  });

  it("issue 23: reads DEPLOYMENT_NAME, a DNS label, and stops the start naming it otherwise", () => {
    const base = { DATABASE_URL: "postgres://h/db" };
    expect(loadKitConfig({ ...base, DEPLOYMENT_NAME: "staging-2" }).DEPLOYMENT_NAME).toBe("staging-2");
    expect(loadKitConfig({ ...base, DEPLOYMENT_NAME: "" }).DEPLOYMENT_NAME).toBe("turntable");
    for (const bad of ["Prod", "prod_eu", "prod.eu", "-prod", "prod-", "p*", "x".repeat(64)]) {
      let error: unknown;
      try {
        loadKitConfig({ ...base, DEPLOYMENT_NAME: bad });
      } catch (err) {
        error = err;
      }
      expect(error, bad).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message, bad).toContain("DEPLOYMENT_NAME");
    }
  });

  it("issue 9 defect 8: reads the server's timeouts and connection caps", () => {
    const config = loadKitConfig({
      DATABASE_URL: "postgres://h/db",
      HEADERS_TIMEOUT_MS: "5000",
      BODY_TIMEOUT_MS: "20000",
      IDLE_TIMEOUT_MS: "90000",
      MAX_CONNECTIONS: "0",
      MAX_CONNECTIONS_PER_ADDRESS: "5000",
    });
    expect(serverLimits(config)).toEqual({
      headersTimeoutMs: 5000,
      bodyTimeoutMs: 20_000,
      idleTimeoutMs: 90_000,
      maxConnections: 0,
      maxConnectionsPerAddress: 5000,
    });
    let error: unknown;
    try {
      loadKitConfig({
        DATABASE_URL: "postgres://h/db",
        HEADERS_TIMEOUT_MS: "0",
        BODY_TIMEOUT_MS: "soon",
        IDLE_TIMEOUT_MS: String(2 ** 31),
        MAX_CONNECTIONS_PER_ADDRESS: "-1",
      });
    } catch (err) {
      error = err;
    }
    expect((error as ConfigError).issues.map((i) => i.variable).sort()).toEqual([
      "BODY_TIMEOUT_MS",
      "HEADERS_TIMEOUT_MS",
      "IDLE_TIMEOUT_MS",
      "MAX_CONNECTIONS_PER_ADDRESS",
    ]);
  });

  it("issue 9 defect 10: serves metrics on METRICS_PORT, by default 9464, or a free one when PORT is 0", () => {
    const base = { DATABASE_URL: "postgres://h/db" };
    expect(metricsListen(loadKitConfig(base))).toEqual({ port: 9464, host: "0.0.0.0", orFreePort: true });
    expect(metricsListen(loadKitConfig({ ...base, PORT: "0", HOST: "127.0.0.1" }))).toEqual({
      port: 0,
      host: "127.0.0.1",
      orFreePort: false,
    });
    // A port that is asked for must be the one.
    expect(metricsListen(loadKitConfig({ ...base, PORT: "0", METRICS_PORT: "9100" }))).toEqual({
      port: 9100,
      host: "0.0.0.0",
      orFreePort: false,
    });
    // All-in-one passes loopback as its default host; METRICS_HOST still wins, and "" means unset.
    expect(metricsListen(loadKitConfig({ ...base, METRICS_PORT: "" }), "127.0.0.1")).toEqual({
      port: 9464,
      host: "127.0.0.1",
      orFreePort: true,
    });
    expect(metricsListen(loadKitConfig({ ...base, METRICS_HOST: "0.0.0.0" }), "127.0.0.1").host).toBe("0.0.0.0");
    expect(() => loadKitConfig({ ...base, METRICS_PORT: "70000" })).toThrow(/METRICS_PORT/);
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

describe("the services' variable helpers", () => {
  const schema = z
    .object({
      API_BASE_URL: httpBaseUrl("https://api.example.com"),
      CLIENT_ID: optionalEnvString,
      CLIENT_SECRET: optionalEnvString,
    })
    .superRefine((env, ctx) => checkSetTogether([["CLIENT_ID", "CLIENT_SECRET"]], env, ctx));
  const issues = (env: Record<string, string>) => {
    try {
      parseEnv(schema, env);
    } catch (err) {
      return (err as ConfigError).issues;
    }
    return [];
  };

  it("reads empty as unset, and a base URL's default or value without its trailing slashes", () => {
    expect(parseEnv(schema, { CLIENT_ID: "", CLIENT_SECRET: "" })).toEqual({ API_BASE_URL: "https://api.example.com" });
    expect(parseEnv(schema, { API_BASE_URL: "http://127.0.0.1:9/v1//" }).API_BASE_URL).toBe("http://127.0.0.1:9/v1");
    expect(issues({ API_BASE_URL: "ftp://files" })).toEqual([
      { variable: "API_BASE_URL", reason: "must be an http(s) URL" },
    ]);
  });

  it("reads a flag as a boolean, its default when unset or empty, and refuses anything but true and false", () => {
    const flags = z.object({ ON: envFlag(true), OFF: envFlag(false) });
    expect(parseEnv(flags, { ON: "", OFF: undefined })).toEqual({ ON: true, OFF: false });
    expect(parseEnv(flags, { ON: "false", OFF: "true" })).toEqual({ ON: false, OFF: true });
    expect(() => parseEnv(flags, { ON: "yes" })).toThrow(/ON: /);
  });

  it("takes a group set together or not at all, naming the missing ones and the set ones", () => {
    expect(parseEnv(schema, { CLIENT_ID: "a", CLIENT_SECRET: "b" })).toMatchObject({ CLIENT_ID: "a" });
    expect(issues({ CLIENT_SECRET: "b" })).toEqual([
      { variable: "CLIENT_ID", reason: "is required when CLIENT_SECRET is set" },
    ]);
  });
});

describe("parseEnvParts", () => {
  const part = (name: string) => (env: Record<string, string | undefined>) =>
    parseEnv(z.object({ [name]: z.coerce.number().int().positive() }), env);

  it("reads every part and hands each its value", () => {
    expect(parseEnvParts({ a: part("A"), b: part("B") }, { A: "1", B: "2" })).toEqual({ a: { A: 1 }, b: { B: 2 } });
  });

  it("issue 10: names every bad variable of every part in one ConfigError", () => {
    let error: unknown;
    try {
      parseEnvParts({ a: part("A"), b: part("B"), c: part("C") }, { A: "x", B: "2", C: "-1" });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map((i) => i.variable)).toEqual(["A", "C"]);
  });

  it("lets other failures through", () => {
    const broken = () => {
      throw new TypeError("a bug");
    };
    expect(() => parseEnvParts({ broken }, {})).toThrow(TypeError);
  });
});
