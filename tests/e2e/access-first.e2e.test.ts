// Issue 23 findings 6 and 8 through the gateway, in both modes: the access decision (token present and valid, its
// type and role allowed by the method's tt.options.v1.access option) comes before the gateway reads a body or
// decodes input. Every REST operation that needs a token is called with no token and malformed input (a path
// variable of the wrong kind, an unknown query parameter, a body that is not JSON) and must answer 401, not the
// 400 of its input; a stranger's upload is refused before its body is sent.
import http from "node:http";
import { buildRouteTable } from "@tt/gateway";
import { accessRuleOf } from "@tt/kit";
import { serviceCatalog } from "@tt/gateway/catalog";
import { beforeAll, describe, expect, it } from "vitest";
import { MODES, sharedPlatform, type TestPlatform } from "./support/platform.ts";

const routes = buildRouteTable([{ services: Object.values(serviceCatalog).flat() }]).routes;
/** Every REST operation whose method takes no anonymous caller. */
const GUARDED = routes.filter((r) => !accessRuleOf(r.method)?.anonymous);

/** The rule's path with every variable filled with a value of the wrong kind for numbers, ids and enums. */
function malformedPath(pattern: string): string {
  return pattern.replace(/\{([^}=]+)(?:=([^}]*))?\}/g, (_all, _name: string, sub?: string) =>
    sub ? sub.replace(/\*\*?/g, "not-a-1") : "not-a-1",
  );
}

const UPLOAD = "/api/room-service/upload/song";

describe.each(MODES)("issue 23: access before input and before the body (%s)", (mode) => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await sharedPlatform(mode);
  }, 180_000);

  it("the sweep covers the operations that need a token, the reported one included", () => {
    expect(GUARDED.length).toBeGreaterThan(100);
    expect(GUARDED.map((r) => `${r.httpMethod} ${r.pattern}`)).toContain("GET /api/room-service/songs/{id}");
  });

  it("issue 23 finding 8: no token + malformed input is 401 on every operation that needs a token", async () => {
    const wrong: string[] = [];
    for (const route of GUARDED) {
      const path = `${malformedPath(route.pattern)}?no_such_parameter=1`;
      const hasBody = route.body !== "";
      const res = await fetch(platform.url + path, {
        method: route.httpMethod,
        ...(hasBody ? { headers: { "content-type": "application/json" }, body: "{" } : {}),
      });
      const text = await res.text();
      if (res.status !== 401) wrong.push(`${route.httpMethod} ${route.pattern}: ${res.status} ${text.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("issue 23 finding 8: a bad token + malformed input is 401 too", async () => {
    const res = await fetch(`${platform.url}/api/room-service/songs/not-a-number`, {
      headers: { authorization: "Bearer not.a.token" },
    });
    expect(res.status).toBe(401);
  });

  // The client declares a 31 MiB upload and sends nothing of it: only a gateway that decides before reading answers.
  const declaredUpload = (headers: Record<string, string>) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(platform.url + UPLOAD, {
        method: "POST",
        headers: {
          ...headers,
          "content-type": "multipart/form-data; boundary=x",
          "content-length": String(31 * 1024 * 1024),
        },
      });
      req.once("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.once("end", () => {
          resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() });
          req.destroy();
        });
      });
      req.once("error", reject);
      req.flushHeaders();
    });

  it.each([
    ["no token", {}],
    ["a bad token", { authorization: "Bearer not.a.token" }],
  ])("issue 23 finding 6: an upload with %s is refused before its body is read", async (_what, headers) => {
    expect((await declaredUpload(headers)).status).toBe(401);
  });

  it("issue 23 finding 6: a guest's upload (a token type the method does not take) is refused before its body", async () => {
    const guest = await platform.craft({ typ: "guest", role: "guest" });
    expect((await declaredUpload({ authorization: `Bearer ${guest}` })).status).toBe(401);
  });

  it("issue 23 finding 6: a signed-in user without the uploadMusic capability is refused before the body", async () => {
    const { token } = await platform.signUp();
    const answer = await declaredUpload({ authorization: `Bearer ${token}` });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({
      statusCode: 403,
      message: "Uploading music requires the uploadMusic capability",
    });
  });
});
