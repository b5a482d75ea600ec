// The room remote's analytics (spec 002 §7): what the directory, room creation and communities send, through the
// kit's analytics client pointed at a recording sink.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { createTestKit, recordAnalytics, renderWithKit } from "@tt/web-kit/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { App } from "./App.tsx";
import { utmSourceOf } from "./screens/DirectoryScreen.tsx";
import { createTestRoomService, OTHER_UUID, tokenOf, type TestRoomService } from "./testing/room-service.ts";
import { chooseTab, confirm, confirmation } from "./testing/ui.ts";

function kitFor(service: TestRoomService, userUuid?: string) {
  const kit = createTestKit({ routes: service.routes });
  if (userUuid) {
    kit.session.signIn(
      { token: tokenOf(userUuid), tokenType: "user" },
      { uuid: userUuid, email: `${userUuid}@example.com`, role: "user" },
    );
  }
  return { kit, sink: recordAnalytics(kit) };
}

const go = (path: string) => window.history.replaceState(null, "", `/room${path}`);

describe("room remote analytics", () => {
  let service: TestRoomService;
  beforeEach(() => {
    service = createTestRoomService();
  });
  afterEach(() => window.history.replaceState(null, "", "/"));

  it("sends home-rooms-loaded once, with the room count and the utm source, also for a guest", async () => {
    service.addRoom("Jazz Cellar");
    service.addRoom("Techno Bunker");
    go("/?utm_source=newsletter");
    const { kit, sink } = kitFor(service);
    renderWithKit(<App />, kit);
    await screen.findByRole("list", { name: "Public rooms" });
    await waitFor(() => expect(sink.of("home-rooms-loaded")).toHaveLength(1));
    expect(sink.of("home-rooms-loaded")[0]).toEqual({
      roomCount: 2,
      total: 2,
      list: "public",
      utmSource: "newsletter",
    });
    expect(sink.events[0]?.deviceData).toEqual({ platform: "web", isDiscord: false, isLoggedIn: false });
    // Another list of the same visit is not a second home load.
    chooseTab(screen.getByRole("tab", { name: "Promoted" }));
    await screen.findByRole("heading", { name: "No promoted rooms right now" });
    expect(sink.of("home-rooms-loaded")).toHaveLength(1);
  });

  it("sends a room action when a signed-in user opens a room from the directory (a guest's is not sent)", async () => {
    const jazz = service.addRoom("Jazz Cellar");
    go("/");
    const { kit, sink } = kitFor(service, OTHER_UUID);
    renderWithKit(<App />, kit);
    fireEvent.click(await screen.findByRole("link", { name: "Jazz Cellar" }));
    expect(sink.of("room-action")).toEqual([{ action: "join", roomUuid: jazz.uuid, from: "public" }]);
    expect(sink.events.find((e) => e.topic === "room-action")?.deviceData.isLoggedIn).toBe(true);
  });

  it("a guest's room action stays unsent (the audit service takes room actions from users only)", async () => {
    service.addRoom("Jazz Cellar");
    go("/");
    const { kit, sink } = kitFor(service);
    renderWithKit(<App />, kit);
    fireEvent.click(await screen.findByRole("link", { name: "Jazz Cellar" }));
    expect(sink.of("room-action")).toEqual([]);
  });

  it("sends a room action for a created room", async () => {
    go("/create");
    const { kit, sink } = kitFor(service, OTHER_UUID);
    renderWithKit(<App />, kit);
    fireEvent.change(await screen.findByRole("textbox", { name: "Name" }), {
      target: { value: "Night Owls" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Create the room" }));
    await waitFor(() => expect(sink.of("room-action")).toHaveLength(1));
    expect(sink.of("room-action")[0]).toMatchObject({
      action: "create",
      roomUuid: service.rooms[0]?.uuid,
      type: "PUBLIC",
    });
  });

  it("sends joining a community as a room action", async () => {
    const community = service.addCommunity("Jazz lovers", []);
    go(`/communities/${community.id}`);
    const { kit, sink } = kitFor(service, OTHER_UUID);
    renderWithKit(<App />, kit);
    fireEvent.click(await screen.findByRole("button", { name: "Join" }));
    await screen.findByText("1 member");
    expect(sink.of("room-action")).toEqual([{ action: "join-community", communityId: community.id }]);
    // A refused leave (no longer a member, left in another tab) is not an action taken; the dialog says why.
    service.membersOf(community.id).length = 0;
    fireEvent.click(await screen.findByRole("button", { name: "Leave" }));
    await confirm("Leave");
    expect((await within(await confirmation()).findByRole("alert")).textContent).toBe("Not a member");
    expect(sink.of("room-action")).toHaveLength(1);
  });

  it("reads the utm source from the page's query, capped", () => {
    expect(utmSourceOf("?utm_source=mail&x=1")).toBe("mail");
    expect(utmSourceOf("")).toBe("");
    expect(utmSourceOf(`?utm_source=${"a".repeat(300)}`)).toHaveLength(100);
  });
});
