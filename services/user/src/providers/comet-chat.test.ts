import { afterEach, describe, expect, it } from "vitest";
import { createDevCometChat, createHttpCometChat } from "./comet-chat.ts";
import {
  startFakeServer,
  type FakeHandler,
  type FakeServer,
  type RecordedRequest,
} from "./testing/fake-http-server.ts";

// Answers like CometChat v3: users are remembered, tokens are numbered per uid.
function fakeCometChat(): FakeHandler {
  const users = new Set<string>(["already-there"]);
  let tokens = 0;
  return (request: RecordedRequest) => {
    const body = request.json as { uid?: string } | undefined;
    if (request.method === "POST" && request.path === "/v3/users") {
      const uid = body?.uid ?? "";
      if (users.has(uid)) {
        return {
          status: 400,
          json: { error: { message: `The UID ${uid} already exists.`, code: "ERR_UID_ALREADY_EXISTS" } },
        };
      }
      users.add(uid);
      return { status: 200, json: { data: { uid, name: "x", status: "offline" } } };
    }
    const match = /^\/v3\/users\/([^/]+)\/auth_tokens$/.exec(request.path);
    if (request.method === "POST" && match) {
      const uid = decodeURIComponent(match[1] ?? "");
      if (!users.has(uid)) return { status: 404, json: { error: { message: "not found", code: "ERR_UID_NOT_FOUND" } } };
      return { status: 200, json: { data: { uid, authToken: `${uid}_token${++tokens}`, createdAt: 1 } } };
    }
    return { status: 404, json: { error: { code: "ERR_ROUTE_NOT_FOUND" } } };
  };
}

describe("CometChat", () => {
  let fake: FakeServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  async function setup(handler: FakeHandler = fakeCometChat()) {
    fake = await startFakeServer(handler);
    return createHttpCometChat({
      baseUrl: fake.url,
      appId: "app-1",
      apiKey: "cc-key",
      ghostUid: "tt-ghost",
      timeoutMs: 5_000,
    });
  }

  it("creates each user with the app id and API key headers, reporting ones that exist", async () => {
    const chat = await setup();
    expect(
      await chat.createUsers([
        { uid: "u-1", name: "Nelly", avatar: "https://img.example/n.png" },
        { uid: "already-there", name: "Old" },
      ]),
    ).toEqual({ created: ["u-1"], existing: ["already-there"] });

    expect(fake!.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /v3/users", "POST /v3/users"]);
    const [first, second] = fake!.requests;
    expect(first?.headers).toMatchObject({ appid: "app-1", apikey: "cc-key", "content-type": "application/json" });
    expect(first?.json).toEqual({ uid: "u-1", name: "Nelly", avatar: "https://img.example/n.png" });
    expect(second?.json).toEqual({ uid: "already-there", name: "Old" });
  });

  it("gets a user's auth token", async () => {
    const chat = await setup();
    await chat.createUsers([{ uid: "u 2", name: "Space" }]);
    expect(await chat.userToken("u 2")).toEqual({ uid: "u 2", authToken: "u 2_token1" });
    const request = fake!.requests.at(-1);
    expect(request).toMatchObject({ method: "POST", url: "/v3/users/u%202/auth_tokens", json: { force: false } });
    expect(request?.headers.apikey).toBe("cc-key");
  });

  it("reports a user CometChat does not know as rejected 404", async () => {
    const chat = await setup();
    await expect(chat.userToken("nobody")).rejects.toMatchObject({
      provider: "comet-chat",
      kind: "rejected",
      status: 404,
      reason: "ERR_UID_NOT_FOUND",
    });
  });

  it("creates the ghost user once and caches its token", async () => {
    const chat = await setup();
    const [a, b] = await Promise.all([chat.ghostToken(), chat.ghostToken()]);
    expect(a).toEqual({ uid: "tt-ghost", authToken: "tt-ghost_token1" });
    expect(b).toEqual(a);
    expect(await chat.ghostToken()).toEqual(a);
    expect(fake!.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v3/users",
      "POST /v3/users/tt-ghost/auth_tokens",
    ]);
    expect(fake!.requests[0]?.json).toEqual({ uid: "tt-ghost", name: "Guest" });
  });

  it("does not cache a failed ghost token, and reports a 5xx as unavailable", async () => {
    const chat = await setup(() => ({ status: 500, json: { error: { code: "ERR_INTERNAL" } } }));
    await expect(chat.ghostToken()).rejects.toMatchObject({ kind: "unavailable", status: 500 });
    fake!.setHandler(fakeCometChat());
    expect(await chat.ghostToken()).toEqual({ uid: "tt-ghost", authToken: "tt-ghost_token1" });
  });
});

describe("development CometChat", () => {
  it("says chat is not configured", async () => {
    await expect(createDevCometChat().ghostToken()).rejects.toThrow("comet-chat: Chat (CometChat) is not configured");
  });
});
