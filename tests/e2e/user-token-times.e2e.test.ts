// Token times through REST: a token signed with the platform's own key is still refused when it claims to be
// issued in the future or to live longer than ACCESS_TOKEN_MAX_TTL_SECONDS (issue 9 defect 11). Runs in both
// modes (the e2e-distributed project), so the services' own verifiers are held to it, not only all-in-one.
import { beforeAll, describe, expect, it } from "vitest";
import { sharedPlatform, u, type TestPlatform } from "./support/platform.ts";

let platform: TestPlatform;
let uuid: string;

beforeAll(async () => {
  platform = await sharedPlatform();
  uuid = (await platform.signUp()).user.uuid;
});

const now = () => Math.floor(Date.now() / 1000);
const profileWith = async (claims: Record<string, unknown>) =>
  platform.call("GET", u("/users/profile"), { token: await platform.craft({ sub: uuid, ...claims }) });

describe("token times over REST", () => {
  it("issue 9 defect 11: a token issued an hour in the future is 401, on the first and every later use", async () => {
    // The same crafted token, now-issued, is accepted: only the times differ.
    expect((await profileWith({})).status).toBe(200);
    const future = await platform.craft({ sub: uuid, iat: now() + 3600, exp: now() + 7200 });
    for (let use = 0; use < 3; use++) {
      const res = await platform.call("GET", u("/users/profile"), { token: future });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ statusCode: 401, message: "access token issued in the future" });
    }
  });

  it("issue 9 defect 11: a token valid for 100 years is 401; a 7-day one (the maximum) is accepted", async () => {
    const century = await profileWith({ iat: now(), exp: now() + 100 * 365 * 86_400 });
    expect(century.status).toBe(401);
    expect(century.body).toMatchObject({ statusCode: 401, message: "invalid access token" });
    expect((await profileWith({ iat: now(), exp: now() + 7 * 86_400 })).status).toBe(200);
  });

  it("issue 9 defect 11: a token not valid before an hour from now (nbf) is 401", async () => {
    const res = await profileWith({ nbf: now() + 3600 });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ statusCode: 401, message: "access token not yet valid" });
  });
});
