import { Code, ConnectError } from "@connectrpc/connect";
import { act, screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { createTestCrateService, TEST_USER_UUID, type TestCrateService } from "../testing/crate-service.ts";
import { layOutRows } from "../testing/layout.ts";
import { chooseFromMenu, clearToasts, lastToast, toasts } from "../testing/ui.ts";
import { CrateScreen } from "./CrateScreen.tsx";
import { SONG_ROW_HEIGHT } from "./SongRow.tsx";

layOutRows(SONG_ROW_HEIGHT);

function signedInKit(service: TestCrateService) {
  const kit = createTestKit({ routes: service.routes });
  kit.session.signIn(
    { token: "t", tokenType: "user" },
    { uuid: TEST_USER_UUID, email: "ada@example.com", role: "user" },
  );
  return kit;
}

// `hidden`: behind an open dialog (the page outside it is hidden from assistive technology).
const titles = (hidden = false) =>
  within(screen.getByRole("list", { name: /^Songs of/, hidden }))
    .getAllByTestId("crate-song")
    .map((row) => row.querySelector("strong")?.textContent);

const liveRegion = () => document.querySelector<HTMLElement>('[id^="DndLiveRegion"]');

describe("CrateScreen", () => {
  let service: TestCrateService;
  beforeEach(() => {
    service = createTestCrateService();
    clearToasts();
  });

  it("shows a crate's songs with their artwork, artists and durations", async () => {
    const crate = service.addCrate("Road trip", ["One", "Two", "Three"]);
    renderWithKit(<CrateScreen crateUuid={crate.crate.crateUuid} />, signedInKit(service));
    expect(await screen.findByRole("heading", { name: "Road trip", level: 1 })).toBeTruthy();
    expect(titles()).toEqual(["One", "Two", "Three"]);
    expect(screen.getByText("3 songs")).toBeTruthy();
    expect(screen.getAllByText("3:00")).toHaveLength(1);
    expect(screen.getByText("3:01")).toBeTruthy();
    expect(screen.getByText("One artist")).toBeTruthy();
    // Each row's position in the whole crate, and its handle to move it by.
    const rows = within(screen.getByRole("list", { name: "Songs of Road trip" })).getAllByRole("listitem");
    expect(rows[1]?.getAttribute("aria-posinset")).toBe("2");
    expect(rows[1]?.getAttribute("aria-setsize")).toBe("3");
    expect(screen.getByRole("button", { name: "Move Two" })).toBeTruthy();
  });

  it("moves a song at once from its menu and keeps the order the server confirms", async () => {
    const user = userEvent.setup();
    const crate = service.addCrate("Road trip", ["One", "Two", "Three"]);
    renderWithKit(<CrateScreen crateUuid={crate.crate.crateUuid} />, signedInKit(service));
    await screen.findByRole("heading", { name: "Road trip" });
    const gate = service.hold("MoveCrateSong");
    await chooseFromMenu(user, "Actions for One", "Move down");
    // Optimistic: the new order shows before the server has answered.
    await gate.reached;
    await waitFor(() => expect(titles()).toEqual(["Two", "One", "Three"]));
    await act(async () => gate.release());
    await waitFor(() =>
      expect(service.crates.get(crate.crate.crateUuid)?.songs.map((s) => s.trackName)).toEqual(["Two", "One", "Three"]),
    );
    expect(titles()).toEqual(["Two", "One", "Three"]);
    await waitFor(() => expect(lastToast()).toBe("success: One moved to position 2."));
    // The keyboard stays on the moved song: moving it again is one more menu away.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("button", { name: "Actions for One" })));
    await chooseFromMenu(user, "Actions for One", "Move to bottom");
    await waitFor(() => expect(titles()).toEqual(["Two", "Three", "One"]));
    // At the bottom it cannot go further down.
    await user.click(screen.getByRole("button", { name: "Actions for One" }));
    const menu = await screen.findByRole("menu");
    expect(within(menu).getByRole("menuitem", { name: "Move down" }).getAttribute("aria-disabled")).toBe("true");
    expect(within(menu).getByRole("menuitem", { name: "Move to top" }).getAttribute("aria-disabled")).toBeNull();
  });

  it("moves a song with the keyboard by its handle: Space, ArrowDown, Space", async () => {
    const user = userEvent.setup();
    const crate = service.addCrate("Road trip", ["One", "Two", "Three"]);
    renderWithKit(<CrateScreen crateUuid={crate.crate.crateUuid} />, signedInKit(service));
    await screen.findByRole("heading", { name: "Road trip" });
    screen.getByRole("button", { name: "Move One" }).focus();
    await user.keyboard(" ");
    await waitFor(() => expect(liveRegion()?.textContent).toBe("Picked up One, at position 1 of 3."));
    await user.keyboard("{ArrowDown}");
    await waitFor(() => expect(liveRegion()?.textContent).toBe("One is now at position 2 of 3."));
    await user.keyboard(" ");
    await waitFor(() => expect(titles()).toEqual(["Two", "One", "Three"]));
    await waitFor(() =>
      expect(service.crates.get(crate.crate.crateUuid)?.songs.map((s) => s.trackName)).toEqual(["Two", "One", "Three"]),
    );
    expect(service.calls.filter((call) => call === "MoveCrateSong")).toHaveLength(1);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("button", { name: "Move One" })));
  });

  it("restores the cached order when the server refuses a move (002 §4)", async () => {
    const user = userEvent.setup();
    const crate = service.addCrate("Road trip", ["One", "Two", "Three"]);
    renderWithKit(<CrateScreen crateUuid={crate.crate.crateUuid} />, signedInKit(service));
    await screen.findByRole("heading", { name: "Road trip" });
    const gate = service.hold("MoveCrateSong");
    await chooseFromMenu(user, "Actions for Three", "Move up");
    await gate.reached;
    await waitFor(() => expect(titles()).toEqual(["One", "Three", "Two"]));
    await act(async () => gate.fail(new ConnectError("crate belongs to another user", Code.PermissionDenied)));
    await waitFor(() => expect(lastToast()).toBe("error: Crate belongs to another user"));
    await waitFor(() => expect(titles()).toEqual(["One", "Two", "Three"]));
  });

  it("removes a song at once from its menu, and restores it when the server refuses", async () => {
    const user = userEvent.setup();
    const crate = service.addCrate("Road trip", ["One", "Two"]);
    renderWithKit(<CrateScreen crateUuid={crate.crate.crateUuid} />, signedInKit(service));
    await screen.findByRole("heading", { name: "Road trip" });
    service.failNext("RemoveCrateSong", new ConnectError("crate song not found", Code.NotFound));
    await chooseFromMenu(user, "Actions for One", "Remove from Road trip");
    await waitFor(() => expect(lastToast()).toBe("error: Crate song not found"));
    expect(titles()).toEqual(["One", "Two"]);
    await chooseFromMenu(user, "Actions for One", "Remove from Road trip");
    await waitFor(() => expect(titles()).toEqual(["Two"]));
    expect(service.crates.get(crate.crate.crateUuid)?.songs.map((s) => s.trackName)).toEqual(["Two"]);
    await waitFor(() => expect(lastToast()).toBe("success: One removed from Road trip."));
  });

  it("copies into the queue: clears it (an empty queue at once), copies, then refreshes the queue (002 §4)", async () => {
    const user = userEvent.setup();
    const crate = service.addCrate("Road trip", ["One", "Two"]);
    service.queue.songs.push(...service.addCrate("old", ["Old song"]).songs);
    const kit = signedInKit(service);
    // The queue is on screen too (the same cache), so its immediate empty state is visible.
    renderWithKit(
      <>
        <CrateScreen crateUuid={crate.crate.crateUuid} />
        <CrateScreen special="queue" />
      </>,
      kit,
    );
    await screen.findByRole("heading", { name: "Road trip" });
    const queueList = await screen.findByRole("list", { name: "Songs of Queue" });
    expect(within(queueList).getAllByTestId("crate-song")).toHaveLength(1);
    service.calls.length = 0;

    const clear = service.hold("ClearQueueSongs");
    await user.click(screen.getByRole("button", { name: "Copy into the queue" }));
    await clear.reached;
    // Cleared in the cache before the server answered: an empty queue.
    await waitFor(() => expect(screen.queryByRole("list", { name: "Songs of Queue" })).toBeNull());
    expect(screen.getByRole("heading", { name: "Your queue is empty" })).toBeTruthy();
    await act(async () => clear.release());
    await waitFor(() =>
      expect(within(screen.getByRole("list", { name: "Songs of Queue" })).getAllByTestId("crate-song")).toHaveLength(2),
    );
    expect(service.calls).toEqual(["ClearQueueSongs", "CopyCrate", "GetQueue"]);
    expect(service.queue.songs.map((song) => song.trackName)).toEqual(["One", "Two"]);
    await waitFor(() => expect(lastToast()).toBe("success: The queue now holds this crate's songs."));
  });

  it("clears the queue after asking: empty at once, then the server's crate", async () => {
    const user = userEvent.setup();
    service.queue.songs.push(...service.addCrate("old", ["Old song", "Older song"]).songs);
    renderWithKit(<CrateScreen special="queue" />, signedInKit(service));
    expect(await screen.findByRole("heading", { name: "Queue", level: 1 })).toBeTruthy();
    const clear = service.hold("ClearQueueSongs");
    await user.click(screen.getByRole("button", { name: "Clear" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Clear Queue?" });
    expect(within(dialog).getByText("All 2 songs are taken out of Queue. This cannot be undone.")).toBeTruthy();
    await user.click(within(dialog).getByRole("button", { name: "Remove all songs" }));
    await clear.reached;
    await screen.findByText("Add songs from Search, or copy a crate into the queue.");
    expect(screen.getByText("0 songs")).toBeTruthy();
    await act(async () => clear.release());
    await waitFor(() => expect(service.queue.songs).toHaveLength(0));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(toasts()).toContain("success: Queue cleared.");
    // The empty queue says what to do next.
    expect(screen.getByRole("link", { name: "Search for songs" }).getAttribute("href")).toBe("/search");
    // The special crates cannot be deleted or renamed: no menu for that.
    expect(screen.queryByRole("button", { name: "More actions for Queue" })).toBeNull();
  });

  it("clears the likes crate too, and keeps the server's songs when the clear is refused", async () => {
    const user = userEvent.setup();
    service.likes.songs.push(...service.addCrate("old", ["Starred"]).songs);
    renderWithKit(<CrateScreen special="likes" />, signedInKit(service));
    expect(await screen.findByRole("heading", { name: "Likes", level: 1 })).toBeTruthy();
    service.failNext("ClearLikesSongs", new ConnectError("internal", Code.Internal));
    await user.click(screen.getByRole("button", { name: "Clear" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Clear Likes?" });
    await user.click(within(dialog).getByRole("button", { name: "Remove all songs" }));
    // The server's message in the dialog, which stays open.
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Something went wrong, please try again.");
    await waitFor(() => expect(titles(true)).toEqual(["Starred"]));
    await user.click(within(dialog).getByRole("button", { name: "Remove all songs" }));
    await screen.findByText("No songs in this crate yet");
    await waitFor(() => expect(service.likes.songs).toHaveLength(0));
    expect(service.calls.filter((call) => call === "ClearLikesSongs")).toHaveLength(2);
  });

  it("shuffles, renames and deletes an ordinary crate", async () => {
    const user = userEvent.setup();
    const crate = service.addCrate("Road trip", ["One", "Two", "Three"]);
    renderWithKit(<CrateScreen crateUuid={crate.crate.crateUuid} />, signedInKit(service));
    await screen.findByRole("heading", { name: "Road trip" });
    await user.click(screen.getByRole("button", { name: "Shuffle" }));
    await waitFor(() => expect(titles()).toEqual(["Three", "Two", "One"]));
    expect(lastToast()).toBe("success: Road trip shuffled.");

    await chooseFromMenu(user, "More actions for Road trip", "Rename or describe");
    const rename = await screen.findByRole("dialog", { name: "Rename or describe" });
    const nameField = await within(rename).findByLabelText("Name");
    await user.clear(nameField);
    await user.click(within(rename).getByRole("button", { name: "Save" }));
    // An empty name is refused on its field, before any call.
    expect((await within(rename).findByRole("alert")).textContent).toBe("Give the crate a name.");
    expect(service.calls).not.toContain("UpdateCrate");
    await user.type(nameField, "Night drive");
    await user.type(within(rename).getByLabelText("Description"), "After midnight");
    await user.click(within(rename).getByRole("button", { name: "Save" }));
    expect(await screen.findByRole("heading", { name: "Night drive" })).toBeTruthy();
    expect(screen.getByText("After midnight")).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());

    await chooseFromMenu(user, "More actions for Night drive", "Delete crate");
    const confirm = await screen.findByRole("alertdialog", { name: "Delete “Night drive”?" });
    await user.click(within(confirm).getByRole("button", { name: "Delete crate" }));
    await waitFor(() => expect(service.crates.has(crate.crate.crateUuid)).toBe(false));
    await waitFor(() => expect(toasts()).toContain("success: “Night drive” deleted."));
  });

  it("loads the next 300 songs when the list reaches its end", async () => {
    const user = userEvent.setup();
    const names = Array.from({ length: 301 }, (_, i) => `Song ${i}`);
    const crate = service.addCrate("Big", names);
    renderWithKit(<CrateScreen crateUuid={crate.crate.crateUuid} />, signedInKit(service));
    await screen.findByRole("heading", { name: "Big" });
    expect(screen.getByText("300 of 301 songs")).toBeTruthy();
    expect(screen.getByText("301 songs")).toBeTruthy();
    // Only the rows in view are in the page.
    expect(screen.getAllByTestId("crate-song").length).toBeLessThan(40);
    await user.click(screen.getByRole("button", { name: "Load more songs" }));
    await waitFor(() => expect(screen.queryByRole("button", { name: "Load more songs" })).toBeNull());
    expect(service.calls).toContain("ListCrateSongs");
  });

  it("shows another user's crate read-only: no handle, no song menu, no shuffle, rename or delete", async () => {
    const crate = service.addCrate("Their mix", ["One", "Two"], { userUuid: "00000000-0000-4000-8000-0000000000ff" });
    renderWithKit(<CrateScreen crateUuid={crate.crate.crateUuid} />, signedInKit(service));
    await screen.findByRole("heading", { name: "Their mix" });
    expect(titles()).toEqual(["One", "Two"]);
    expect(screen.queryByRole("button", { name: "Move One" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Actions for One" })).toBeNull();
    for (const name of ["Shuffle", "More actions for Their mix"])
      expect(screen.queryByRole("button", { name })).toBeNull();
    // Copying it into one's own queue is allowed.
    expect(screen.getByRole("button", { name: "Copy into the queue" })).toBeTruthy();
  });

  it("says so when the crate does not exist, with the way back", async () => {
    renderWithKit(<CrateScreen crateUuid="00000000-0000-4000-8000-00000000dead" />, signedInKit(service));
    expect((await screen.findByRole("alert")).textContent).toContain("This crate does not exist or is not yours.");
    expect(screen.getByRole("link", { name: "All crates" })).toBeTruthy();
  });
});
