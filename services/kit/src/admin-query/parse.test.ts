import { Code, ConnectError } from "@connectrpc/connect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatCondition } from "./format.ts";
import { COMPARISON_OPERATORS, LIST_OPERATORS, NULL_OPERATORS, SCALAR_OPERATORS } from "./operators.ts";
import { MAX_CONDITIONS, MAX_SEARCH_DEPTH, parseAdminQuery, parseCondition } from "./parse.ts";
import type { AdminListQuery, FieldCondition } from "./types.ts";

function invalid(query: AdminListQuery): string {
  try {
    parseAdminQuery(query);
  } catch (err) {
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.InvalidArgument);
    return (err as ConnectError).rawMessage;
  }
  throw new Error(`expected InvalidArgument for ${JSON.stringify(query)}`);
}

describe("parseAdminQuery: accepted input", () => {
  it("treats zero and empty values as absent", () => {
    expect(parseAdminQuery({ fields: "", s: "", filter: [], limit: 0, offset: 0, page: 0, cache: 0 })).toEqual({
      filter: [],
      or: [],
      sort: [],
      join: [],
    });
  });

  it.each<[string, string, FieldCondition]>([
    ["$eq", "name||$eq||x", { field: "name", operator: "$eq", value: "x" }],
    ["value containing ||", "name||$cont||a||b", { field: "name", operator: "$cont", value: "a||b" }],
    ["$in", "age||$in||1,2,3", { field: "age", operator: "$in", value: ["1", "2", "3"] }],
    ["$notinL", "n||$notinL||A", { field: "n", operator: "$notinL", value: ["A"] }],
    ["$between", "age||$between||1,5", { field: "age", operator: "$between", value: ["1", "5"] }],
    ["$isnull without value", "deletedAt||$isnull", { field: "deletedAt", operator: "$isnull" }],
    ["$notnull with empty value", "deletedAt||$notnull||", { field: "deletedAt", operator: "$notnull" }],
    [
      "SQL-looking value stays text",
      "name||$eq||x' OR 1=1 --",
      { field: "name", operator: "$eq", value: "x' OR 1=1 --" },
    ],
  ])("filter %s", (_name, raw, expected) => {
    expect(parseAdminQuery({ filter: [raw] }).filter).toEqual([expected]);
    expect(parseAdminQuery({ filter: [raw] }).where).toEqual(expected);
  });

  it("filters all hold", () => {
    const parsed = parseAdminQuery({ filter: ["a||$eq||1", "b||$eq||2"] });
    expect(parsed.where).toEqual({
      $and: [
        { field: "a", operator: "$eq", value: "1" },
        { field: "b", operator: "$eq", value: "2" },
      ],
    });
  });

  it("a single or is a plain condition, several ors are alternatives", () => {
    expect(parseAdminQuery({ or: ["a||$eq||1"] }).where).toEqual({ field: "a", operator: "$eq", value: "1" });
    expect(parseAdminQuery({ or: ["a||$eq||1", "b||$eq||2"] }).where).toEqual({
      $or: [
        { field: "a", operator: "$eq", value: "1" },
        { field: "b", operator: "$eq", value: "2" },
      ],
    });
  });

  it("filter and or combine as (all filters) OR (all ors), as nestjsx documents", () => {
    const a = { field: "a", operator: "$eq", value: "1" };
    const b = { field: "b", operator: "$eq", value: "2" };
    const c = { field: "c", operator: "$eq", value: "3" };
    const d = { field: "d", operator: "$eq", value: "4" };
    expect(parseAdminQuery({ filter: ["a||$eq||1"], or: ["c||$eq||3"] }).where).toEqual({ $or: [a, c] });
    expect(parseAdminQuery({ filter: ["a||$eq||1", "b||$eq||2"], or: ["c||$eq||3", "d||$eq||4"] }).where).toEqual({
      $or: [{ $and: [a, b] }, { $and: [c, d] }],
    });
  });

  it("s replaces filter and or, which are still validated", () => {
    const parsed = parseAdminQuery({ s: '{"name":"x"}', filter: ["a||$eq||1"], or: ["b||$eq||2"] });
    expect(parsed.where).toEqual({ field: "name", operator: "$eq", value: "x" });
    expect(invalid({ s: '{"name":"x"}', filter: ["a||$nope||1"] })).toBe('filter: unknown operator "$nope"');
  });

  it("parses s: values, null, operators, field $or, $and/$or groups", () => {
    const parsed = parseAdminQuery({
      s: JSON.stringify({
        name: { $contL: "ab", $ne: "abc" },
        age: { $or: { $lt: 10, $gt: 60 } },
        active: true,
        deletedAt: null,
        $or: [{ role: { $in: ["admin", "staff"] } }, { score: { $between: [1, 2] } }],
        $and: [{ x: { $notnull: true } }],
      }),
    });
    expect(parsed.search).toEqual({
      $and: [
        {
          $and: [
            { field: "name", operator: "$contL", value: "ab" },
            { field: "name", operator: "$ne", value: "abc" },
          ],
        },
        {
          $or: [
            { field: "age", operator: "$lt", value: 10 },
            { field: "age", operator: "$gt", value: 60 },
          ],
        },
        { field: "active", operator: "$eq", value: true },
        { field: "deletedAt", operator: "$isnull" },
        {
          $or: [
            { field: "role", operator: "$in", value: ["admin", "staff"] },
            { field: "score", operator: "$between", value: [1, 2] },
          ],
        },
        { field: "x", operator: "$notnull" },
      ],
    });
  });

  it("empty $and/$or groups mean no condition", () => {
    expect(parseAdminQuery({ s: '{"$and":[],"$or":[]}' }).where).toBeUndefined();
  });

  it("parses fields, sort, join, paging and cache", () => {
    expect(
      parseAdminQuery({
        fields: "id, name,name",
        sort: ["name,ASC", "age,desc"],
        join: ["profile", "avatar||slug,url"],
        limit: 10,
        offset: 5,
        page: 2,
        cache: 1,
      }),
    ).toEqual({
      fields: ["id", "name"],
      filter: [],
      or: [],
      sort: [
        { field: "name", order: "ASC" },
        { field: "age", order: "DESC" },
      ],
      join: [{ relation: "profile" }, { relation: "avatar", fields: ["slug", "url"] }],
      limit: 10,
      offset: 5,
      page: 2,
      cache: 1,
    });
  });
});

describe("parseAdminQuery: 400 messages", () => {
  it.each<[AdminListQuery, string]>([
    [{ filter: ["name||$foo||x"] }, 'filter: unknown operator "$foo"'],
    [{ or: ["name||eq||x"] }, 'or: unknown operator "eq"'],
    [{ filter: ["name"] }, 'filter: expected field||$operator||value, got "name"'],
    [{ filter: ["||$eq||x"] }, "filter: empty field name"],
    [{ filter: ["name||$eq"] }, 'filter: "$eq" on "name" needs a value'],
    [{ filter: ["name||$eq||"] }, 'filter: "$eq" on "name" needs a value'],
    [{ filter: ["name||$isnull||x"] }, 'filter: "$isnull" on "name" takes no value'],
    [{ filter: ["age||$in||1,,2"] }, 'filter: "$in" on "age" has an empty list item'],
    [{ filter: ["age||$between||1"] }, 'filter: "$between" on "age" needs exactly two values: low,high'],
    [{ filter: ["age||$between||1,2,3"] }, 'filter: "$between" on "age" needs exactly two values: low,high'],
    [{ s: "{nope" }, "s: not valid JSON"],
    [{ s: "[1]" }, "s: must be a JSON object"],
    [{ s: "null" }, "s: must be a JSON object"],
    [{ s: '{"$nor":[]}' }, 's: unknown operator "$nor"'],
    [{ s: '{"$or":{"a":1}}' }, 's: "$or" must be an array of objects'],
    [{ s: '{"a":{"$foo":1}}' }, 's: unknown operator "$foo"'],
    [{ s: '{"a":[1,2]}' }, 's: "a" must be a value or an object of operators'],
    [{ s: '{"a":{}}' }, 's: "a" has no operator'],
    [{ s: '{"a":{"$in":[]}}' }, 's: "$in" on "a" needs a non-empty array of values'],
    [{ s: '{"a":{"$between":[1]}}' }, 's: "$between" on "a" needs exactly two values: [low, high]'],
    [{ s: '{"a":{"$eq":null}}' }, 's: "$eq" on "a" needs a string, number or boolean'],
    [{ s: '{"a":{"$isnull":false}}' }, 's: "$isnull" on "a" takes true'],
    [{ s: '{"":1}' }, "s: empty field name"],
    [{ sort: ["name,UP"] }, "sort: direction must be ASC or DESC"],
    [{ sort: ["name"] }, 'sort: expected field,ASC or field,DESC, got "name"'],
    [{ sort: ["a,ASC", "a,DESC"] }, 'sort: field "a" given twice'],
    [{ join: [""] }, "join: empty relation name"],
    [{ join: ["a||x,"] }, 'join: empty field name for "a"'],
    [{ fields: "a,,b" }, "fields: empty field name"],
    [{ limit: 1001 }, "limit: must be an integer between 1 and 1000"],
    [{ limit: -1 }, "limit: must be an integer between 1 and 1000"],
    [{ limit: 1.5 }, "limit: must be an integer between 1 and 1000"],
    [{ offset: -3 }, "offset: must be an integer between 0 and 2147483647"],
    [{ page: -1 }, "page: must be an integer between 1 and 2147483647"],
    [{ cache: -1 }, "cache: must be an integer between 0 and 2147483647"],
  ])("%j → %s", (query, message) => {
    expect(invalid(query)).toBe(message);
  });

  it("limits nesting depth and the number of conditions", () => {
    let deep: unknown = { a: 1 };
    for (let i = 0; i < MAX_SEARCH_DEPTH; i++) deep = { $and: [deep] };
    expect(invalid({ s: JSON.stringify(deep) })).toBe(`s: nested deeper than ${MAX_SEARCH_DEPTH} levels`);
    const many = Array.from({ length: MAX_CONDITIONS + 1 }, (_, i) => `f${i}||$eq||1`);
    expect(invalid({ filter: many })).toBe(`filter: more than ${MAX_CONDITIONS} conditions`);
  });
});

// Values a filter can carry: non-empty, and for lists without the comma separator.
const text = fc.string({ minLength: 1, maxLength: 20 });
const item = text.filter((s) => !s.includes(","));
const field = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.]{0,15}$/);
const fieldCondition: fc.Arbitrary<FieldCondition> = fc.oneof(
  fc.record({ field, operator: fc.constantFrom(...SCALAR_OPERATORS), value: text }),
  fc.record({
    field,
    operator: fc.constantFrom(...LIST_OPERATORS),
    value: fc.array(item, { minLength: 1, maxLength: 5 }),
  }),
  fc.record({ field, operator: fc.constant("$between" as const), value: fc.tuple(item, item) }),
  fc.record({ field, operator: fc.constantFrom(...NULL_OPERATORS) }),
);

function assertOnlyInvalidArgument(run: () => unknown): void {
  let outcome: unknown;
  try {
    outcome = run();
  } catch (err) {
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.InvalidArgument);
    return;
  }
  expect(outcome).toBeTypeOf("object");
}

describe("parseAdminQuery: properties", () => {
  it("formatCondition and parseCondition round-trip every valid filter", () => {
    fc.assert(
      fc.property(fieldCondition, (condition) => {
        expect(parseCondition("filter", formatCondition(condition))).toEqual(condition);
      }),
    );
  });

  it("random filter, or, sort, join and fields strings throw nothing but InvalidArgument", () => {
    const piece = fc.oneof(fc.string(), fc.constantFrom(...COMPARISON_OPERATORS, "||", ",", "ASC", "DESC", "$", "a"));
    const raw = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(raw, raw, raw, raw, raw, (f, o, s, j, fields) => {
        assertOnlyInvalidArgument(() => parseAdminQuery({ filter: [f], or: [o], sort: [s], join: [j], fields }));
      }),
    );
  });

  it("random s (any string, any JSON) throws nothing but InvalidArgument", () => {
    const s = fc.oneof(
      fc.string(),
      fc.json(),
      fc
        .jsonValue()
        .map((v) => JSON.stringify({ a: v, $or: [{ b: v }], c: { $in: v, $between: v, $isnull: v, $eq: v } })),
    );
    fc.assert(
      fc.property(s, (search) => {
        assertOnlyInvalidArgument(() => parseAdminQuery({ s: search }));
      }),
    );
  });

  it("random numbers for paging throw nothing but InvalidArgument", () => {
    const n = fc.oneof(fc.integer(), fc.double());
    fc.assert(
      fc.property(n, n, n, n, (limit, offset, page, cache) => {
        assertOnlyInvalidArgument(() => parseAdminQuery({ limit, offset, page, cache }));
      }),
    );
  });
});
