// The crates remote's analytics (spec 002 §7): crate actions are playlist actions, queue actions queue actions,
// each sent once the server has done it, through the kit's analytics client pointed at a recording sink.
import { Code, ConnectError } from "@connectrpc/connect";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { createTestKit, recordAnalytics, renderWithKit } from "@tt/web-kit/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { App } from "./App.tsx";
import { crateOf, crateTopic } from "./lib/analytics.ts";
import { CrateScreen } from "./screens/CrateScreen.tsx";
import { createTestCrateService, TEST_USER_UUID, type TestCrateService } from "./testing/crate-service.ts";
import { chooseFromMenu, clearToasts, lastToast } from "./testing/ui.ts";

function signedIn(service: TestCrateService) {
  const kit = createTestKit({ routes: service.routes });
  kit.session.signIn(
    { token: "t", tokenType: "user" },
    { uuid: TEST_USER_UUID, email: "ada@example.com", role: "user" },
  );
  return { kit, sink: recordAnalytics(kit) };
}

describe("crates remote analytics", () => {
  let service: TestCrateService;
  beforeEach(() => {
    service = createTestCrateService();
    clearToasts();
    window.history.replaceState(null, "", "/crates");
  });
  afterEach(() => window.history.replaceState(null, "", "/"));

  it("names the topic by the crate: the queue's are queue actions, the rest playlist actions", () => {
    expect(crateTopic({ special: "queue" })).toBe("queue-action");
    expect(crateTopic({ special: "likes" })).toBe("playlist-action");
    expect(crateTopic({ crateUuid: "c" })).toBe("playlist-action");
    expect(crateOf({ special: "likes" })).toBe("likes");
    expect(crateOf({ crateUuid: "c" })).toBe("c");
  });

  it("sends creating a crate as a playlist action", async () => {
    const user = userEvent.setup();
    const { kit, sink } = signedIn(service);
    renderWithKit(<App />, kit);
    await user.click(await screen.findByRole("button", { name: "New crate" }));
    await screen.findByLabelText("Name");
    await user.click(await screen.findByRole("button", { name: "Create crate" }));
    await screen.findByRole("heading", { name: "New Playlist #1" }, { timeout: 10_000 });
    const [created] = [...service.crates.values()].filter((c) => c.crate.crateName === "New Playlist #1");
    expect(sink.of("playlist-action")).toEqual([{ action: "create", crate: created?.crate.crateUuid }]);
    expect(sink.events[0]?.deviceData.isLoggedIn).toBe(true);
  });

  it("sends a crate's move, refused remove (nothing), remove, shuffle, rename and delete as playlist actions", async () => {
    const crate = service.addCrate("Road trip", ["One", "Two", "Three"]);
    const uuid = crate.crate.crateUuid;
    const three = crate.songs[2]?.songId;
    const user = userEvent.setup();
    const { kit, sink } = signedIn(service);
    renderWithKit(<CrateScreen crateUuid={uuid} />, kit);
    await screen.findByRole("heading", { name: "Road trip" });
    await chooseFromMenu(user, "Actions for One", "Move down");
    await waitFor(() => expect(sink.of("playlist-action")).toHaveLength(1));
    service.failNext("RemoveCrateSong", new ConnectError("crate song not found", Code.NotFound));
    await chooseFromMenu(user, "Actions for Three", "Remove from Road trip");
    await waitFor(() => expect(lastToast()).toBe("error: Crate song not found"));
    expect(sink.of("playlist-action")).toHaveLength(1);
    await chooseFromMenu(user, "Actions for Three", "Remove from Road trip");
    await waitFor(() => expect(sink.of("playlist-action")).toHaveLength(2));
    await user.click(screen.getByRole("button", { name: "Shuffle" }));
    await waitFor(() => expect(sink.of("playlist-action")).toHaveLength(3));
    await chooseFromMenu(user, "More actions for Road trip", "Rename or describe");
    const rename = await screen.findByRole("dialog", { name: "Rename or describe" });
    await user.clear(await within(rename).findByLabelText("Name"));
    await user.type(within(rename).getByLabelText("Name"), "Night drive");
    await user.click(within(rename).getByRole("button", { name: "Save" }));
    await screen.findByRole("heading", { name: "Night drive" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await chooseFromMenu(user, "More actions for Night drive", "Delete crate");
    const confirm = await screen.findByRole("alertdialog");
    await user.click(within(confirm).getByRole("button", { name: "Delete crate" }));
    await waitFor(() => expect(sink.of("playlist-action")).toHaveLength(5));
    expect(sink.of("playlist-action")).toEqual([
      { action: "move", crate: uuid, from: 0, to: 1 },
      { action: "remove", crate: uuid, songId: three },
      { action: "shuffle", crate: uuid },
      { action: "rename", crate: uuid },
      { action: "delete", crate: uuid },
    ]);
    expect(sink.of("queue-action")).toEqual([]);
  });

  it("sends clearing the queue and copying a crate into it as queue actions", async () => {
    const user = userEvent.setup();
    const crate = service.addCrate("Road trip", ["One"]);
    service.queue.songs.push(...service.addCrate("old", ["Old song"]).songs);
    const { kit, sink } = signedIn(service);
    renderWithKit(
      <>
        <CrateScreen crateUuid={crate.crate.crateUuid} />
        <CrateScreen special="queue" />
      </>,
      kit,
    );
    await screen.findByRole("heading", { name: "Queue" });
    await user.click(screen.getByRole("button", { name: "Clear" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Remove all songs" }));
    await waitFor(() => expect(sink.of("queue-action")).toEqual([{ action: "clear", crate: "queue" }]));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    await user.click(screen.getByRole("button", { name: "Copy into the queue" }));
    await waitFor(() => expect(sink.of("queue-action")).toHaveLength(2));
    expect(sink.of("queue-action")[1]).toEqual({ action: "copy-crate", crate: "queue", from: crate.crate.crateUuid });
  });
});
