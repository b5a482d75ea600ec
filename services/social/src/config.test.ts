// The chat's web origins (issue 14): SOCIAL_WEB_ORIGINS, else the site's WEB_PUBLIC_URL, else none (any origin).
import { describe, expect, it } from "vitest";
import { loadChatConfig, loadSocialServiceConfig } from "./config.ts";

describe("SOCIAL_WEB_ORIGINS", () => {
  it("lists the origins of comma-separated URLs, falling back to WEB_PUBLIC_URL", () => {
    expect(
      loadChatConfig({ SOCIAL_WEB_ORIGINS: "https://tt.example/, http://localhost:8080/app ,", WEB_PUBLIC_URL: "x" })
        .SOCIAL_WEB_ORIGINS,
    ).toEqual(["https://tt.example", "http://localhost:8080"]);
    expect(loadChatConfig({ WEB_PUBLIC_URL: "https://music.example.org/" }).SOCIAL_WEB_ORIGINS).toEqual([
      "https://music.example.org",
    ]);
    expect(loadChatConfig({ SOCIAL_WEB_ORIGINS: " ", WEB_PUBLIC_URL: "" }).SOCIAL_WEB_ORIGINS).toEqual([]);
    expect(loadChatConfig({}).SOCIAL_WEB_ORIGINS).toEqual([]);
  });

  it("refuses what is not an http(s) URL, naming the variable", () => {
    expect(() => loadSocialServiceConfig({ SOCIAL_WEB_ORIGINS: "tt.example" })).toThrow(/SOCIAL_WEB_ORIGINS/);
    expect(() => loadSocialServiceConfig({ SOCIAL_WEB_ORIGINS: "ftp://tt.example" })).toThrow(/SOCIAL_WEB_ORIGINS/);
  });
});
