// The CometChat group client against a local fake server that records what it is sent (REST v3 shapes), and the
// development chat that keeps groups in memory.
import { afterEach, describe, expect, it } from "vitest";
import { ProviderError } from "@tt/providers";
import { startFakeServer, type FakeServer } from "@tt/kit/testing";
import { createDevRoomChat, createHttpRoomChat, createRoomChat, loadRoomChatConfig } from "./room-chat.ts";

let fake: FakeServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const group = { guid: "9a0e1c4e-8f3c-4a47-9a51-3d0f6d2b7a10", name: "Club" };

describe("CometChat room groups", () => {
  it("creates the group, sets members by scope and bans, with the app's headers", async () => {
    fake = await startFakeServer(() => ({ status: 200, json: { data: {} } }));
    const chat = createHttpRoomChat({ baseUrl: fake.url, appId: "app", apiKey: "key", timeoutMs: 2000 });
    await chat.syncGroup(
      group,
      [
        { uid: "u1", scope: "admin" },
        { uid: "u2", scope: "moderator" },
      ],
      ["u3"],
    );
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v3/groups",
      `POST /v3/groups/${group.guid}/members`,
      `POST /v3/groups/${group.guid}/bannedusers/u3`,
    ]);
    expect(fake.requests[0]!.json).toEqual({ guid: group.guid, name: "Club", type: "public" });
    expect(fake.requests[1]!.json).toEqual({ admins: ["u1"], moderators: ["u2"], participants: [] });
    expect(fake.requests[0]!.headers).toMatchObject({ appid: "app", apikey: "key" });
  });

  it("treats an existing group as created and reports other refusals as provider errors", async () => {
    fake = await startFakeServer((r) =>
      r.path === "/v3/groups"
        ? { status: 400, json: { error: { code: "ERR_GUID_ALREADY_EXISTS", message: "exists" } } }
        : { status: 200, json: { data: {} } },
    );
    const chat = createHttpRoomChat({ baseUrl: fake.url, appId: "app", apiKey: "key", timeoutMs: 2000 });
    await chat.joinGroup(group, { uid: "u9", scope: "participant" });
    expect(fake.requests[1]!.json).toEqual({ admins: [], moderators: [], participants: ["u9"] });
    fake.setHandler(() => ({ status: 401, json: { error: { code: "AUTH_ERR_APIKEY_NOT_FOUND" } } }));
    await expect(chat.joinGroup(group, { uid: "u9", scope: "participant" })).rejects.toBeInstanceOf(ProviderError);
  });

  it("uses the development chat unless CometChat is configured", async () => {
    expect(createRoomChat(loadRoomChatConfig({})).mode).toBe("dev");
    expect(createRoomChat(loadRoomChatConfig({ COMETCHAT_APP_ID: "a", COMETCHAT_API_KEY: "k" })).mode).toBe(
      "cometchat",
    );
    const dev = createDevRoomChat();
    await dev.syncGroup(group, [{ uid: "u1", scope: "admin" }], ["u2"]);
    await dev.joinGroup(group, { uid: "u4", scope: "participant" });
    const g = dev.groups.get(group.guid)!;
    expect([...g.members]).toEqual([
      ["u1", "admin"],
      ["u4", "participant"],
    ]);
    expect([...g.banned]).toEqual(["u2"]);
  });
});
