import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { AvatarService } from "@tt/proto/tt/merch/v1/avatar_service_pb";
import { PointsService } from "@tt/proto/tt/merch/v1/points_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awardPoints } from "../modules/points/award.ts";
import { createMerchHarness, refusal, type MerchHarness } from "../testing/merch-harness.ts";

let h: MerchHarness;
let admin: string;
let service: string;
const DAY = 86_400_000;

beforeAll(async () => {
  h = await createMerchHarness();
  admin = (await h.user("admin")).token;
  service = await h.tokens.service("room");
});
afterAll(() => h?.close());

const points = (token?: string) => h.client(PointsService, token ? { token } : {});

describe("seasons", () => {
  it("admins create, rename and delete seasons; the current one is the latest started; next and prev by start", async () => {
    const a = points(admin);
    const old = await a.createSeason({
      seasonName: "S-old",
      seasonStart: timestampFromDate(new Date(Date.now() - 60 * DAY)),
    });
    const cur = await a.createSeason({
      seasonName: "S-cur",
      seasonStart: timestampFromDate(new Date(Date.now() - DAY)),
    });
    const next = await a.createSeason({
      seasonName: "S-next",
      seasonStart: timestampFromDate(new Date(Date.now() + 30 * DAY)),
    });
    expect(
      await refusal(a.createSeason({ seasonName: "S-cur", seasonStart: timestampFromDate(new Date()) })),
    ).toMatchObject({
      code: Code.AlreadyExists,
      message: "a season with this name or start already exists",
    });
    expect((await points().getCurrentSeason({})).season!.seasonName).toBe("S-cur");
    const start = cur.season!.seasonStart!;
    const iso = new Date(Number(start.seconds) * 1000 + start.nanos / 1e6).toISOString();
    expect((await points().getNextSeasonRanking({ seasonStart: iso })).season!.id).toBe(next.season!.id);
    expect((await points().getPrevSeasonRanking({ seasonStart: iso })).season!.id).toBe(old.season!.id);
    expect((await refusal(points().getPrevSeasonRanking({ seasonStart: "yesterday" }))).code).toBe(
      Code.InvalidArgument,
    );
    await a.updateSeason({ id: next.season!.id, seasonName: "S-future" });
    expect((await a.adminGetSeason({ id: next.season!.id })).season!.seasonName).toBe("S-future");
    expect((await a.adminListSeasons({ query: { sort: ["seasonName,ASC"] } })).data.map((s) => s.seasonName)).toEqual([
      "S-cur",
      "S-future",
      "S-old",
    ]);
    await a.deleteSeason({ id: next.season!.id });
    expect(await refusal(a.adminGetSeason({ id: next.season!.id }))).toMatchObject({
      code: Code.NotFound,
      message: "season not found",
    });
    const u = await h.user();
    expect((await refusal(points(u.token).createSeason({ seasonName: "x", seasonStart: start }))).code).toBe(
      Code.Unauthenticated,
    );
  });
});

describe("malformed times", () => {
  it("issue 15: a season start outside the years 1–9999 is a 400 naming the field, not a database error", async () => {
    const refused = await refusal(
      points(admin).createSeason({ seasonName: "far", seasonStart: { seconds: 10n ** 15n, nanos: 0 } }),
    );
    expect(refused).toMatchObject({ code: Code.InvalidArgument, message: expect.stringContaining("seasonStart") });
  });
});

describe("points and rankings", () => {
  it("service points apply once per eventId, to the current season and the lifetime ranking", async () => {
    const u = await h.user();
    const award = () => points(service).awardServicePoints({ userUuid: u.uuid, points: 5, eventId: `play-${u.uuid}` });
    expect((await award()).applied).toBe(true);
    const replay = await award();
    expect(replay.applied).toBe(false);
    const current = await points(u.token).getCurrentRankingStatus({});
    expect(current).toMatchObject({ hasCurrentRankingStatus: true, rankingStatus: { balance: 5, userUuid: u.uuid } });
    expect((await points(u.token).getRankingStatusSum({ userUuid: u.uuid })).sum).toBe(5n);
    const statuses = await points(u.token).getRankingStatuses({ userUuid: u.uuid });
    expect(statuses.rankingStatuses).toHaveLength(1);
    expect(statuses.lifetime!.balance).toBe(5);
    // Only services award points this way.
    expect(
      (await refusal(points(u.token).awardServicePoints({ userUuid: u.uuid, points: 5, eventId: "x" }))).code,
    ).toBe(Code.Unauthenticated);
  });

  it("a user without points has no current ranking status", async () => {
    const u = await h.user();
    const res = await points(u.token).getCurrentRankingStatus({});
    expect(res.hasCurrentRankingStatus).toBe(false);
    expect(res.rankingStatus).toBeUndefined();
  });

  it("admins handle points (negative too, never below zero); leaderboards page with take and skip", async () => {
    const users = await Promise.all([h.user(), h.user(), h.user()]);
    for (const [i, u] of users.entries()) {
      await points(admin).handlePoints({ userUuid: u.uuid, points: 100 + i * 10, eventId: `bonus-${u.uuid}` });
    }
    expect(
      await refusal(
        points(admin).handlePoints({ userUuid: users[0]!.uuid, points: -1000, eventId: `neg-${users[0]!.uuid}` }),
      ),
    ).toMatchObject({ code: Code.Aborted });
    await points(admin).handlePoints({ userUuid: users[0]!.uuid, points: -50 });
    const top = await points().getCurrentSeasonRanking({ take: 2 });
    expect(top.rankings.map((r) => r.userUuid)).toEqual([users[2]!.uuid, users[1]!.uuid]);
    expect(top.rankings.map((r) => r.rank)).toEqual([1, 2]);
    const page2 = await points().getSeasonRanking({ take: 2, skip: 2 });
    expect(page2.rankings[0]!.rank).toBe(3);
    expect((await points().getSeasonRankingByName({ seasonName: "S-cur", take: 1 })).rankings).toHaveLength(1);
    expect((await points().getAllSeasonsRanking({ take: 1 })).rankings[0]!.seasonId).toBe("");
    expect((await refusal(points().getSeasonRanking({ take: 101 }))).code).toBe(Code.InvalidArgument);
    const listed = await points(admin).adminListRankingStatuses({ userUuid: users[0]!.uuid });
    expect(listed.data.map((r) => r.balance)).toEqual([50]);
    expect((await points(admin).adminGetRankingStatus({ id: listed.data[0]!.id })).rankingStatus!.balance).toBe(50);
    const lifetime = await points(admin).adminListLifetimeRankingStatuses({ balance: 110 });
    expect(lifetime.data.every((r) => r.balance >= 110)).toBe(true);
    expect(
      (await points(admin).adminGetLifetimeRankingStatus({ id: lifetime.data[0]!.id })).rankingStatus,
    ).toBeDefined();
    expect(await refusal(points(admin).adminGetRankingStatus({ id: lifetime.data[0]!.id }))).toMatchObject({
      message: "ranking status not found",
    });
  });

  it("the backfill assigns achieved season avatars at most limit at a time and is safe to run twice", async () => {
    const season = (await points().getCurrentSeason({})).season!;
    const avatars = h.client(AvatarService, { token: admin });
    await avatars.createAvatar({ slug: "season-star", status: "SEASON_AWARD", seasonId: season.id, minPoints: 1000 });
    const users = await Promise.all([h.user(), h.user(), h.user()]);
    const em = h.orm.em.fork();
    for (const u of users) await awardPoints(em, { userUuid: u.uuid, points: 600, eventKey: `a-${u.uuid}` });
    // Created after the points: only the backfill assigns it.
    await avatars.updateAvatar({ slug: "season-star", minPoints: 500 });
    const first = await points(admin).backfillAchievedAvatars({ seasonId: season.id, limit: 2 });
    expect(first).toMatchObject({ assigned: 2, more: true });
    const second = await points(admin).backfillAchievedAvatars({ seasonId: season.id, limit: 2 });
    expect(second.assigned).toBeGreaterThanOrEqual(1);
    const third = await points(admin).backfillAchievedAvatars({ seasonId: season.id, limit: 2 });
    expect(third).toEqual(expect.objectContaining({ assigned: 0, more: false }));
    // Points that reach the threshold later assign it at once.
    const late = await h.user();
    await awardPoints(em, { userUuid: late.uuid, points: 500, eventKey: `late-${late.uuid}` });
    const mine = await h.client(AvatarService, { token: late.token }).listAvatars({});
    expect(mine.assignments.map((x) => [x.avatarSlug, x.type])).toEqual([["season-star", "SEASON_AWARD"]]);
  });
});
