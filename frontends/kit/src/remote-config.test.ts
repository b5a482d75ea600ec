import { afterEach, describe, expect, it, vi } from "vitest";
import {
  loadRuntimeConfig,
  parseRuntimeConfig,
  serviceBaseUrl,
  serviceNameOf,
  serviceRestUrl,
} from "./remote-config.ts";

const ROOM = { name: "room", entry: "/remotes/room/mf-manifest.json" };

describe("runtime configuration (/remotes.json)", () => {
  it("issue 10: accepts the remotes-only array and the object with service base URLs", () => {
    expect(parseRuntimeConfig([ROOM])).toEqual({ remotes: [ROOM], services: {} });
    expect(
      parseRuntimeConfig({
        remotes: [ROOM],
        services: { user: "http://localhost:8081/", "tt.room.v1.RoomService": "https://rooms.example.org/api-proxy" },
      }),
    ).toEqual({
      remotes: [ROOM],
      services: { user: "http://localhost:8081", "tt.room.v1.RoomService": "https://rooms.example.org/api-proxy" },
    });
    expect(parseRuntimeConfig({ services: { user: "/dev-user" } })).toEqual({
      remotes: [],
      services: { user: "/dev-user" },
    });
  });

  it("refuses a malformed service map with a message naming the entry", () => {
    expect(() => parseRuntimeConfig("x")).toThrow(/JSON array or an object/);
    expect(() => parseRuntimeConfig({ services: [] })).toThrow(/services must be an object/);
    expect(() => parseRuntimeConfig({ services: { "User Service": "http://x" } })).toThrow(
      '"User Service" is not a service name',
    );
    expect(() => parseRuntimeConfig({ services: { user: "javascript:alert(1)" } })).toThrow(
      "services.user must be an http(s) URL or a path",
    );
    expect(() => parseRuntimeConfig({ services: { user: 8081 } })).toThrow("services.user");
    for (const bad of ["//evil.example", "http://x.example;script-src", "ftp://x.example", "http://", "", "user"]) {
      expect(() => parseRuntimeConfig({ services: { user: bad } }), bad).toThrow("services.user");
    }
    expect(() => parseRuntimeConfig({ remotes: [{ name: "Room", entry: "/x" }] })).toThrow("lower-case identifier");
  });

  it("issue 14: carries the deployment's players and brand, and refuses malformed ones", () => {
    expect(parseRuntimeConfig({ remotes: [], players: ["youtube", "spotify"], brand: "hangout" })).toEqual({
      remotes: [],
      services: {},
      players: ["youtube", "spotify"],
      brand: "hangout",
    });
    expect(() => parseRuntimeConfig({ players: "youtube" })).toThrow("remotes.json players must be a list");
    expect(() => parseRuntimeConfig({ brand: "<script>" })).toThrow("remotes.json brand must be a lower-case name");
  });

  it("issue 14: carries the Agora app id of a deployment with Agora, and refuses a malformed one", () => {
    const appId = "0123456789abcdef0123456789ABCDEF";
    expect(parseRuntimeConfig({ remotes: [], agoraAppId: appId })).toEqual({
      remotes: [],
      services: {},
      agoraAppId: appId,
    });
    expect(parseRuntimeConfig({ remotes: [] })).not.toHaveProperty("agoraAppId");
    for (const bad of ["", "abc", `${appId}0`, 42, "0123456789abcdef0123456789abcdeg"]) {
      expect(() => parseRuntimeConfig({ agoraAppId: bad }), String(bad)).toThrow("remotes.json agoraAppId");
    }
  });

  it("issue 14: carries the Apple Music developer token, and refuses one that is not a JWT", () => {
    const appleMusic = {
      developerToken: "eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJUIn0.c2ln",
      expiresAt: "2026-01-01T12:00:00.000Z",
    };
    expect(parseRuntimeConfig({ remotes: [], players: ["apple"], appleMusic })).toEqual({
      remotes: [],
      services: {},
      players: ["apple"],
      appleMusic,
    });
    for (const bad of [
      {},
      { developerToken: "not a jwt" },
      { developerToken: appleMusic.developerToken, expiresAt: "soon" },
      "x",
    ]) {
      expect(() => parseRuntimeConfig({ appleMusic: bad }), JSON.stringify(bad)).toThrow("remotes.json appleMusic");
    }
  });

  it("names a service by its proto package tt.<name>.v<n>", () => {
    expect(serviceNameOf("tt.user.v1.AuthService")).toBe("user");
    expect(serviceNameOf("tt.user.v1.AccountsService")).toBe("user");
    expect(serviceNameOf("tt.playlist.v2beta1.CrateService")).toBe("playlist");
    expect(serviceNameOf("grpc.health.v1.Health")).toBeUndefined();
    expect(serviceNameOf("user")).toBeUndefined();
  });

  it("issue 10: picks a service's base URL by its full name, then its package, else the page's origin", () => {
    const services = { user: "http://localhost:8081", "tt.user.v1.AdminService": "http://localhost:8082" };
    const origin = "https://tt.example";
    expect(serviceBaseUrl("tt.user.v1.AuthService", services, origin)).toBe("http://localhost:8081");
    expect(serviceBaseUrl("tt.user.v1.AdminService", services, origin)).toBe("http://localhost:8082");
    expect(serviceBaseUrl("tt.room.v1.RoomService", services, origin)).toBe(origin);
    expect(serviceBaseUrl("user", services, origin)).toBe("http://localhost:8081");
    expect(serviceBaseUrl("room", services, origin)).toBe(origin);
  });

  it("issue 10: builds REST URLs under the service's base URL, or site-relative by default", () => {
    const services = { user: "http://localhost:8081" };
    expect(serviceRestUrl("user", "/auth/session", services, "")).toBe(
      "http://localhost:8081/api/user-service/auth/session",
    );
    expect(serviceRestUrl("room", "rooms?limit=5", services, "")).toBe("/api/room-service/rooms?limit=5");
  });
});

describe("loadRuntimeConfig", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("fetches once for the whole page, and again after a failure", async () => {
    const answers = [
      new Response("nope", { status: 503 }),
      Response.json({ remotes: [ROOM], services: { user: "http://localhost:8081" } }),
    ];
    const seen: string[] = [];
    vi.stubGlobal("fetch", async (url: string) => {
      seen.push(url);
      return answers.shift() ?? new Response("too many", { status: 500 });
    });
    await expect(loadRuntimeConfig()).rejects.toThrow("/remotes.json answered 503");
    const [first, second] = await Promise.all([loadRuntimeConfig(), loadRuntimeConfig()]);
    expect(first).toBe(second);
    expect(first.services).toEqual({ user: "http://localhost:8081" });
    expect(await loadRuntimeConfig()).toBe(first);
    expect(seen).toEqual(["/remotes.json", "/remotes.json"]);
    // issue 14: asked for fresh (a token in it is about to expire), it is fetched again for everyone.
    answers.push(Response.json({ remotes: [ROOM], services: {}, brand: "hangout" }));
    const fresh = await loadRuntimeConfig("/remotes.json", true);
    expect(fresh.brand).toBe("hangout");
    expect(await loadRuntimeConfig()).toBe(fresh);
    expect(seen).toHaveLength(3);
  });
});
