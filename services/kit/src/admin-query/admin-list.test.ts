import { randomBytes } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import { wrap } from "@mikro-orm/core";
import { MikroORM } from "@mikro-orm/postgresql";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { adminList, type AdminListSpec } from "./admin-list.ts";
import { COMPARISON_OPERATORS } from "./operators.ts";
import { AqArtist, AqTrack } from "./test-entities.ts";
import type { AdminListQuery } from "./types.ts";

const databaseName = `tt_aq_${randomBytes(6).toString("hex")}`;
let admin: MikroORM;
let orm: MikroORM;

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

// Seven tracks, plays 10..70 so the default sort (plays ASC) gives a known order.
const TRACKS = [
  {
    n: 1,
    title: "Alpha",
    plays: 10,
    rating: 4.5,
    explicit: false,
    released: "2024-01-01",
    status: "verified",
    artist: 1,
  },
  { n: 2, title: "beta", plays: 20, rating: null, explicit: true, released: "2024-02-01", status: "draft", artist: 1 },
  { n: 3, title: "Gamma Ray", plays: 30, rating: 3, explicit: false, released: null, status: "verified", artist: 2 },
  {
    n: 4,
    title: "50% off",
    plays: 40,
    rating: 1,
    explicit: true,
    released: "2024-04-01",
    status: "rejected",
    artist: null,
  },
  {
    n: 5,
    title: "under_score",
    plays: 50,
    rating: 2,
    explicit: false,
    released: "2024-05-01",
    status: "draft",
    artist: 3,
  },
  {
    n: 6,
    title: "x' OR 1=1 --",
    plays: 60,
    rating: 5,
    explicit: false,
    released: "2024-06-01",
    status: "verified",
    artist: 2,
  },
  { n: 7, title: "ALPHABET", plays: 70, rating: null, explicit: true, released: null, status: "verified", artist: 3 },
] as const;
const ALL = TRACKS.map((t) => t.title);
const except = (...titles: string[]) => ALL.filter((t) => !titles.includes(t));

const spec: AdminListSpec<AqTrack> = {
  entity: AqTrack,
  fields: {
    id: "id",
    title: "title",
    plays: "plays",
    rating: "rating",
    explicit: "explicit",
    releasedAt: "releasedAt",
    status: "status",
    artistId: "artist",
    artistName: "artist.name",
    downloads: "downloads",
    price: "price",
    day: "day",
    tags: "tags",
  },
  relations: { artist: "artist" },
  defaultSort: [["plays", "ASC"]],
};

beforeAll(async () => {
  const url = inject("databaseUrl");
  admin = await MikroORM.init({ clientUrl: url, entities: [], discovery: { warnWhenNoEntities: false } });
  await admin.em.getConnection().execute(`CREATE DATABASE ${databaseName}`);
  const own = new URL(url);
  own.pathname = `/${databaseName}`;
  orm = await MikroORM.init({ clientUrl: own.toString(), entities: [AqArtist, AqTrack] });
  await orm.schema.create();
  const em = orm.em.fork();
  const artists = [
    em.create(AqArtist, { id: 1, name: "Ana", country: "SE" }),
    em.create(AqArtist, { id: 2, name: "Bo", country: null }),
    em.create(AqArtist, { id: 3, name: "Ça Va", country: "FR" }),
  ];
  for (const t of TRACKS) {
    em.create(AqTrack, {
      id: uuid(t.n),
      title: t.title,
      plays: t.plays,
      rating: t.rating,
      explicit: t.explicit,
      releasedAt: t.released ? new Date(`${t.released}T00:00:00Z`) : null,
      status: t.status,
      secret: `secret ${t.n}`,
      downloads: BigInt(t.n) * 10_000_000_000n,
      price: `${t.n}.${t.n}0`,
      day: `2025-0${t.n}-0${t.n}`,
      tags: [`tag${t.n}`],
      artist: t.artist ? artists[t.artist - 1]! : null,
    });
  }
  await em.flush();
});

afterAll(async () => {
  await orm?.close();
  await admin?.em.getConnection().execute(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  await admin?.close();
});

function list(query: AdminListQuery, s: AdminListSpec<AqTrack> = spec) {
  return adminList(orm.em.fork(), s, { limit: 100, ...query });
}

async function titles(query: AdminListQuery): Promise<string[]> {
  return (await list(query)).data.map((t) => t.title);
}

async function rejection(query: AdminListQuery): Promise<string> {
  const err = await list(query).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConnectError);
  expect((err as ConnectError).code).toBe(Code.InvalidArgument);
  return (err as ConnectError).rawMessage;
}

describe("adminList: every operator against PostgreSQL", () => {
  it.each<[string, string[]]>([
    ["title||$eq||Alpha", ["Alpha"]],
    ["title||$ne||Alpha", except("Alpha")],
    ["plays||$gt||50", ["x' OR 1=1 --", "ALPHABET"]],
    ["plays||$lt||20", ["Alpha"]],
    ["plays||$gte||60", ["x' OR 1=1 --", "ALPHABET"]],
    ["plays||$lte||20", ["Alpha", "beta"]],
    ["title||$starts||Al", ["Alpha"]],
    ["title||$ends||Ray", ["Gamma Ray"]],
    ["title||$cont||ph", ["Alpha"]],
    ["title||$excl||a", ["50% off", "under_score", "x' OR 1=1 --", "ALPHABET"]],
    ["title||$eqL||alpha", ["Alpha"]],
    ["title||$neL||alpha", except("Alpha")],
    ["title||$startsL||alpha", ["Alpha", "ALPHABET"]],
    ["title||$endsL||BET", ["ALPHABET"]],
    ["title||$contL||PH", ["Alpha", "ALPHABET"]],
    ["title||$exclL||A", ["50% off", "under_score", "x' OR 1=1 --"]],
    ["plays||$in||10,30", ["Alpha", "Gamma Ray"]],
    ["plays||$notin||10,30", except("Alpha", "Gamma Ray")],
    ["title||$inL||ALPHA,BETA", ["Alpha", "beta"]],
    ["title||$notinL||alpha,beta", except("Alpha", "beta")],
    ["plays||$between||20,40", ["beta", "Gamma Ray", "50% off"]],
    ["rating||$isnull", ["beta", "ALPHABET"]],
    ["rating||$notnull", except("beta", "ALPHABET")],
    ["rating||$gt||2.5", ["Alpha", "Gamma Ray", "x' OR 1=1 --"]],
    ["explicit||$eq||true", ["beta", "50% off", "ALPHABET"]],
    ["explicit||$eq||0", except("beta", "50% off", "ALPHABET")],
    ["releasedAt||$gte||2024-04-01", ["50% off", "under_score", "x' OR 1=1 --"]],
    ["releasedAt||$lt||2024-02-01T00:00:00Z", ["Alpha"]],
    ["status||$eq||draft", ["beta", "under_score"]],
    ["status||$in||draft,rejected", ["beta", "50% off", "under_score"]],
    [`id||$eq||${uuid(3)}`, ["Gamma Ray"]],
    ["artistId||$eq||2", ["Gamma Ray", "x' OR 1=1 --"]],
    ["artistId||$isnull", ["50% off"]],
    ["artistName||$eq||Ana", ["Alpha", "beta"]],
    ["artistName||$startsL||ça", ["under_score", "ALPHABET"]],
    ["downloads||$gt||60000000000", ["ALPHABET"]],
    ["price||$between||2.2,3.30", ["beta", "Gamma Ray"]],
    ["price||$eq||1.1", ["Alpha"]],
    ["day||$gte||2025-06-06", ["x' OR 1=1 --", "ALPHABET"]],
    ["day||$eq||2025-01-01", ["Alpha"]],
  ])("filter=%s", async (filter, expected) => {
    expect(await titles({ filter: [filter] })).toEqual(expected);
  });

  it("treats LIKE wildcards in values literally", async () => {
    expect(await titles({ filter: ["title||$cont||%"] })).toEqual(["50% off"]);
    expect(await titles({ filter: ["title||$cont||_"] })).toEqual(["under_score"]);
    expect(await titles({ filter: ["title||$contL||\\"] })).toEqual([]);
    expect(await titles({ filter: ["title||$eqL||_lpha"] })).toEqual([]);
  });

  it("keeps SQL-injection-looking values literal", async () => {
    expect(await titles({ filter: ["title||$eq||x' OR 1=1 --"] })).toEqual(["x' OR 1=1 --"]);
    expect(await titles({ filter: ["title||$eq||' OR '1'='1"] })).toEqual([]);
    expect(await titles({ s: JSON.stringify({ title: "'; DROP TABLE aq_track; --" }) })).toEqual([]);
    expect(await titles({ or: ["title||$cont||') OR ('1'='1"] })).toEqual([]);
    expect((await list({})).total).toBe(TRACKS.length);
  });
});

describe("adminList: and/or combination", () => {
  it("all filters must hold", async () => {
    expect(await titles({ filter: ["explicit||$eq||true", "plays||$gt||30"] })).toEqual(["50% off", "ALPHABET"]);
  });

  it("one or is a plain condition; several ors are alternatives", async () => {
    expect(await titles({ or: ["title||$eq||beta"] })).toEqual(["beta"]);
    expect(await titles({ or: ["title||$eq||Alpha", "title||$eq||beta"] })).toEqual(["Alpha", "beta"]);
  });

  it("filter with or is (all filters) OR (all ors)", async () => {
    expect(await titles({ filter: ["title||$eq||Alpha"], or: ["title||$eq||beta"] })).toEqual(["Alpha", "beta"]);
    expect(
      await titles({
        filter: ["explicit||$eq||true", "plays||$gt||30"],
        or: ["status||$eq||draft", "plays||$lt||30"],
      }),
    ).toEqual(["beta", "50% off", "ALPHABET"]);
  });

  it("s with $and, $or, field $or and several keys", async () => {
    expect(await titles({ s: '{"$or":[{"plays":{"$lt":20}},{"plays":{"$gt":60}}]}' })).toEqual(["Alpha", "ALPHABET"]);
    expect(await titles({ s: '{"title":{"$contL":"a"},"explicit":false}' })).toEqual(["Alpha", "Gamma Ray"]);
    expect(await titles({ s: '{"plays":{"$or":{"$eq":10,"$gte":70}}}' })).toEqual(["Alpha", "ALPHABET"]);
    expect(await titles({ s: '{"$and":[{"rating":null},{"$or":[{"status":"draft"},{"title":"ALPHABET"}]}]}' })).toEqual(
      ["beta", "ALPHABET"],
    );
  });

  it("s replaces filter and or", async () => {
    expect(await titles({ s: '{"title":"Alpha"}', filter: ["title||$eq||beta"], or: ["plays||$gt||1"] })).toEqual([
      "Alpha",
    ]);
  });
});

describe("adminList: sort, paging, fields, join, cache", () => {
  it("sorts by the request, then by the default", async () => {
    expect(await titles({ sort: ["explicit,DESC", "plays,DESC"] })).toEqual([
      "ALPHABET",
      "50% off",
      "beta",
      "x' OR 1=1 --",
      "under_score",
      "Gamma Ray",
      "Alpha",
    ]);
    expect(await titles({ sort: ["artistName,ASC", "title,ASC"], filter: ["artistId||$notnull"] })).toEqual([
      "Alpha",
      "beta",
      "Gamma Ray",
      "x' OR 1=1 --",
      "ALPHABET",
      "under_score",
    ]);
    expect(await titles({ limit: 0 })).toEqual(ALL);
  });

  it("computes count, total, page and pageCount", async () => {
    const first = await list({ limit: 3 });
    expect({ ...first, data: first.data.map((t) => t.title) }).toEqual({
      data: ["Alpha", "beta", "Gamma Ray"],
      count: 3,
      total: 7,
      page: 1,
      pageCount: 3,
    });
    const last = await list({ limit: 3, page: 3 });
    expect([last.data.map((t) => t.title), last.count, last.page, last.pageCount]).toEqual([["ALPHABET"], 1, 3, 3]);
    const byOffset = await list({ limit: 3, offset: 4 });
    expect([byOffset.data.map((t) => t.title), byOffset.page]).toEqual([
      ["under_score", "x' OR 1=1 --", "ALPHABET"],
      2,
    ]);
    const pageWins = await list({ limit: 3, page: 2, offset: 6 });
    expect([pageWins.data.map((t) => t.title), pageWins.page]).toEqual([["50% off", "under_score", "x' OR 1=1 --"], 2]);
    const beyond = await list({ limit: 3, page: 9 });
    expect([beyond.count, beyond.total, beyond.page, beyond.pageCount]).toEqual([0, 7, 9, 3]);
    const none = await list({ filter: ["plays||$gt||1000"] });
    expect(none).toEqual({ data: [], count: 0, total: 0, page: 1, pageCount: 1 });
  });

  it("lowers limits above maxLimit and uses defaultLimit when none is given", async () => {
    const clamped = await list({ limit: 50 }, { ...spec, maxLimit: 5 });
    expect([clamped.count, clamped.pageCount]).toEqual([5, 2]);
    const byDefault = await adminList(orm.em.fork(), { ...spec, defaultLimit: 2 }, {});
    expect([byDefault.count, byDefault.pageCount]).toEqual([2, 4]);
  });

  it("returns only the requested fields and always the primary key", async () => {
    const { data } = await list({ fields: "title", filter: ["title||$eq||Alpha"] });
    expect(data).toHaveLength(1);
    expect(data[0]!.id).toBe(uuid(1));
    expect(data[0]!.title).toBe("Alpha");
    expect(data[0]!.plays).toBeUndefined();
    expect(data[0]!.secret).toBeUndefined();
  });

  it("joins allowed relations, whole or with chosen fields", async () => {
    const plain = await list({ filter: ["title||$eq||Alpha"] });
    expect(wrap(plain.data[0]!.artist!).isInitialized()).toBe(false);
    const whole = await list({ filter: ["title||$eq||Alpha"], join: ["artist"] });
    expect([whole.data[0]!.artist!.name, whole.data[0]!.artist!.country]).toEqual(["Ana", "SE"]);
    const some = await list({ filter: ["title||$eq||Alpha"], join: ["artist||name"] });
    expect([some.data[0]!.artist!.name, some.data[0]!.artist!.country, some.data[0]!.plays]).toEqual([
      "Ana",
      undefined,
      10,
    ]);
  });

  it("ANDs a server-side scope with the request, which cannot widen it", async () => {
    const scoped = (query: AdminListQuery) =>
      adminList(orm.em.fork(), spec, query, { artist: 2 }).then((p) => p.data.map((t) => t.title));
    expect(await scoped({})).toEqual(["Gamma Ray", "x' OR 1=1 --"]);
    expect(await scoped({ or: ["title||$eq||Alpha", "title||$eq||Gamma Ray"] })).toEqual(["Gamma Ray"]);
  });

  it("treats a spec naming a missing property as a server bug, not a 400", async () => {
    const broken: AdminListSpec<AqTrack> = { ...spec, fields: { ...spec.fields, ghost: "nothing" } };
    const err = await list({ filter: ["ghost||$eq||x"] }, broken).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(ConnectError);
    expect((err as Error).message).toBe('admin list spec: AqTrack has no property path "nothing"');
  });

  it("pages by root rows when a to-many relation is joined", async () => {
    const artists: AdminListSpec<AqArtist> = {
      entity: AqArtist,
      fields: { id: "id", name: "name" },
      relations: { tracks: "tracks" },
      defaultSort: [["name", "ASC"]],
    };
    const page = await adminList(orm.em.fork(), artists, { join: ["tracks||title"], limit: 2 });
    expect([page.count, page.total, page.pageCount]).toEqual([2, 3, 2]);
    expect(
      page.data.map((a) => [
        a.name,
        a.tracks
          .getItems()
          .map((t) => t.title)
          .sort(),
      ]),
    ).toEqual([
      ["Ana", ["Alpha", "beta"]],
      ["Bo", ["Gamma Ray", "x' OR 1=1 --"]],
    ]);
  });

  it("accepts cache and answers the same", async () => {
    expect(await titles({ cache: 1, filter: ["plays||$lt||30"] })).toEqual(["Alpha", "beta"]);
  });
});

describe("adminList: 400 messages", () => {
  it.each<[AdminListQuery, string]>([
    [{ filter: ["secret||$eq||x"] }, 'filter: unknown field "secret"'],
    [{ or: ["secret||$eq||x"] }, 'or: unknown field "secret"'],
    [{ s: '{"secret":"x"}' }, 's: unknown field "secret"'],
    [{ sort: ["secret,ASC"] }, 'sort: unknown field "secret"'],
    [{ fields: "title,secret" }, 'fields: unknown field "secret"'],
    [{ filter: ["constructor||$eq||x"] }, 'filter: unknown field "constructor"'],
    [{ join: ["label"] }, 'join: unknown relation "label"'],
    [{ join: ["artist||nope"] }, 'join: unknown field "nope" of "artist"'],
    [{ join: ["artist||toString"] }, 'join: unknown field "toString" of "artist"'],
    [{ filter: ["plays||$eq||abc"] }, 'filter: "plays" needs an integer, got "abc"'],
    [{ filter: ["plays||$eq||1.5"] }, 'filter: "plays" needs an integer, got "1.5"'],
    [
      { filter: ["plays||$eq||99999999999"] },
      'filter: "plays" needs an integer between -2147483648 and 2147483647, got "99999999999"',
    ],
    [{ s: '{"plays":true}' }, 's: "plays" needs an integer, got true'],
    [{ filter: ["rating||$gt||1e400"] }, 'filter: "rating" needs a number, got "1e400"'],
    [{ filter: ["rating||$gt||0x10"] }, 'filter: "rating" needs a number, got "0x10"'],
    [{ filter: ["explicit||$eq||maybe"] }, 'filter: "explicit" needs true or false, got "maybe"'],
    [{ filter: ["releasedAt||$lt||yesterday"] }, 'filter: "releasedAt" needs an ISO 8601 date, got "yesterday"'],
    [{ filter: ["releasedAt||$lt||2024-13-45"] }, 'filter: "releasedAt" needs an ISO 8601 date, got "2024-13-45"'],
    [{ filter: ["id||$eq||42"] }, 'filter: "id" needs a UUID, got "42"'],
    [{ filter: ["artistId||$eq||x"] }, 'filter: "artistId" needs an integer, got "x"'],
    [{ filter: ["status||$eq||gone"] }, 'filter: "status" needs one of draft, verified, rejected, got "gone"'],
    [{ filter: ["plays||$cont||1"] }, 'filter: "$cont" needs a text field, "plays" is not one'],
    [{ filter: ["id||$startsL||0"] }, 'filter: "$startsL" needs a text field, "id" is not one'],
    [{ filter: ["title||$eq||a\u0000b"] }, 'filter: "title" needs text without NUL characters, got "a\\u0000b"'],
    [{ filter: ["plays||$between||1,x"] }, 'filter: "plays" needs an integer, got "x"'],
    [
      { filter: ["downloads||$eq||9223372036854775808"] },
      'filter: "downloads" needs an integer between -9223372036854775808 and 9223372036854775807, got "9223372036854775808"',
    ],
    [{ filter: ["price||$eq||1,5"] }, 'filter: "price" needs a number, got "1,5"'],
    [{ filter: ["day||$eq||2024-02-30"] }, 'filter: "day" needs a date (YYYY-MM-DD), got "2024-02-30"'],
    [{ filter: ["day||$eq||2024-02-03T10:00"] }, 'filter: "day" needs a date (YYYY-MM-DD), got "2024-02-03T10:00"'],
    [{ filter: ["tags||$eq||x"] }, 'filter: "tags" cannot be compared'],
    [{ limit: 1001 }, "limit: must be an integer between 1 and 1000"],
  ])("%j → %s", async (query, message) => {
    expect(await rejection(query)).toBe(message);
  });
});

describe("adminList: properties against PostgreSQL", () => {
  // Whatever a caller sends, the answer is a page or a 400: never a database error surfacing as a 500.
  it("random values for every field and operator give a page or InvalidArgument", async () => {
    const value = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom("1", "-1", "0", "1.5", "1e400", "true", "2024-01-01", "2024-02-30", "9".repeat(25), uuid(1)),
      fc.array(fc.constantFrom("1", "x", "", "2024-01-01"), { maxLength: 3 }).map((a) => a.join(",")),
    );
    const filter = fc
      .tuple(fc.constantFrom(...Object.keys(spec.fields)), fc.constantFrom(...COMPARISON_OPERATORS), value)
      .map(([field, op, v]) => `${field}||${op}||${v}`);
    const search = fc
      .tuple(fc.constantFrom(...Object.keys(spec.fields)), fc.constantFrom(...COMPARISON_OPERATORS), fc.jsonValue())
      .map(([field, op, v]) => JSON.stringify({ [field]: { [op]: v } }));
    await fc.assert(
      fc.asyncProperty(
        fc.array(filter, { maxLength: 3 }),
        fc.array(filter, { maxLength: 2 }),
        fc.option(search),
        async (f, o, s) => {
          const outcome = await list({ filter: f, or: o, ...(s ? { s } : {}) }).then(
            (page) => page,
            (e: unknown) => e,
          );
          if (outcome instanceof ConnectError) expect(outcome.code).toBe(Code.InvalidArgument);
          else expect(outcome).toMatchObject({ page: 1 });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("$cont and $contL match exactly the titles containing the value, wildcards and quotes included", async () => {
    const chars = fc.constantFrom(..."AaLlPpHh%_\\' O=1-x".split(""));
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: chars, minLength: 1, maxLength: 3 }), async (v) => {
        expect(await titles({ filter: [`title||$cont||${v}`] })).toEqual(ALL.filter((t) => t.includes(v)));
        expect(await titles({ filter: [`title||$contL||${v}`] })).toEqual(
          ALL.filter((t) => t.toLowerCase().includes(v.toLowerCase())),
        );
      }),
      { numRuns: 200 },
    );
  });
});
