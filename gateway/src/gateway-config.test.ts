// The gateway process's environment: what it accepts and how it refuses the rest.
import { describe, expect, it } from "vitest";
import { serviceCatalog } from "./catalog.ts";
import { loadGatewayConfig } from "./gateway-config.ts";

// Every service of the catalogue needs its URL (a service added to the catalogue no longer breaks these tests).
const base = Object.fromEntries(
  Object.keys(serviceCatalog).map((name) => [`${name.toUpperCase()}_SERVICE_URL`, `http://${name}:8080`]),
);

describe("gateway configuration", () => {
  it("serves no media unless MEDIA_DIR is set, under /media by default", () => {
    const defaults = loadGatewayConfig(base);
    expect(defaults.MEDIA_DIR).toBeUndefined();
    expect(defaults.MEDIA_BASE_URL).toBe("/media");
    expect(loadGatewayConfig({ ...base, MEDIA_DIR: "/var/lib/turntable/media", MEDIA_BASE_URL: "" })).toMatchObject({
      MEDIA_DIR: "/var/lib/turntable/media",
      MEDIA_BASE_URL: "/media",
    });
    expect(loadGatewayConfig({ ...base, MEDIA_BASE_URL: "https://cdn.example.org/media" }).MEDIA_BASE_URL).toBe(
      "https://cdn.example.org/media",
    );
  });

  it("refuses a media base URL that is neither a path nor an http(s) URL, naming the variable", () => {
    for (const value of ["media", "ftp://files.example.org/media"]) {
      expect(() => loadGatewayConfig({ ...base, MEDIA_BASE_URL: value })).toThrow(
        /MEDIA_BASE_URL: must be a path \(\/media\) or an http\(s\) URL/,
      );
    }
  });

  it("speaks Connect to the services unless told gRPC, and nothing else", () => {
    expect(loadGatewayConfig(base).BACKEND_PROTOCOL).toBe("connect");
    expect(loadGatewayConfig({ ...base, BACKEND_PROTOCOL: "grpc" }).BACKEND_PROTOCOL).toBe("grpc");
    expect(() => loadGatewayConfig({ ...base, BACKEND_PROTOCOL: "rest" })).toThrow(/BACKEND_PROTOCOL/);
  });

  it("issue 14: reads the Agora app id for /remotes.json, and refuses a malformed one naming the variable", () => {
    expect(loadGatewayConfig(base).AGORA_APP_ID).toBeUndefined();
    expect(loadGatewayConfig({ ...base, AGORA_APP_ID: "" }).AGORA_APP_ID).toBeUndefined();
    const appId = "0123456789abcdef0123456789ABCDEF";
    expect(loadGatewayConfig({ ...base, AGORA_APP_ID: appId }).AGORA_APP_ID).toBe(appId);
    expect(() => loadGatewayConfig({ ...base, AGORA_APP_ID: "not-an-app-id" })).toThrow(/AGORA_APP_ID/);
  });

  it("trusts a proxy's x-forwarded-for only when TRUST_PROXY is true", () => {
    expect(loadGatewayConfig(base).TRUST_PROXY).toBe(false);
    expect(loadGatewayConfig({ ...base, TRUST_PROXY: "" }).TRUST_PROXY).toBe(false);
    expect(loadGatewayConfig({ ...base, TRUST_PROXY: "true" }).TRUST_PROXY).toBe(true);
    expect(() => loadGatewayConfig({ ...base, TRUST_PROXY: "yes" })).toThrow(/TRUST_PROXY/);
  });
});
