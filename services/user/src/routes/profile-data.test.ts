import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { create, fromBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { SignUpRequestSchema } from "@tt/proto/tt/user/v1/auth_service_pb";
import type { Identity } from "@tt/kit";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { IMAGE_NOT_FOUND, PROFILE_NOT_FOUND, UNAUTHORIZED_TO_DELETE } from "../modules/profile-data/profile-rules.ts";
import { eventDeclaration, OutboxMessage } from "@tt/kit";
import { ProfileUpdatedSchema, UserUpdatedSchema } from "@tt/proto/tt/user/v1/events_pb";
import { PhoneNumber } from "../modules/contact/phone-number.entity.ts";
import { Deactivation } from "../modules/moderation/deactivation.entity.ts";
import { Profile } from "../modules/profiles/profile.entity.ts";
import { User } from "../modules/users/user.entity.ts";
import { Code, connectErrorOf } from "../testing/expect-connect-error.ts";
import { createUserHarness, type UserHarness } from "../testing/user-harness.ts";

let h: UserHarness;
let mediaDir: string;

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), "tt-media-"));
  h = await createUserHarness(inject("databaseUrl"), { MEDIA_DIR: mediaDir, MEDIA_BASE_URL: "https://cdn.test/m" });
});

afterAll(async () => {
  await h?.close();
  await rm(mediaDir, { recursive: true, force: true });
});

const service: Identity = {
  tokenType: "service",
  subject: "merch",
  role: "service",
  sessionId: randomUUID(),
  expiresAt: new Date(Date.now() + 3_600_000),
  token: "",
};

async function newUser(nickname = "someone"): Promise<Identity> {
  const res = await h.rpc.signUp(
    create(SignUpRequestSchema, { email: `${randomUUID()}@example.org`, password: "long enough", nickname }),
    h.ctx("signUp"),
  );
  return h.identityOf(res.accessToken!.token);
}

const as = (identity: Identity, role: string): Identity => ({ ...identity, role });

async function png(width: number, height: number): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 60 } } })
      .png()
      .toBuffer(),
  );
}

/** The events of one kind in the outbox that are about the user, oldest first. */
async function eventsFor<D extends DescMessage>(schema: D, uuid: string): Promise<MessageShape<D>[]> {
  const { subject } = eventDeclaration(schema);
  const rows = await h.orm.em.fork().find(OutboxMessage, { subject }, { orderBy: { seq: "asc" } });
  return rows.map((r) => fromBinary(schema, r.payload)).filter((p) => (p as { uuid?: string }).uuid === uuid);
}

const upload = async (who: Identity, kind = "profilePicture", bytes?: Uint8Array) =>
  h.rpc.uploadUserImage(
    { file: { content: bytes ?? (await png(600, 300)), filename: "x.png", contentType: "image/png" }, kind },
    h.ctx("uploadUserImage", who),
  );

describe("own profile", () => {
  it("GetOwnProfile answers the caller's profile with socials, role and times", async () => {
    const me = await newUser("Own");
    const { profile } = await h.rpc.getOwnProfile({}, h.ctx("getOwnProfile", me));
    expect(profile).toMatchObject({ uuid: me.subject, nickname: "Own", role: "user", badges: [] });
    expect(profile?.socials).toBeDefined();
    expect(profile?.updatedAt).toBeDefined();
    expect(profile?.profilePicture).toBeUndefined();
  });

  it("GetOwnProfile answers 404 when the account has no profile", async () => {
    const ghost: Identity = { ...service, tokenType: "user", role: "user", subject: randomUUID() };
    await expect(connectErrorOf(h.rpc.getOwnProfile({}, h.ctx("getOwnProfile", ghost)))).resolves.toEqual({
      code: Code.NotFound,
      message: PROFILE_NOT_FOUND,
    });
  });

  it("UpdateProfile sets present fields, keeps absent ones and announces the change", async () => {
    const me = await newUser("Before");
    const { profile } = await h.rpc.updateProfile(
      { nickname: "  After ", color: "#A1B2C3", bio: "hello", avatarId: "cool-cat" },
      h.ctx("updateProfile", me),
    );
    expect(profile).toMatchObject({ nickname: "After", color: "#a1b2c3", bio: "hello", avatarId: "cool-cat" });
    const again = await h.rpc.updateProfile({ bio: "" }, h.ctx("updateProfile", me));
    expect(again.profile).toMatchObject({ nickname: "After", color: "#a1b2c3", bio: "", avatarId: "cool-cat" });
    const events = await eventsFor(ProfileUpdatedSchema, me.subject);
    expect(events.map((e) => e.profile?.bio)).toEqual(["hello", ""]);
  });

  it.each([
    [{ nickname: "" }, "nickname must be 1 to 64 characters long"],
    [{ nickname: "n".repeat(65) }, "nickname must be 1 to 64 characters long"],
    [{ color: "red" }, "color must be a hex colour like #1a2b3c"],
    [{ bio: "b".repeat(501) }, "bio must be at most 500 characters long"],
    [{ avatarId: "Not A Slug" }, "avatarId must be an avatar slug (lower-case letters, digits, - and _)"],
    [{ profilePictureId: "nope" }, "profilePictureId must name one of the user's profilePicture images"],
  ])("UpdateProfile answers 400 for %j and changes nothing", async (change, message) => {
    const me = await newUser("Unchanged");
    await expect(
      connectErrorOf(h.rpc.updateProfile({ bio: "would change", ...change }, h.ctx("updateProfile", me))),
    ).resolves.toEqual({ code: Code.InvalidArgument, message });
    const { profile } = await h.rpc.getOwnProfile({}, h.ctx("getOwnProfile", me));
    expect(profile).toMatchObject({ nickname: "Unchanged", bio: "" });
  });

  it("UpdateProfile refuses another user's image and an image of the other kind", async () => {
    const me = await newUser();
    const other = await newUser();
    const theirs = (await upload(other)).image!;
    const cover = (await upload(me, "coverPicture")).image!;
    for (const id of [theirs.id, cover.id]) {
      await expect(
        connectErrorOf(h.rpc.updateProfile({ profilePictureId: id }, h.ctx("updateProfile", me))),
      ).resolves.toEqual({
        code: Code.InvalidArgument,
        message: "profilePictureId must name one of the user's profilePicture images",
      });
    }
  });

  it("AdminUpdateProfile changes another user's profile; 404 for an unknown uuid", async () => {
    const target = await newUser("Target");
    const admin = as(await newUser(), "admin");
    const { profile } = await h.rpc.adminUpdateProfile(
      { uuid: target.subject, nickname: "Renamed" },
      h.ctx("adminUpdateProfile", admin),
    );
    expect(profile).toMatchObject({ uuid: target.subject, nickname: "Renamed" });
    for (const uuid of [randomUUID(), "not-a-uuid"]) {
      await expect(
        connectErrorOf(h.rpc.adminUpdateProfile({ uuid, nickname: "x" }, h.ctx("adminUpdateProfile", admin))),
      ).resolves.toEqual({ code: Code.NotFound, message: PROFILE_NOT_FOUND });
    }
  });
});

describe("profiles for others", () => {
  it("GetServiceProfile answers a profile; 404 for unknown and malformed ids", async () => {
    const user = await newUser("Seen");
    const { profile } = await h.rpc.getServiceProfile({ id: user.subject }, h.ctx("getServiceProfile", service));
    expect(profile).toMatchObject({ uuid: user.subject, nickname: "Seen" });
    for (const id of [randomUUID(), "x"]) {
      await expect(
        connectErrorOf(h.rpc.getServiceProfile({ id }, h.ctx("getServiceProfile", service))),
      ).resolves.toEqual({ code: Code.NotFound, message: PROFILE_NOT_FOUND });
    }
  });

  it("GetProfiles keeps the query's order, leaves unknown uuids out and answers duplicates once", async () => {
    const a = await newUser("A");
    const b = await newUser("B");
    const { profiles } = await h.rpc.getProfiles(
      { users: [b.subject, randomUUID(), a.subject.toUpperCase(), b.subject] },
      h.ctx("getProfiles", a),
    );
    expect(profiles.map((p) => p.nickname)).toEqual(["B", "A"]);
  });

  it("GetProfiles answers 400 for more than 150 uuids, none, or one that is not a uuid", async () => {
    const a = await newUser();
    const cases: [string[], string][] = [
      [Array.from({ length: 151 }, () => randomUUID()), "users must name 1 to 150 uuids"],
      [[], "users must name 1 to 150 uuids"],
      [[a.subject, "nope"], 'users must be uuids: "nope"'],
    ];
    for (const [users, message] of cases) {
      await expect(connectErrorOf(h.rpc.getProfiles({ users }, h.ctx("getProfiles", a)))).resolves.toEqual({
        code: Code.InvalidArgument,
        message,
      });
    }
    const { profiles } = await h.rpc.getProfiles(
      { users: [a.subject, ...Array.from({ length: 149 }, () => randomUUID())] },
      h.ctx("getProfiles", a),
    );
    expect(profiles).toHaveLength(1);
  });
});

describe("GetServiceAccounts", () => {
  it("answers each known user's role and capabilities in the request's order, deactivated users too", async () => {
    const plain = await newUser();
    const staff = await newUser();
    const gone = await newUser();
    const em = h.orm.em.fork();
    await em.nativeUpdate(User, { id: staff.subject }, { role: "admin", capabilities: ["promoteRoom", "uploadMusic"] });
    em.create(Deactivation, { user: gone.subject, deactivatedAt: new Date() });
    await em.flush();
    const { accounts } = await h.rpc.getServiceAccounts(
      { users: [staff.subject.toUpperCase(), randomUUID(), gone.subject, plain.subject, staff.subject] },
      h.ctx("getServiceAccounts", service),
    );
    expect(accounts).toEqual([
      expect.objectContaining({ uuid: staff.subject, role: "admin", capabilities: ["promoteRoom", "uploadMusic"] }),
      expect.objectContaining({ uuid: gone.subject, role: "user", capabilities: [] }),
      expect.objectContaining({ uuid: plain.subject, role: "user", capabilities: [] }),
    ]);
  });

  it("answers 400 for more than 150 uuids, none, or one that is not a uuid", async () => {
    const cases: [string[], string][] = [
      [Array.from({ length: 151 }, () => randomUUID()), "users must name 1 to 150 uuids"],
      [[], "users must name 1 to 150 uuids"],
      [[randomUUID(), "nope"], 'users must be uuids: "nope"'],
    ];
    for (const [users, message] of cases) {
      await expect(
        connectErrorOf(h.rpc.getServiceAccounts({ users }, h.ctx("getServiceAccounts", service))),
      ).resolves.toEqual({ code: Code.InvalidArgument, message });
    }
  });
});

describe("GetUser", () => {
  it("shows the e-mail and password state only to the user, staff and services", async () => {
    const owner = await newUser("Owner");
    const stranger = await newUser();
    const em = h.orm.em.fork();
    em.create(PhoneNumber, { phoneNumber: `+1415555${String(Date.now()).slice(-4)}`, userId: owner.subject });
    await em.flush();
    const mine = (await h.rpc.getUser({ id: owner.subject }, h.ctx("getUser", owner))).user!;
    expect(mine.phoneNumbers).toHaveLength(1);
    expect(mine.email).toContain("@example.org");
    expect(mine.hasPassword).toBe(true);
    expect(mine.profile?.nickname).toBe("Owner");
    expect(mine.socials).toBeDefined();
    const theirs = (await h.rpc.getUser({ id: owner.subject }, h.ctx("getUser", stranger))).user!;
    expect(theirs).toMatchObject({ uuid: owner.subject, email: "", hasPassword: false, role: "user" });
    expect(theirs.phoneNumbers).toEqual([]);
    expect(theirs.emails).toEqual([]);
    expect(theirs.profile?.nickname).toBe("Owner");
    const staff = (await h.rpc.getUser({ id: owner.subject }, h.ctx("getUser", as(stranger, "moderator")))).user!;
    expect(staff.email).toBe(mine.email);
    expect(staff.phoneNumbers).toHaveLength(1);
    const svc = (await h.rpc.getServiceUserProfile({ id: owner.subject }, h.ctx("getServiceUserProfile", service)))
      .user!;
    expect(svc).toMatchObject({ uuid: owner.subject, email: mine.email, role: "user" });
    expect(svc.profile?.nickname).toBe("Owner");
  });

  it("answers 404 for unknown users", async () => {
    const me = await newUser();
    await expect(connectErrorOf(h.rpc.getUser({ id: randomUUID() }, h.ctx("getUser", me)))).resolves.toEqual({
      code: Code.NotFound,
      message: PROFILE_NOT_FOUND,
    });
    await expect(
      connectErrorOf(h.rpc.getServiceUserProfile({ id: "x" }, h.ctx("getServiceUserProfile", service))),
    ).resolves.toEqual({ code: Code.NotFound, message: PROFILE_NOT_FOUND });
  });
});

describe("user data, capabilities and socials", () => {
  it("GetServiceUserData answers a user's settings to services (the playlist service's search preferences)", async () => {
    const me = await newUser();
    expect(
      (await h.rpc.getServiceUserData({ id: me.subject }, h.ctx("getServiceUserData", service))).userData,
    ).toMatchObject({
      musicProviders: [],
      allowExplicitAudio: false,
    });
    await h.rpc.updateUserData(
      { userData: { musicProviders: ["apple", "spotify"], allowExplicitAudio: true } },
      h.ctx("updateUserData", me),
    );
    expect(
      (await h.rpc.getServiceUserData({ id: me.subject }, h.ctx("getServiceUserData", service))).userData,
    ).toMatchObject({
      musicProviders: ["apple", "spotify"],
      allowExplicitAudio: true,
    });
  });

  it("GetUserData answers the defaults until UpdateUserData writes every field", async () => {
    const me = await newUser();
    expect((await h.rpc.getUserData({}, h.ctx("getUserData", me))).userData).toMatchObject({
      musicProviders: [],
      allowExplicitAudio: false,
      audioQuality: "medium",
      language: "en",
    });
    const written = await h.rpc.updateUserData(
      {
        userData: {
          musicProviders: ["spotify", "youtube", "spotify"],
          allowExplicitAudio: true,
          audioQuality: "high",
          language: "es",
        },
      },
      h.ctx("updateUserData", me),
    );
    expect(written.userData).toMatchObject({ musicProviders: ["spotify", "youtube"], audioQuality: "high" });
    await h.rpc.updateUserData({ userData: { musicProviders: ["apple"] } }, h.ctx("updateUserData", me));
    expect((await h.rpc.getUserData({}, h.ctx("getUserData", me))).userData).toMatchObject({
      musicProviders: ["apple"],
      allowExplicitAudio: false,
      audioQuality: "medium",
      language: "en",
    });
  });

  it.each([
    [{ musicProviders: ["napster"] }, 'unknown music provider "napster"'],
    [{ audioQuality: "lossless" }, "audioQuality must be one of low, medium, high"],
    [{ language: "de" }, "language must be one of en, es"],
  ])("UpdateUserData answers 400 for %j", async (userData, message) => {
    const me = await newUser();
    const err = await connectErrorOf(h.rpc.updateUserData({ userData }, h.ctx("updateUserData", me)));
    expect(err.code).toBe(Code.InvalidArgument);
    expect(err.message).toContain(message);
  });

  it("GetCapabilities answers the caller's and every capability", async () => {
    const me = await newUser();
    const em = h.orm.em.fork();
    const user = await em.findOneOrFail(User, { id: me.subject });
    user.capabilities = ["uploadMusic"];
    await em.flush();
    expect(await h.rpc.getCapabilities({}, h.ctx("getCapabilities", me))).toMatchObject({
      capabilities: ["uploadMusic"],
      available: ["uploadMusic", "promoteRoom"],
    });
  });

  it("UpdateUserSocials sets present fields, clears with an empty string and shows them on the profile", async () => {
    const me = await newUser();
    const first = await h.rpc.updateUserSocials(
      { instagram: " @me ", website: "https://me.example" },
      h.ctx("updateUserSocials", me),
    );
    expect(first.socials).toMatchObject({ instagram: "@me", website: "https://me.example", discord: "" });
    const second = await h.rpc.updateUserSocials({ instagram: "", twitter: "me" }, h.ctx("updateUserSocials", me));
    expect(second.socials).toMatchObject({ instagram: "", twitter: "me", website: "https://me.example" });
    const { profile } = await h.rpc.getOwnProfile({}, h.ctx("getOwnProfile", me));
    expect(profile?.socials).toMatchObject({ twitter: "me", website: "https://me.example" });
  });

  it.each([
    [{ website: "javascript:alert(1)" }, "website must be an http or https URL"],
    [{ tiktok: "t".repeat(201) }, "tiktok must be at most 200 characters long"],
  ])("UpdateUserSocials answers 400 for %j", async (req, message) => {
    const me = await newUser();
    await expect(connectErrorOf(h.rpc.updateUserSocials(req, h.ctx("updateUserSocials", me)))).resolves.toEqual({
      code: Code.InvalidArgument,
      message,
    });
  });
});

describe("badges", () => {
  it("AddBadges keeps each once, RemoveBadges ignores missing ones, AdminChangeBadges replaces; each announced", async () => {
    const user = await newUser();
    const admin = as(await newUser(), "admin");
    expect(
      await h.rpc.addBadges({ uuid: user.subject, badges: ["VERIFIED", "JQBX"] }, h.ctx("addBadges", service)),
    ).toMatchObject({ badges: ["VERIFIED", "JQBX"] });
    expect(
      await h.rpc.addBadges({ uuid: user.subject, badges: ["JQBX", "STAFF"] }, h.ctx("addBadges", service)),
    ).toMatchObject({ badges: ["VERIFIED", "JQBX", "STAFF"] });
    expect(
      await h.rpc.removeBadges({ uuid: user.subject, badges: ["JQBX", "PLATINUM"] }, h.ctx("removeBadges", service)),
    ).toMatchObject({ badges: ["VERIFIED", "STAFF"] });
    expect(
      await h.rpc.adminChangeBadges(
        { uuid: user.subject, badges: ["DOUBLE_PLATINUM"] },
        h.ctx("adminChangeBadges", admin),
      ),
    ).toMatchObject({ badges: ["DOUBLE_PLATINUM"] });
    const { profile } = await h.rpc.getOwnProfile({}, h.ctx("getOwnProfile", user));
    expect(profile?.badges).toEqual(["DOUBLE_PLATINUM"]);
    const events = await eventsFor(UserUpdatedSchema, user.subject);
    expect(events.map((e) => e.badges)).toEqual([
      ["VERIFIED", "JQBX"],
      ["VERIFIED", "JQBX", "STAFF"],
      ["VERIFIED", "STAFF"],
      ["DOUBLE_PLATINUM"],
    ]);
  });

  it("answers 400 for an unknown badge and 404 for an unknown user", async () => {
    const user = await newUser();
    const err = await connectErrorOf(
      h.rpc.addBadges({ uuid: user.subject, badges: ["GOLD"] }, h.ctx("addBadges", service)),
    );
    expect(err).toEqual({
      code: Code.InvalidArgument,
      message: 'unknown badge "GOLD"; badges are VERIFIED, PLATINUM, DOUBLE_PLATINUM, JQBX, STAFF',
    });
    await expect(
      connectErrorOf(h.rpc.removeBadges({ uuid: randomUUID(), badges: ["STAFF"] }, h.ctx("removeBadges", service))),
    ).resolves.toEqual({ code: Code.NotFound, message: PROFILE_NOT_FOUND });
  });
});

describe("service profile lists", () => {
  it("ListAllUserProfiles pages by uuid; take 0 answers all", async () => {
    await newUser();
    await newUser();
    const all = await h.rpc.listAllUserProfiles({}, h.ctx("listAllUserProfiles", service));
    expect(all.profiles.length).toBe(all.total);
    const uuids = all.profiles.map((p) => p.uuid);
    expect(uuids).toEqual([...uuids].sort());
    const page = await h.rpc.listAllUserProfiles({ take: 1, skip: 1 }, h.ctx("listAllUserProfiles", service));
    expect(page.profiles.map((p) => p.uuid)).toEqual([uuids[1]]);
    expect(page.total).toBe(all.total);
    await expect(
      connectErrorOf(h.rpc.listAllUserProfiles({ take: 1001 }, h.ctx("listAllUserProfiles", service))),
    ).resolves.toEqual({ code: Code.InvalidArgument, message: "take must be 0 to 1000" });
  });

  it("ListUpdatedUserProfiles orders by last change and filters by updatedSince", async () => {
    const first = await newUser("first");
    const second = await newUser("second");
    const since = new Date();
    await h.rpc.updateProfile({ bio: "changed" }, h.ctx("updateProfile", first));
    const recent = await h.rpc.listUpdatedUserProfiles(
      { updatedSince: timestampFromDate(since) },
      h.ctx("listUpdatedUserProfiles", service),
    );
    expect(recent.profiles.map((p) => p.uuid)).toEqual([first.subject]);
    expect(recent.total).toBe(1);
    const all = await h.rpc.listUpdatedUserProfiles({ take: 1000 }, h.ctx("listUpdatedUserProfiles", service));
    const order = all.profiles.map((p) => p.uuid);
    expect(order.indexOf(second.subject)).toBeLessThan(order.indexOf(first.subject));
    expect(order.at(-1)).toBe(first.subject);
    const past = await h.rpc.listUpdatedUserProfiles(
      { take: 5, skip: all.total },
      h.ctx("listUpdatedUserProfiles", service),
    );
    expect(past).toMatchObject({ profiles: [], total: all.total });
    await expect(
      connectErrorOf(h.rpc.listUpdatedUserProfiles({ skip: -1 }, h.ctx("listUpdatedUserProfiles", service))),
    ).resolves.toEqual({ code: Code.InvalidArgument, message: "skip must not be negative" });
  });
});

describe("images", () => {
  it("UploadUserImage stores every size as WebP and makes it the current picture", async () => {
    const me = await newUser();
    const { image } = await upload(me);
    expect(image).toMatchObject({ userUuid: me.subject, kind: "profilePicture" });
    expect(image!.url).toBe(`https://cdn.test/m/images/${image!.id}/256.webp`);
    expect(image!.variants.map((v) => v.size)).toEqual([128, 256, 500, 1024]);
    expect((await readdir(join(mediaDir, "images", image!.id))).sort()).toEqual([
      "1024.webp",
      "128.webp",
      "256.webp",
      "500.webp",
    ]);
    const meta = await sharp(join(mediaDir, "images", image!.id, "128.webp")).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 128, height: 64 });
    // Never enlarged: the 600-pixel original stays 600 wide at 1024.
    expect((await sharp(join(mediaDir, "images", image!.id, "1024.webp")).metadata()).width).toBe(600);
    const { profile } = await h.rpc.getOwnProfile({}, h.ctx("getOwnProfile", me));
    expect(profile?.profilePicture?.id).toBe(image!.id);

    const second = (await upload(me)).image!;
    const after = (await h.rpc.getOwnProfile({}, h.ctx("getOwnProfile", me))).profile!;
    expect(after.profilePicture?.id).toBe(second.id);
    // The earlier picture is still the user's and may be chosen again.
    const back = await h.rpc.updateProfile({ profilePictureId: image!.id }, h.ctx("updateProfile", me));
    expect(back.profile?.profilePicture?.id).toBe(image!.id);
    const cleared = await h.rpc.updateProfile({ profilePictureId: "" }, h.ctx("updateProfile", me));
    expect(cleared.profile?.profilePicture).toBeUndefined();
  });

  it("accepts JPEG, WebP and GIF bytes whatever the declared type", async () => {
    const me = await newUser();
    const base = sharp({ create: { width: 40, height: 40, channels: 3, background: "#00ff00" } });
    for (const bytes of [
      await base.clone().jpeg().toBuffer(),
      await base.clone().webp().toBuffer(),
      await base.clone().gif().toBuffer(),
    ]) {
      const { image } = await h.rpc.uploadUserImage(
        { file: { content: new Uint8Array(bytes), contentType: "text/plain" }, kind: "coverPicture" },
        h.ctx("uploadUserImage", me),
      );
      expect(image?.kind).toBe("coverPicture");
    }
  });

  it.each([
    ["a kind that is none", "avatar", () => png(10, 10), "kind must be one of profilePicture, coverPicture"],
    ["no file", "profilePicture", async () => new Uint8Array(), "file is required"],
    [
      "bytes that are no image",
      "profilePicture",
      async () => new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"),
      "file must be a JPEG, PNG, WebP or GIF image",
    ],
    [
      "a PNG signature over garbage",
      "profilePicture",
      async () => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]),
      "the image could not be read",
    ],
  ])("UploadUserImage answers 400 for %s and stores nothing", async (_what, kind, bytes, message) => {
    const me = await newUser();
    const before = await readdir(join(mediaDir, "images")).catch(() => []);
    await expect(connectErrorOf(upload(me, kind, await bytes()))).resolves.toEqual({
      code: Code.InvalidArgument,
      message,
    });
    expect(await readdir(join(mediaDir, "images")).catch(() => [])).toEqual(before);
  });

  it("refuses files over MEDIA_MAX_IMAGE_BYTES", async () => {
    const small = await createUserHarness(inject("databaseUrl"), { MEDIA_DIR: mediaDir, MEDIA_MAX_IMAGE_BYTES: "100" });
    try {
      const res = await small.rpc.signUp({ email: "big@example.org", password: "long enough" }, small.ctx("signUp"));
      const me = await small.identityOf(res.accessToken!.token);
      const err = await connectErrorOf(
        small.rpc.uploadUserImage(
          { file: { content: await png(64, 64) }, kind: "profilePicture" },
          small.ctx("uploadUserImage", me),
        ),
      );
      expect(err).toEqual({ code: Code.InvalidArgument, message: "file must be at most 100 bytes" });
    } finally {
      await small.close();
    }
  });

  it("GetUserImage answers any image; 404 for unknown ids", async () => {
    const me = await newUser();
    const stranger = await newUser();
    const { image } = await upload(me, "coverPicture");
    const got = await h.rpc.getUserImage({ id: image!.id }, h.ctx("getUserImage", stranger));
    expect(got.image).toEqual(image);
    for (const id of [randomUUID(), "../etc"]) {
      await expect(connectErrorOf(h.rpc.getUserImage({ id }, h.ctx("getUserImage", me)))).resolves.toEqual({
        code: Code.NotFound,
        message: IMAGE_NOT_FOUND,
      });
    }
  });

  it("DeleteUserImage: 403 for another user, allowed for the owner and staff; files removed and profile cleared", async () => {
    const me = await newUser();
    const stranger = await newUser();
    const { image } = await upload(me);
    await expect(
      connectErrorOf(h.rpc.deleteUserImage({ id: image!.id }, h.ctx("deleteUserImage", stranger))),
    ).resolves.toEqual({ code: Code.PermissionDenied, message: UNAUTHORIZED_TO_DELETE });
    await h.rpc.deleteUserImage({ id: image!.id }, h.ctx("deleteUserImage", me));
    await expect(stat(join(mediaDir, "images", image!.id, "256.webp"))).rejects.toMatchObject({ code: "ENOENT" });
    expect((await h.rpc.getOwnProfile({}, h.ctx("getOwnProfile", me))).profile?.profilePicture).toBeUndefined();
    await expect(
      connectErrorOf(h.rpc.deleteUserImage({ id: image!.id }, h.ctx("deleteUserImage", me))),
    ).resolves.toEqual({ code: Code.NotFound, message: IMAGE_NOT_FOUND });

    const offensive = (await upload(me, "coverPicture")).image!;
    await h.rpc.deleteUserImage({ id: offensive.id }, h.ctx("deleteUserImage", as(stranger, "moderator")));
    await expect(connectErrorOf(h.rpc.getUserImage({ id: offensive.id }, h.ctx("getUserImage", me)))).resolves.toEqual({
      code: Code.NotFound,
      message: IMAGE_NOT_FOUND,
    });
  });
});

describe("GetProfile", () => {
  it("answers the public profile with the account's badges", async () => {
    const { user } = await h.rpc.signUp(
      { email: "profile@example.org", password: "long enough", nickname: "DJ Profile" },
      h.ctx("signUp"),
    );
    const em = h.orm.em.fork();
    const row = await em.findOneOrFail(User, { id: user!.uuid });
    row.badges = ["VERIFIED"];
    const profileRow = await em.findOneOrFail(Profile, { user: user!.uuid });
    profileRow.color = "#ff00aa";
    profileRow.bio = "spins records";
    await em.flush();

    const guest = await h.identityOf((await h.rpc.getGuestToken({}, h.ctx("getGuestToken"))).accessToken!.token);
    const { profile } = await h.rpc.getProfile({ id: user!.uuid.toUpperCase() }, h.ctx("getProfile", guest));
    expect(profile).toMatchObject({
      uuid: user!.uuid,
      nickname: "DJ Profile",
      color: "#ff00aa",
      bio: "spins records",
      avatarId: "",
      badges: ["VERIFIED"],
    });
    expect(timestampDate(profile!.createdAt!).getTime()).toBe(row.createdAt.getTime());
  });

  it.each([randomUUID(), "not-a-uuid", ""])("answers 404 for %j", async (id) => {
    await expect(connectErrorOf(h.rpc.getProfile({ id }, h.ctx("getProfile")))).resolves.toEqual({
      code: Code.NotFound,
      message: PROFILE_NOT_FOUND,
    });
  });
});
