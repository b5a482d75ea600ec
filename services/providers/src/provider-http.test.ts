import { startFakeServer, type FakeServer } from "@tt/kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderError } from "./provider-errors.ts";
import { requestJson, withTokenRefresh } from "./provider-http.ts";

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer(() => ({ status: 200, json: {} }));
});
afterAll(() => fake.close());

describe("requestJson", () => {
  it("sends JSON and turns a 4xx into a rejected ProviderError with the provider's code", async () => {
    fake.setHandler(() => ({ status: 404, json: { error: "not_found" } }));
    const error = await requestJson({
      provider: "x",
      method: "PATCH",
      url: `${fake.url}/a`,
      json: { a: 1 },
      timeoutMs: 2000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "rejected", status: 404, reason: "not_found" });
    expect(fake.requests.at(-1)).toMatchObject({ method: "PATCH", json: { a: 1 } });
  });
});

describe("withTokenRefresh (spec 002 §8)", () => {
  const refused = (status: number) => new ProviderError("p", "rejected", "expired", status);

  it("refreshes once on 401 and retries with the new token", async () => {
    const seen: string[] = [];
    let refreshes = 0;
    const out = await withTokenRefresh({
      accessToken: "old",
      refresh: async () => (refreshes++, "new"),
      call: async (token) => {
        seen.push(token);
        if (token === "old") throw refused(401);
        return 7;
      },
    });
    expect(out).toEqual({ result: 7, accessToken: "new", refreshed: true });
    expect(seen).toEqual(["old", "new"]);
    expect(refreshes).toBe(1);
  });

  it("throws the second refusal instead of looping", async () => {
    let calls = 0;
    const error = await withTokenRefresh({
      accessToken: "old",
      refresh: async () => "new",
      call: async () => {
        calls++;
        throw refused(401);
      },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401 });
    expect(calls).toBe(2);
  });

  it("does not refresh on a status the provider does not use for refused tokens", async () => {
    let refreshes = 0;
    const error = await withTokenRefresh({
      accessToken: "old",
      statuses: [403],
      refresh: async () => (refreshes++, "new"),
      call: async () => {
        throw refused(401);
      },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401 });
    expect(refreshes).toBe(0);
  });
});
