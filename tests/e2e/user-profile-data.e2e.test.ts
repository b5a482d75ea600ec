// The profile-data area over REST through the gateway (all-in-one): every path's success case and each
// documented error, as a client of the specification would call them.
import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, u, type TestPlatform } from "./support/platform.ts";

let platform: TestPlatform;
let mediaDir: string;
let user: { uuid: string; token: string };
let other: { uuid: string; token: string };
let service: string;
let admin: string;

const call = (...args: Parameters<TestPlatform["call"]>) => platform.call(...args);

async function newUser() {
  const { user: created, token } = await platform.signUp();
  return { uuid: created.uuid, token };
}

async function imageForm(kind: string, bytes?: Uint8Array, type = "image/png"): Promise<FormData> {
  const content =
    bytes ??
    new Uint8Array(
      await sharp({ create: { width: 300, height: 200, channels: 3, background: "#336699" } })
        .png()
        .toBuffer(),
    );
  const form = new FormData();
  form.append("kind", kind);
  form.append("file", new Blob([content as Uint8Array<ArrayBuffer>], { type }), "picture.png");
  return form;
}

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), "tt-e2e-media-"));
  platform = await startTestPlatform({ env: { MEDIA_DIR: mediaDir } });
  user = await newUser();
  other = await newUser();
  service = await platform.serviceToken("merch");
  admin = await platform.adminToken();
});

afterAll(async () => {
  await platform?.close();
  await rm(mediaDir, { recursive: true, force: true });
});

const profileNotFound = { statusCode: 404, message: "user profile not found", error: "Not Found" };

describe("profiles", () => {
  it("GET /users/profile answers the caller's profile", async () => {
    const res = await call("GET", u("/users/profile"), { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uuid: user.uuid, role: "user", badges: [] });
  });

  it("GET /users/profile answers 404 for an account without a profile", async () => {
    const res = await call("GET", u("/users/profile"), { token: await platform.craft({ sub: randomUUID() }) });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(profileNotFound);
  });

  it("POST /users/profile changes present fields; 400 for a bad value; 404 without a profile", async () => {
    const ok = await call("POST", u("/users/profile"), {
      token: user.token,
      body: { nickname: "DJ E2E", color: "#00FF00", bio: "hi" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ uuid: user.uuid, nickname: "DJ E2E", color: "#00ff00", bio: "hi" });
    const bad = await call("POST", u("/users/profile"), { token: user.token, body: { color: "green" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ statusCode: 400, message: "color must be a hex colour like #1a2b3c" });
    const missing = await call("POST", u("/users/profile"), {
      token: await platform.craft({ sub: randomUUID() }),
      body: { bio: "x" },
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(profileNotFound);
  });

  it("POST /users/profile-admin changes another user's profile; 404 for an unknown uuid; 401 for non-admins", async () => {
    const ok = await call("POST", u("/users/profile-admin"), {
      token: admin,
      body: { uuid: other.uuid, nickname: "Renamed by admin" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ uuid: other.uuid, nickname: "Renamed by admin" });
    const unknown = await call("POST", u("/users/profile-admin"), {
      token: admin,
      body: { uuid: randomUUID(), nickname: "x" },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(profileNotFound);
    const refused = await call("POST", u("/users/profile-admin"), {
      token: user.token,
      body: { uuid: other.uuid, nickname: "x" },
    });
    expect(refused.status).toBe(401);
  });

  it("GET /profile/{id}/service answers the profile to services; 404 for an unknown user", async () => {
    const ok = await call("GET", u(`/profile/${user.uuid}/service`), { token: service });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ uuid: user.uuid });
    const unknown = await call("GET", u(`/profile/${randomUUID()}/service`), { token: service });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(profileNotFound);
    expect((await call("GET", u(`/profile/${user.uuid}/service`), { token: user.token })).status).toBe(401);
  });

  it("GET /users/profiles answers a batch in query order; 400 above 150 uuids", async () => {
    const ok = await call("GET", u(`/users/profiles?users=${other.uuid}&users=${user.uuid}&users=${randomUUID()}`), {
      token: user.token,
    });
    expect(ok.status).toBe(200);
    expect((ok.body.profiles as { uuid: string }[]).map((p) => p.uuid)).toEqual([other.uuid, user.uuid]);
    const query = Array.from({ length: 151 }, () => `users=${randomUUID()}`).join("&");
    const tooMany = await call("GET", u(`/users/profiles?${query}`), { token: user.token });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ statusCode: 400, message: "users must name 1 to 150 uuids" });
  });
});

describe("user, user data, capabilities and socials", () => {
  it("GET /users/user/{id}: e-mail for the user, not for others; 404 for an unknown user", async () => {
    const own = await call("GET", u(`/users/user/${user.uuid}`), { token: user.token });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ uuid: user.uuid, hasPassword: true });
    expect(String(own.body.email)).toContain("@example.test");
    const seen = await call("GET", u(`/users/user/${user.uuid}`), { token: other.token });
    expect(seen.status).toBe(200);
    expect(seen.body.email).toBe("");
    const unknown = await call("GET", u(`/users/user/${randomUUID()}`), { token: user.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(profileNotFound);
  });

  it("GET /users/service/{id}/user-profile answers the user to services; 404 for an unknown user", async () => {
    const ok = await call("GET", u(`/users/service/${user.uuid}/user-profile`), { token: service });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ uuid: user.uuid, role: "user" });
    const unknown = await call("GET", u(`/users/service/${randomUUID()}/user-profile`), { token: service });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(profileNotFound);
  });

  it("GET and PUT /users/profile/user-data; 400 for an unknown provider", async () => {
    const initial = await call("GET", u("/users/profile/user-data"), { token: user.token });
    expect(initial.status).toBe(200);
    expect(initial.body).toMatchObject({ audioQuality: "medium", language: "en", musicProviders: [] });
    const put = await call("PUT", u("/users/profile/user-data"), {
      token: user.token,
      body: { musicProviders: ["youtube", "spotify", "youtube"], allowExplicitAudio: true, audioQuality: "low" },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      musicProviders: ["youtube", "spotify"],
      allowExplicitAudio: true,
      audioQuality: "low",
      language: "en",
    });
    expect((await call("GET", u("/users/profile/user-data"), { token: user.token })).body).toEqual(put.body);
    const bad = await call("PUT", u("/users/profile/user-data"), {
      token: user.token,
      body: { musicProviders: ["napster"] },
    });
    expect(bad.status).toBe(400);
  });

  it("GET /users/capabilities answers the caller's and every capability", async () => {
    const res = await call("GET", u("/users/capabilities"), { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ capabilities: [], available: ["uploadMusic", "promoteRoom"] });
  });

  it("POST /users/user-socials sets the caller's links; 400 for a website that is not http(s)", async () => {
    const ok = await call("POST", u("/users/user-socials"), {
      token: user.token,
      body: { twitter: "@dj", website: "https://dj.example" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ twitter: "@dj", website: "https://dj.example", discord: "" });
    const bad = await call("POST", u("/users/user-socials"), { token: user.token, body: { website: "ftp://x" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ message: "website must be an http or https URL" });
  });
});

describe("badges", () => {
  it("POST /users/add-badges-service and /users/remove-badges-service; 400 unknown badge; 404 unknown user", async () => {
    const add = await call("POST", u("/users/add-badges-service"), {
      token: service,
      body: { uuid: other.uuid, badges: ["VERIFIED", "JQBX"] },
    });
    expect(add.status).toBe(200);
    expect(add.body).toEqual({ badges: ["VERIFIED", "JQBX"] });
    const remove = await call("POST", u("/users/remove-badges-service"), {
      token: service,
      body: { uuid: other.uuid, badges: ["JQBX"] },
    });
    expect(remove.status).toBe(200);
    expect(remove.body).toEqual({ badges: ["VERIFIED"] });
    for (const path of ["/users/add-badges-service", "/users/remove-badges-service"]) {
      const unknownBadge = await call("POST", u(path), {
        token: service,
        body: { uuid: other.uuid, badges: ["GOLD"] },
      });
      expect(unknownBadge.status).toBe(400);
      const unknownUser = await call("POST", u(path), {
        token: service,
        body: { uuid: randomUUID(), badges: ["STAFF"] },
      });
      expect(unknownUser.status).toBe(404);
      expect(unknownUser.body).toEqual(profileNotFound);
    }
  });

  it("POST /users/change-badges-admin replaces the set; 400 unknown badge; 404 unknown user", async () => {
    const ok = await call("POST", u("/users/change-badges-admin"), {
      token: admin,
      body: { uuid: other.uuid, badges: ["PLATINUM", "STAFF"] },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ badges: ["PLATINUM", "STAFF"] });
    const profile = await call("GET", u(`/profile/${other.uuid}/service`), { token: service });
    expect(profile.body.badges).toEqual(["PLATINUM", "STAFF"]);
    const bad = await call("POST", u("/users/change-badges-admin"), {
      token: admin,
      body: { uuid: other.uuid, badges: ["GOLD"] },
    });
    expect(bad.status).toBe(400);
    const unknown = await call("POST", u("/users/change-badges-admin"), {
      token: admin,
      body: { uuid: randomUUID(), badges: [] },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(profileNotFound);
  });
});

describe("service profile lists", () => {
  it("GET /users/service/all-user-profiles pages by uuid with take and skip", async () => {
    const all = await call("GET", u("/users/service/all-user-profiles"), { token: service });
    expect(all.status).toBe(200);
    const profiles = all.body.profiles as { uuid: string }[];
    expect(profiles.length).toBe(all.body.total);
    const page = await call("GET", u("/users/service/all-user-profiles?take=1&skip=1"), { token: service });
    expect((page.body.profiles as { uuid: string }[]).map((p) => p.uuid)).toEqual([profiles[1]!.uuid]);
    expect((await call("GET", u("/users/service/all-user-profiles?take=5000"), { token: service })).status).toBe(400);
  });

  it("GET /users/service/update-user-profiles orders by last change; updatedSince filters", async () => {
    const since = new Date().toISOString();
    await call("POST", u("/users/profile"), { token: user.token, body: { bio: "latest" } });
    const recent = await call("GET", u(`/users/service/update-user-profiles?updatedSince=${since}`), {
      token: service,
    });
    expect(recent.status).toBe(200);
    expect((recent.body.profiles as { uuid: string; updatedAt: string }[]).map((p) => p.uuid)).toEqual([user.uuid]);
    const all = await call("GET", u("/users/service/update-user-profiles?take=2&skip=0"), { token: service });
    expect(all.status).toBe(200);
    expect((all.body.profiles as unknown[]).length).toBe(2);
    expect((await call("GET", u("/users/service/update-user-profiles?skip=-1"), { token: service })).status).toBe(400);
  });
});

describe("images", () => {
  it("POST /users/images (multipart) stores every size and sets the picture; GET /users/images/{id} answers it", async () => {
    const up = await call("POST", u("/users/images"), { token: user.token, form: await imageForm("profilePicture") });
    expect(up.status).toBe(200);
    const id = up.body.id as string;
    expect(up.body).toMatchObject({ userUuid: user.uuid, kind: "profilePicture", url: `/media/images/${id}/256.webp` });
    expect((up.body.variants as { size: number }[]).map((v) => v.size)).toEqual([128, 256, 500, 1024]);
    expect((await readdir(join(mediaDir, "images", id))).sort()).toEqual([
      "1024.webp",
      "128.webp",
      "256.webp",
      "500.webp",
    ]);
    const profile = await call("GET", u("/users/profile"), { token: user.token });
    expect((profile.body.profilePicture as { id: string }).id).toBe(id);
    const got = await call("GET", u(`/users/images/${id}`), { token: other.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(up.body);
    // The platform serves the stored file at the image's URL.
    const file = await fetch(platform.url + (up.body.url as string));
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/webp");
    expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it("POST /users/images answers 400 for bytes that are no image and for an unknown kind", async () => {
    const notImage = await call("POST", u("/users/images"), {
      token: user.token,
      form: await imageForm("profilePicture", new TextEncoder().encode("<svg/>"), "image/png"),
    });
    expect(notImage.status).toBe(400);
    expect(notImage.body).toMatchObject({ message: "file must be a JPEG, PNG, WebP or GIF image" });
    const badKind = await call("POST", u("/users/images"), { token: user.token, form: await imageForm("banner") });
    expect(badKind.status).toBe(400);
    expect(badKind.body).toMatchObject({ message: "kind must be one of profilePicture, coverPicture" });
  });

  it("GET /users/images/{id} answers 404 for an unknown image", async () => {
    const res = await call("GET", u(`/users/images/${randomUUID()}`), { token: user.token });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ message: "image not found" });
  });

  it("DELETE /users/images/{id}: 403 for another user, 200 for the owner and for staff, then 404", async () => {
    const up = await call("POST", u("/users/images"), { token: user.token, form: await imageForm("coverPicture") });
    const id = up.body.id as string;
    const refused = await call("DELETE", u(`/users/images/${id}`), { token: other.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ statusCode: 403, message: "unauthorized to delete", error: "Forbidden" });
    const ok = await call("DELETE", u(`/users/images/${id}`), { token: user.token });
    expect(ok.status).toBe(200);
    await expect(readdir(join(mediaDir, "images", id))).rejects.toMatchObject({ code: "ENOENT" });
    const gone = await call("DELETE", u(`/users/images/${id}`), { token: user.token });
    expect(gone.status).toBe(404);

    const second = await call("POST", u("/users/images"), { token: user.token, form: await imageForm("coverPicture") });
    const moderator = await platform.craft({ sub: other.uuid, role: "moderator" });
    const byStaff = await call("DELETE", u(`/users/images/${second.body.id as string}`), { token: moderator });
    expect(byStaff.status).toBe(200);
  });
});
