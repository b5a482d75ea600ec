import { describe, expect, inject, it } from "vitest";
import { ConfigError } from "@tt/kit";
import { loadUserConfig } from "./config.ts";
import { createUserHarness } from "./testing/user-harness.ts";

describe("user service configuration", () => {
  it("defaults to 7-day user and bot tokens and 1-day guest tokens", () => {
    const config = loadUserConfig({});
    expect(config.USER_TOKEN_TTL_SECONDS).toBe(7 * 86_400);
    expect(config.BOT_TOKEN_TTL_SECONDS).toBe(7 * 86_400);
    expect(config.GUEST_TOKEN_TTL_SECONDS).toBe(86_400);
    expect(config.JWT_PRIVATE_KEY).toBeUndefined();
  });

  it("refuses lifetimes the verifying services would not accept", () => {
    expect(() => loadUserConfig({ USER_TOKEN_TTL_SECONDS: "700000" })).toThrow(
      /USER_TOKEN_TTL_SECONDS: must not exceed/,
    );
    expect(() => loadUserConfig({ GUEST_TOKEN_TTL_SECONDS: "0" })).toThrow(ConfigError);
  });

  it("wants the admin e-mail and password together", () => {
    expect(() => loadUserConfig({ ADMIN_EMAIL: "root@example.org" })).toThrow(/ADMIN_PASSWORD: is required/);
    expect(loadUserConfig({ ADMIN_EMAIL: "", ADMIN_PASSWORD: "" }).ADMIN_EMAIL).toBeUndefined();
  });

  it("refuses to start, naming the variable, when any area's variable is malformed", async () => {
    const bad = [
      ["MAGIC_LINK_TTL_SECONDS", "soon"],
      ["EMAIL_CODE_TTL_SECONDS", "-5"],
      ["MEDIA_MAX_IMAGE_BYTES", "lots"],
      ["PROVIDER_TOKEN_KEY", "too-short"],
    ];
    for (const [variable, value] of bad) {
      const started = createUserHarness(inject("databaseUrl"), { [variable!]: value });
      await expect(started).rejects.toBeInstanceOf(ConfigError);
      await expect(started).rejects.toThrow(variable!);
    }
  });

  it("issue 10: a bad variable in two areas fails the start naming both", async () => {
    const started = createUserHarness(inject("databaseUrl"), {
      MAGIC_LINK_TTL_SECONDS: "soon",
      MEDIA_MAX_IMAGE_BYTES: "lots",
      BAN_SWEEP_INTERVAL_MS: "1",
    });
    const error = await started.then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map((i) => i.variable)).toEqual([
      "MAGIC_LINK_TTL_SECONDS",
      "MEDIA_MAX_IMAGE_BYTES",
      "BAN_SWEEP_INTERVAL_MS",
    ]);
  });
});
