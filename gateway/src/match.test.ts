import { describe, expect, it } from "vitest";
import { createMatcher, MatchError, RouteConflictError, type MatcherEntry } from "./match.ts";
import { parseTemplate } from "./template/parse.ts";

const entry = (httpMethod: string, source: string): MatcherEntry<string> => ({
  httpMethod,
  template: parseTemplate(source),
  value: `${httpMethod} ${source}`,
  describe: `${httpMethod} ${source}`,
});

const table = [
  entry("GET", "/api/user-service"),
  entry("GET", "/api/rooms/{id}"),
  entry("GET", "/api/rooms/search"),
  entry("POST", "/api/rooms/search"),
  entry("DELETE", "/api/rooms/{id}"),
  entry("GET", "/api/rooms/{id}/users/{user}"),
  entry("GET", "/api/rooms/{id}/users/me"),
  entry("GET", "/api/files/{path=**}"),
  entry("GET", "/api/files/{bucket}/{path=**}"),
  entry("GET", "/api/files/fixed/readme"),
  entry("GET", "/api/{name=shelves/*}"),
  entry("POST", "/api/{name=shelves/*}:archive"),
  entry("GET", "/api/things:stream"),
  entry("GET", "/api/things/{id}"),
  entry("SEARCH", "/api/things"),
];
const matcher = createMatcher(table);

describe("createMatcher", () => {
  it.each([
    // literal beats variable, whatever the declaration order
    ["GET", "/api/rooms/search", "GET /api/rooms/search", []],
    ["GET", "/api/rooms/abc", "GET /api/rooms/{id}", ["abc"]],
    ["DELETE", "/api/rooms/search", "DELETE /api/rooms/{id}", ["search"]],
    ["GET", "/api/rooms/r1/users/me", "GET /api/rooms/{id}/users/me", ["r1"]],
    ["GET", "/api/rooms/r1/users/u2", "GET /api/rooms/{id}/users/{user}", ["r1", "u2"]],
    // * beats **, and a longer literal prefix wins
    ["GET", "/api/files/b/x", "GET /api/files/{bucket}/{path=**}", ["b", "x"]],
    ["GET", "/api/files/b/x/y/z", "GET /api/files/{bucket}/{path=**}", ["b", "x/y/z"]],
    ["GET", "/api/files/b", "GET /api/files/{bucket}/{path=**}", ["b", ""]],
    ["GET", "/api/files/fixed/readme", "GET /api/files/fixed/readme", []],
    ["GET", "/api/files/fixed/readme/more", "GET /api/files/{bucket}/{path=**}", ["fixed", "readme/more"]],
    // trailing slash ignored
    ["GET", "/api/user-service/", "GET /api/user-service", []],
    ["GET", "/api/rooms/abc/", "GET /api/rooms/{id}", ["abc"]],
    // variables over several segments, verbs
    ["GET", "/api/shelves/s1", "GET /api/{name=shelves/*}", ["shelves/s1"]],
    ["POST", "/api/shelves/s1:archive", "POST /api/{name=shelves/*}:archive", ["shelves/s1"]],
    ["GET", "/api/things:stream", "GET /api/things:stream", []],
    ["GET", "/api/things/a:b", "GET /api/things/{id}", ["a:b"]],
    ["SEARCH", "/api/things", "SEARCH /api/things", []],
    // a ":" is only a verb when some rule with that verb accepts the method; otherwise it is data
    ["GET", "/api/shelves/s1:archive", "GET /api/{name=shelves/*}", ["shelves/s1:archive"]],
    ["get", "/api/rooms/x", "GET /api/rooms/{id}", ["x"]],
    // percent-decoding: a single segment fully, "/" kept encoded in multi-segment values
    ["GET", "/api/rooms/a%20b%2Fc", "GET /api/rooms/{id}", ["a b/c"]],
    ["GET", "/api/rooms/caf%C3%A9", "GET /api/rooms/{id}", ["café"]],
    ["GET", "/api/files/b/a%2Fb/c%20d", "GET /api/files/{bucket}/{path=**}", ["b", "a%2Fb/c d"]],
    ["GET", "/api/rooms/%73earch", "GET /api/rooms/search", []],
  ])("%s %s → %s", (method, path, value, variables) => {
    const m = matcher.match(method, path);
    expect(m.value).toBe(value);
    expect(m.variables).toEqual(variables);
  });

  it.each([
    ["GET", "/nope", 404, []],
    ["GET", "/api", 404, []],
    ["GET", "/api/rooms", 404, []],
    ["GET", "/api/rooms/a/b", 404, []],
    ["GET", "/api/rooms//", 404, []],
    ["PUT", "/api/rooms/search", 405, ["DELETE", "GET", "POST"]],
    ["POST", "/api/rooms/x", 405, ["DELETE", "GET"]],
    ["PUT", "/api/shelves/s1:archive", 405, ["GET", "POST"]],
    ["POST", "/api/user-service/", 405, ["GET"]],
    ["GET", "/api/rooms/%E0%A4%A", 400, []],
  ])("%s %s → %i", (method, path, status, allow) => {
    let caught: unknown;
    try {
      matcher.match(method, path);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(MatchError);
    expect((caught as MatchError).status).toBe(status);
    expect((caught as MatchError).allow).toEqual(allow);
  });

  it("refuses two rules that answer the same requests", () => {
    expect(() => createMatcher([entry("GET", "/a/{x}"), entry("GET", "/a/{y}")])).toThrow(RouteConflictError);
    expect(() => createMatcher([entry("GET", "/a/{x}"), entry("POST", "/a/{y}")])).not.toThrow();
  });

  it("does not depend on the declaration order", () => {
    const reversed = createMatcher([...table].reverse());
    for (const path of ["/api/rooms/search", "/api/files/b/x", "/api/files/fixed/readme", "/api/rooms/r/users/me"]) {
      expect(reversed.match("GET", path).value).toBe(matcher.match("GET", path).value);
    }
  });
});
