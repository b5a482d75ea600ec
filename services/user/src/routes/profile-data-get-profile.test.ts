import { randomUUID } from "node:crypto";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Profile } from "../modules/profiles/profile.entity.ts";
import { User } from "../modules/users/user.entity.ts";
import { Code, connectErrorOf } from "../testing/expect-connect-error.ts";
import { createUserHarness, type UserHarness } from "../testing/user-harness.ts";
import { PROFILE_NOT_FOUND } from "../modules/profile-data/profile-rules.ts";

let h: UserHarness;

beforeAll(async () => {
  h = await createUserHarness(inject("databaseUrl"));
});

afterAll(async () => {
  await h?.close();
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
