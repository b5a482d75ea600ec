import { describe, expect, it } from "vitest";
import { ConfigError } from "@tt/kit";
import { loadPeopleConfig } from "./people-config.ts";

describe("people config", () => {
  it("works with nothing set: development push, generated secrets, defaults", () => {
    expect(loadPeopleConfig({})).toMatchObject({
      MOBILE_PUSH_PROVIDER: "development",
      WEB_PUSH_ALLOW_HTTP: false,
      DJ_FANS_NOTIFICATION_INTERVAL_SECONDS: 600,
      NOTIFICATION_INBOX_DAYS: 90,
    });
  });

  it("names every bad variable, then the variables that go together", () => {
    const message = (env: Record<string, string>) => {
      try {
        loadPeopleConfig(env);
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as Error).message;
      }
      throw new Error("accepted");
    };
    const bad = message({ CONTACT_HASH_KEY: "short", WEB_PUSH_ALLOW_HTTP: "yes", VAPID_SUBJECT: "ops" });
    for (const name of ["CONTACT_HASH_KEY", "WEB_PUSH_ALLOW_HTTP", "VAPID_SUBJECT"]) expect(bad).toContain(name);
    const together = message({ MOBILE_PUSH_PROVIDER: "fcm", VAPID_PUBLIC_KEY: "x".repeat(87) });
    for (const name of ["FCM_SERVICE_ACCOUNT_JSON", "VAPID_PRIVATE_KEY"]) expect(together).toContain(name);
  });
});
