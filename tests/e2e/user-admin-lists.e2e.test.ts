// The admin lists over REST through the gateway: their query is one shared message (tt.common.v1.AdminListQuery,
// flattened into the query string), yet the documented names stay top-level (spec 000 §7), on the wire and in
// /openapi.json; Connect callers set the nested message.
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, sharedPlatform, u, type TestPlatform } from "./support/platform.ts";

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await sharedPlatform();
  admin = await platform.adminToken();
});

const LISTS = [
  ["/admin/users", "AdminService_AdminListUsers"],
  ["/admin/phoneNumbers", "ContactService_AdminListPhoneNumbers"],
  ["/vouchers", "AccountService_ListVouchers"],
] as const;
const NAMES = ["fields", "s", "filter", "or", "sort", "join", "limit", "offset", "page", "cache"];

describe("admin list query names", () => {
  it("issue 10: s, filter, sort, fields, limit and page bind by their top-level names", async () => {
    const s = encodeURIComponent(JSON.stringify({ email: ADMIN.email }));
    const res = await platform.call("GET", u(`/admin/users?s=${s}&fields=email&sort=email,ASC&limit=5&page=1`), {
      token: admin,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 1, total: 1, page: 1, pageCount: 1 });
    expect((res.body.data as Array<{ email: string }>).map((x) => x.email)).toEqual([ADMIN.email]);

    const filtered = await platform.call("GET", u(`/admin/users?filter=email||$eq||${ADMIN.email}&or=role||$eq||x`), {
      token: admin,
    });
    expect(filtered.status).toBe(200);
    expect(filtered.body.total).toBe(1);
  });

  it.each(LISTS)("issue 10: %s answers the top-level names and refuses the nested field's path", async (path) => {
    const ok = await platform.call("GET", u(`${path}?limit=1&offset=0&cache=0`), { token: admin });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ page: 1 });
    const nested = await platform.call("GET", u(`${path}?query.limit=1`), { token: admin });
    expect(nested.status).toBe(400);
    expect(nested.body.message).toBe('unknown query parameter "query.limit"');
    const badLimit = await platform.call("GET", u(`${path}?limit=ten`), { token: admin });
    expect(badLimit.status).toBe(400);
    expect(String(badLimit.body.message)).toMatch(/^invalid value for limit: /);
  });

  it("issue 10: /openapi.json lists exactly the top-level names for every admin list", async () => {
    const doc = (await platform.call("GET", "/openapi.json")).body as {
      paths: Record<string, Record<string, { operationId: string; parameters?: Array<{ name: string; in: string }> }>>;
    };
    for (const [path, operationId] of LISTS) {
      const op = doc.paths[u(path)]?.get;
      expect(op?.operationId).toBe(operationId);
      const query = (op?.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
      expect(query.sort()).toEqual([...NAMES].sort());
    }
  });

  it("issue 10: a Connect caller sets the nested query message", async () => {
    const res = await fetch(`${platform.url}/tt.user.v1.AdminService/AdminListUsers`, {
      method: "POST",
      headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
      body: JSON.stringify({ query: { filter: [`email||$eq||${ADMIN.email}`], limit: 1 } }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Array<{ email: string }>; total: number };
    expect(body.total).toBe(1);
    expect(body.data.map((x) => x.email)).toEqual([ADMIN.email]);
  });
});
