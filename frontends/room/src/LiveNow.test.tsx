import { screen, within } from "@testing-library/react";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LiveNow } from "./LiveNow.tsx";
import { createTestRoomService, OTHER_UUID, OWNER_UUID, type TestRoomService } from "./testing/room-service.ts";

describe("the home page's live rooms", () => {
  let service: TestRoomService;
  beforeEach(() => {
    service = createTestRoomService();
    // Shown on the shell's home page, outside the room app's own path.
    window.history.replaceState(null, "", "/");
  });
  afterEach(() => window.history.replaceState(null, "", "/"));

  it("lists the busiest rooms first, marks the promoted ones and offers one click into the first", async () => {
    const quiet = service.addRoom("Quiet Corner");
    const lobby = service.addRoom("Lobby", OWNER_UUID, { promoted: true });
    service.listeners.set(quiet.uuid, [OTHER_UUID]);
    service.listeners.set(lobby.uuid, [OWNER_UUID, OTHER_UUID]);
    service.booths.set(lobby.uuid, { djs: [OWNER_UUID], song: { trackName: "Demo Song", artistName: "Turntable" } });
    renderWithKit(<LiveNow />, createTestKit({ routes: service.routes }));
    const join = await screen.findByRole("link", { name: "Join Lobby" });
    expect(join.getAttribute("href")).toBe("/room/r/lobby");
    const list = screen.getByRole("list", { name: "Live now" });
    const names = within(list)
      .getAllByRole("heading", { level: 3 })
      .map((heading) => heading.textContent);
    expect(names).toEqual(["Lobby", "Quiet Corner"]);
    expect(within(list).getByRole("link", { name: "Quiet Corner" }).getAttribute("href")).toBe("/room/r/quiet-corner");
    const first = within(list).getAllByRole("listitem")[0]!;
    expect(within(first).getByText("Playing Demo Song by Turntable")).toBeTruthy();
    expect(await within(first).findByText("Promoted")).toBeTruthy();
  });

  it("says how to start a room when nobody is on the decks", async () => {
    service.addRoom("Empty Room");
    renderWithKit(<LiveNow />, createTestKit({ routes: service.routes }));
    expect(await screen.findByRole("heading", { name: "Nobody is on the decks right now" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Start a room" }).getAttribute("href")).toBe("/room/create");
  });
});
