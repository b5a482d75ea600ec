import { startFakeServer, type FakeServer } from "@tt/kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cometChatHost, createCometChatRest } from "./comet-chat-rest.ts";
import { ProviderError } from "./provider-errors.ts";

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer(() => ({ status: 200, json: { data: { ok: true } } }));
});
afterAll(() => fake.close());

describe("CometChat REST v3", () => {
  it("posts JSON under /v3 with the app's id and key, and answers the parsed body", async () => {
    const rest = createCometChatRest({ baseUrl: fake.url, appId: "app", apiKey: "key", timeoutMs: 2000 });
    expect(await rest.post("/users", { uid: "u1" })).toEqual({ data: { ok: true } });
    expect(fake.requests.at(-1)).toMatchObject({
      method: "POST",
      path: "/v3/users",
      json: { uid: "u1" },
      headers: { appid: "app", apikey: "key" },
    });
  });

  it("fails with a comet-chat ProviderError whose reason is CometChat's error code", async () => {
    fake.setHandler(() => ({ status: 400, json: { error: { code: "ERR_UID_ALREADY_EXISTS", message: "exists" } } }));
    const rest = createCometChatRest({ baseUrl: fake.url, appId: "app", apiKey: "key", timeoutMs: 2000 });
    const error = await rest.post("/users", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: "comet-chat", kind: "rejected", reason: "ERR_UID_ALREADY_EXISTS" });
  });

  it("names an app's host by region", () => {
    expect(cometChatHost("12345abc", "eu")).toBe("https://12345abc.api-eu.cometchat.io");
  });
});
