import { Code } from "@connectrpc/connect";
import { AvatarService } from "@tt/proto/tt/merch/v1/avatar_service_pb";
import { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMerchHarness, PNG, refusal, type MerchHarness } from "../testing/merch-harness.ts";

let h: MerchHarness;
let admin: string;

beforeAll(async () => {
  h = await createMerchHarness();
  admin = (await h.user("admin")).token;
  const a = h.client(AvatarService, { token: admin });
  await a.createAvatar({
    slug: "free-cat",
    name: "Cat",
    image: { content: PNG, filename: "cat.png", contentType: "image/png" },
  });
  await a.createAvatar({ slug: "secret-dog", status: "PRIVATE" });
  await a.createAvatar({ slug: "discord-fox", discordOnly: true });
  await a.createAvatar({ slug: "gold-owl", tokenCost: 40 });
  await a.createAvatar({ slug: "sub-bee", status: "SUBSCRIBER_ONLY" });
});
afterAll(() => h?.close());

const avatars = (token?: string) => h.client(AvatarService, token ? { token } : {});

describe("avatars", () => {
  it("admins create avatars with an image in the object store; slugs are unique and checked", async () => {
    const cat = await avatars().listAllAvatars({});
    const free = cat.avatars.find((a) => a.slug === "free-cat")!;
    expect(free.imageUrl).toMatch(/^\/media\/merch\/avatars\/.+\.png$/);
    expect(await refusal(avatars(admin).createAvatar({ slug: "free-cat" }))).toMatchObject({
      code: Code.AlreadyExists,
      message: "avatar slug already exists",
    });
    expect((await refusal(avatars(admin).createAvatar({ slug: "Bad Slug" }))).code).toBe(Code.InvalidArgument);
    expect((await refusal(avatars(admin).createAvatar({ slug: "x", status: "GOLD" }))).code).toBe(Code.InvalidArgument);
    expect((await refusal(avatars(admin).createAvatar({ slug: "s-award", status: "SEASON_AWARD" }))).code).toBe(
      Code.InvalidArgument,
    );
    const u = await h.user();
    expect((await refusal(avatars(u.token).createAvatar({ slug: "mine" }))).code).toBe(Code.Unauthenticated);
    expect(cat.avatars.map((a) => a.slug)).not.toContain("secret-dog");
  });

  it("a user may choose free public avatars and assigned ones; not discordOnly without Discord, not subscriber ones", async () => {
    const u = await h.user();
    const mine = await avatars(u.token).listAvatars({});
    expect(mine.avatars.map((a) => a.slug).sort()).toEqual(["free-cat"]);
    expect((await avatars(u.token).getUserAvatar({ slug: "free-cat", uuid: u.uuid })).allowed).toBe(true);
    expect((await avatars(u.token).getUserAvatar({ slug: "discord-fox", uuid: u.uuid })).allowed).toBe(false);
    expect((await avatars(u.token).getUserAvatar({ slug: "sub-bee", uuid: u.uuid })).allowed).toBe(false);
    expect((await avatars(u.token).listSubscriberAvatars({})).subscriber).toBe(false);
    expect(await refusal(avatars(u.token).getAvatar({ slug: "secret-dog" }))).toMatchObject({
      code: Code.NotFound,
      message: "avatar not found",
    });
    const { assignment } = await avatars(admin).createAvatarAssignment({ slug: "secret-dog", userUuid: u.uuid });
    expect(assignment).toMatchObject({ type: "MANUAL", avatarSlug: "secret-dog", userUuid: u.uuid });
    expect((await avatars(u.token).getAvatar({ slug: "secret-dog" })).avatar!.slug).toBe("secret-dog");
    expect((await avatars(u.token).listAvatars({})).avatars.map((a) => a.slug).sort()).toEqual([
      "free-cat",
      "secret-dog",
    ]);
    expect(
      await refusal(avatars(admin).createAvatarAssignment({ slug: "secret-dog", userUuid: u.uuid })),
    ).toMatchObject({
      code: Code.AlreadyExists,
    });
    const other = await h.user();
    expect(
      (
        await refusal(
          avatars(other.token).deleteAvatarAssignment({ avatarAssignmentId: assignment!.avatarAssignmentId }),
        )
      ).code,
    ).toBe(Code.Unauthenticated);
    await avatars(admin).deleteAvatarAssignment({ avatarAssignmentId: assignment!.avatarAssignmentId });
    expect((await avatars(u.token).getUserAvatar({ slug: "free-cat", uuid: u.uuid })).assignment).toBeUndefined();
  });

  it("a user buys an avatar on sale with tokens once; not one that is not for sale; never for someone else", async () => {
    const u = await h.user();
    const t = h.client(TokenService, { token: u.token });
    const { account } = await t.createTokenAccount({});
    await h.client(TokenService, { token: admin }).grantTokens({ accountId: account!.id, tokens: 50, reason: "x" });
    const bought = await avatars(u.token).createAvatarAssignment({ slug: "gold-owl" });
    expect(bought.assignment!.type).toBe("PURCHASED");
    expect(bought.account!.balance).toBe(10);
    expect(await refusal(avatars(u.token).createAvatarAssignment({ slug: "gold-owl" }))).toMatchObject({
      code: Code.AlreadyExists,
    });
    expect(await refusal(avatars(u.token).createAvatarAssignment({ slug: "secret-dog" }))).toMatchObject({
      code: Code.PermissionDenied,
      message: "avatar is not for sale",
    });
    const other = await h.user();
    expect(
      (await refusal(avatars(u.token).createAvatarAssignment({ slug: "gold-owl", userUuid: other.uuid }))).code,
    ).toBe(Code.PermissionDenied);
    expect((await t.getSelfTokenAccount({})).account!.balance).toBe(10);
  });

  // Regression: a retried avatar purchase (the same Idempotency-Key and body) answered 409 "avatar already
  // assigned" instead of the first answer.
  it("a retried avatar purchase with the same Idempotency-Key answers the first answer and debits once", async () => {
    const u = await h.user();
    const t = h.client(TokenService, { token: u.token });
    const { account } = await t.createTokenAccount({});
    await h.client(TokenService, { token: admin }).grantTokens({ accountId: account!.id, tokens: 100, reason: "x" });
    const buy = (key: string, slug = "gold-owl") =>
      avatars(u.token).createAvatarAssignment({ slug }, { headers: { "idempotency-key": key } });
    const first = await buy("owl-1");
    expect(first.account!.balance).toBe(60);
    const again = await buy("owl-1");
    expect(again).toEqual(first);
    // Retries arriving together answer the same too.
    const together = await Promise.all([buy("owl-1"), buy("owl-1"), buy("owl-1")]);
    for (const answer of together) expect(answer).toEqual(first);
    expect((await t.getSelfTokenAccount({})).account!.balance).toBe(60);
    // Another key for an avatar already owned is still 409; the key with another body is 422.
    expect((await refusal(buy("owl-2"))).code).toBe(Code.AlreadyExists);
    expect(await refusal(buy("owl-1", "free-cat"))).toMatchObject({ code: Code.InvalidArgument, status: "422" });
    expect((await t.getSelfTokenAccount({})).account!.balance).toBe(60);
  });

  it("concurrent first purchases of one avatar with the same key debit once and answer alike", async () => {
    const u = await h.user();
    const t = h.client(TokenService, { token: u.token });
    const { account } = await t.createTokenAccount({});
    await h.client(TokenService, { token: admin }).grantTokens({ accountId: account!.id, tokens: 100, reason: "x" });
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        avatars(u.token).createAvatarAssignment({ slug: "gold-owl" }, { headers: { "idempotency-key": "k" } }),
      ),
    );
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]!.account!.balance).toBe(60);
    expect((await t.getSelfTokenAccount({})).account!.balance).toBe(60);
  });

  it("service lookup by slug, admin list with the query language, update and delete", async () => {
    const svc = await h.tokens.service("user");
    expect((await avatars(svc).getServiceAvatar({ avatarSlug: "secret-dog" })).avatar!.status).toBe("PRIVATE");
    const u = await h.user();
    expect((await refusal(avatars(u.token).getServiceAvatar({ avatarSlug: "free-cat" }))).code).toBe(
      Code.Unauthenticated,
    );
    const list = await avatars(admin).adminListAvatars({ query: { filter: ["status||$eq||PRIVATE"] } });
    expect(list.data.map((a) => a.slug)).toEqual(["secret-dog"]);
    await avatars(admin).updateAvatar({ slug: "secret-dog", status: "PUBLIC", name: "Dog" });
    expect((await avatars(admin).adminGetAvatar({ slug: "secret-dog" })).avatar).toMatchObject({
      status: "PUBLIC",
      name: "Dog",
    });
    await avatars(admin).adminDeleteAvatar({ slug: "secret-dog" });
    expect(await refusal(avatars(admin).adminGetAvatar({ slug: "secret-dog" }))).toMatchObject({ code: Code.NotFound });
    expect((await refusal(avatars(admin).deleteAvatar({ slug: "secret-dog" }))).code).toBe(Code.NotFound);
  });
});
