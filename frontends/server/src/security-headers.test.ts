// @vitest-environment node
import { describe, expect, it } from "vitest";
import {
  contentSecurityPolicy,
  loadContentSecurityOptions,
  strictTransportSecurity,
  type ContentSecurityOptions,
} from "./security-headers.ts";

/** The policy as directive → sources. */
function parse(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy.split("; ").map((directive) => {
      const [name = "", ...sources] = directive.split(" ");
      return [name, sources];
    }),
  );
}

describe("issue 9 defect 9: the web apps' Content-Security-Policy", () => {
  it("allows only the site by default: no inline or eval script, no framing, no plugins", () => {
    const csp = parse(contentSecurityPolicy());
    expect(csp["default-src"]).toEqual(["'self'"]);
    expect(csp["script-src"]).toEqual(["'self'"]);
    expect(csp["style-src"]).toEqual(["'self'"]);
    expect(csp["frame-ancestors"]).toEqual(["'none'"]);
    expect(csp["object-src"]).toEqual(["'none'"]);
    expect(csp["base-uri"]).toEqual(["'self'"]);
    expect(contentSecurityPolicy()).not.toMatch(/unsafe-(inline|eval)/);
  });

  it("leaves room for hls.js: media and workers from blob: URLs", () => {
    const csp = parse(contentSecurityPolicy());
    expect(csp["media-src"]).toEqual(["'self'", "blob:"]);
    expect(csp["worker-src"]).toEqual(["'self'", "blob:"]);
    expect(csp["img-src"]).toEqual(["'self'", "data:", "blob:"]);
  });

  it("adds the origin of each remote on another origin to scripts, styles, fonts, images and connect", () => {
    const csp = parse(
      contentSecurityPolicy({
        remotes: [
          { name: "room", entry: "/remotes/room/mf-manifest.json" },
          { name: "shop", entry: "https://shop.cdn.example:8443/v2/mf-manifest.json" },
          { name: "crates", entry: "https://shop.cdn.example:8443/crates/remoteEntry.js" },
          { name: "admin", entry: "//admin.example.org/mf-manifest.json" },
        ],
      }),
    );
    for (const directive of ["script-src", "style-src", "font-src", "img-src", "connect-src"]) {
      expect(csp[directive]).toContain("https://shop.cdn.example:8443");
      expect(csp[directive]).toContain("admin.example.org");
      expect(csp[directive]!.filter((source) => source === "https://shop.cdn.example:8443")).toHaveLength(1);
    }
    expect(csp["frame-src"]).toEqual(["'self'"]);
  });

  it("ignores a remote entry that is not an http(s) URL instead of writing it into the policy", () => {
    const policy = contentSecurityPolicy({
      remotes: [
        { name: "room", entry: "javascript:alert(1)" },
        { name: "shop", entry: "https://evil.example; script-src 'unsafe-inline'" },
      ],
    });
    expect(policy).not.toContain("javascript");
    expect(policy).not.toContain("unsafe-inline");
    expect(policy).not.toContain("evil");
  });

  it("adds the media origin when MEDIA_BASE_URL is a full URL (S3, CDN), nothing for a path", () => {
    const s3 = parse(contentSecurityPolicy({ mediaBaseUrl: "https://media.s3.example.com/profiles" }));
    expect(s3["img-src"]).toContain("https://media.s3.example.com");
    expect(s3["media-src"]).toContain("https://media.s3.example.com");
    expect(s3["connect-src"]).toContain("https://media.s3.example.com");
    expect(contentSecurityPolicy({ mediaBaseUrl: "/media" })).toBe(contentSecurityPolicy());
  });

  it("adds each configured player's script, frame and image sources, and the extra sources", () => {
    const options: ContentSecurityOptions = {
      players: ["youtube", "spotify"],
      extra: { connect: ["https://api.elsewhere.example"], frame: ["https://player.example"] },
    };
    const csp = parse(contentSecurityPolicy(options));
    expect(csp["script-src"]).toEqual([
      "'self'",
      "https://www.youtube.com",
      "https://open.spotify.com",
      "https://sdk.scdn.co",
    ]);
    expect(csp["frame-src"]).toEqual([
      "'self'",
      "https://www.youtube.com",
      "https://www.youtube-nocookie.com",
      "https://open.spotify.com",
      "https://sdk.scdn.co",
      "https://player.example",
    ]);
    expect(csp["img-src"]).toContain("https://i.ytimg.com");
    expect(csp["connect-src"]).toEqual(["'self'", "https://api.spotify.com", "https://api.elsewhere.example"]);
    expect(csp["script-src"]).not.toContain("https://w.soundcloud.com");
  });
});

describe("issue 10: services on another origin (spec 002 §1)", () => {
  it("lets the pages connect to each redirected service's origin, nothing for a site path", () => {
    const csp = parse(
      contentSecurityPolicy({
        services: { user: "http://localhost:8081/", "tt.room.v1.RoomService": "https://rooms.example.org/v1", x: "/x" },
      }),
    );
    expect(csp["connect-src"]).toEqual(["'self'", "http://localhost:8081", "https://rooms.example.org"]);
    expect(csp["script-src"]).toEqual(["'self'"]);
  });

  it("reads WEB_SERVICE_URLS and refuses a malformed one at start, naming the variable", () => {
    expect(loadContentSecurityOptions({}).services).toBeUndefined();
    expect(
      loadContentSecurityOptions({ WEB_SERVICE_URLS: "user=http://localhost:8081/, room=https://rooms.example.org" })
        .services,
    ).toEqual({ user: "http://localhost:8081", room: "https://rooms.example.org" });
    expect(() => loadContentSecurityOptions({ WEB_SERVICE_URLS: "http://localhost:8081" })).toThrow(
      'WEB_SERVICE_URLS: "http://localhost:8081" is not name=url',
    );
    expect(() => loadContentSecurityOptions({ WEB_SERVICE_URLS: "user=//evil.example" })).toThrow(
      "WEB_SERVICE_URLS: services.user must be an http(s) URL or a path",
    );
  });
});

describe("issue 14: a room's live audio over Agora", () => {
  const appId = "0123456789abcdef0123456789abcdef";

  it("reads AGORA_APP_ID (the user service's) and lets the pages connect to Agora's servers only with it", () => {
    expect(loadContentSecurityOptions({}).agoraAppId).toBeUndefined();
    expect(loadContentSecurityOptions({ AGORA_APP_ID: "" }).agoraAppId).toBeUndefined();
    const options = loadContentSecurityOptions({ AGORA_APP_ID: ` ${appId} ` });
    expect(options.agoraAppId).toBe(appId);
    const csp = parse(contentSecurityPolicy(options));
    expect(csp["connect-src"]).toEqual([
      "'self'",
      "https://*.agora.io",
      "wss://*.agora.io",
      "https://*.sd-rtn.com",
      "wss://*.sd-rtn.com",
    ]);
    expect(csp["script-src"]).toEqual(["'self'"]);
    expect(parse(contentSecurityPolicy({}))["connect-src"]).toEqual(["'self'"]);
  });

  it("refuses a malformed AGORA_APP_ID at start, naming the variable", () => {
    for (const bad of ["abc", `${appId}0`, "0123456789abcdef0123456789abcdeg"]) {
      expect(() => loadContentSecurityOptions({ AGORA_APP_ID: bad }), bad).toThrow("AGORA_APP_ID: must be the 32");
    }
  });
});

describe("issue 9 defect 9: the policy's configuration from the environment", () => {
  it("derives the players from the configured providers unless WEB_PLAYERS names them", () => {
    expect(loadContentSecurityOptions({}).players).toEqual([]);
    expect(loadContentSecurityOptions({ SPOTIFY_CLIENT_ID: "id", SOUNDCLOUD_CLIENT_ID: "sc" }).players).toEqual([
      "soundcloud",
      "spotify",
    ]);
    expect(loadContentSecurityOptions({ SPOTIFY_CLIENT_ID: "id", WEB_PLAYERS: "youtube" }).players).toEqual([
      "youtube",
    ]);
    expect(loadContentSecurityOptions({ SPOTIFY_CLIENT_ID: "id", WEB_PLAYERS: "" }).players).toEqual([]);
  });

  it("issue 14: turns the Apple Music player on with its MusicKit key, and lets MusicKit JS load and play", () => {
    const options = loadContentSecurityOptions({ APPLE_MUSIC_KEY_ID: "KEY1234567" });
    expect(options.players).toEqual(["apple"]);
    expect(loadContentSecurityOptions({ WEB_PLAYERS: "apple,youtube" }).players).toEqual(["apple", "youtube"]);
    const policy = parse(contentSecurityPolicy(options));
    expect(policy["script-src"]).toContain("https://js-cdn.music.apple.com");
    expect(policy["connect-src"]).toContain("https://api.music.apple.com");
    expect(policy["media-src"]).toContain("https://*.itunes.apple.com");
  });

  it("reads the extra sources per directive and MEDIA_BASE_URL", () => {
    const options = loadContentSecurityOptions({
      CSP_CONNECT_SRC: "https://api.example.org, wss://live.example.org",
      CSP_FRAME_SRC: "https://embed.example.org",
      MEDIA_BASE_URL: "https://cdn.example.org/media",
    });
    expect(options.extra).toEqual({
      connect: ["https://api.example.org", "wss://live.example.org"],
      frame: ["https://embed.example.org"],
    });
    expect(parse(contentSecurityPolicy(options))["img-src"]).toContain("https://cdn.example.org");
  });

  it("refuses at start a source that would change the policy's meaning, and an unknown player", () => {
    for (const bad of ["'unsafe-inline'", "https://x.example;script-src *", "*", "data:", "https://x.example'"]) {
      expect(() => loadContentSecurityOptions({ CSP_SCRIPT_SRC: bad }), bad).toThrow(
        /CSP_SCRIPT_SRC: .* is not a source/,
      );
    }
    expect(() => loadContentSecurityOptions({ WEB_PLAYERS: "youtube,myspace" })).toThrow(
      /WEB_PLAYERS: unknown player "myspace"/,
    );
  });

  it("sends HSTS only when the request came over TLS", () => {
    expect(strictTransportSecurity({ headers: {} })).toBeUndefined();
    expect(strictTransportSecurity({ headers: { "x-forwarded-proto": "http" } })).toBeUndefined();
    expect(strictTransportSecurity({ headers: { "x-forwarded-proto": "https" } })).toBe("max-age=31536000");
    expect(strictTransportSecurity({ headers: {}, socket: { encrypted: true } })).toBe("max-age=31536000");
  });
});
