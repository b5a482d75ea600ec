import { Code, ConnectError } from "@connectrpc/connect";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { createTestCrateService, TEST_USER_UUID, type TestCrateService } from "../testing/crate-service.ts";
import { CrateScreen } from "./CrateScreen.tsx";

function signedInKit(service: TestCrateService) {
  const kit = createTestKit({ routes: service.routes });
  kit.session.signIn(
    { token: "t", tokenType: "user" },
    { uuid: TEST_USER_UUID, email: "ada@example.com", role: "user" },
  );
  return kit;
}

const titles = () =>
  within(screen.getByRole("list", { name: /^Songs of/ }))
    .getAllByTestId("crate-song")
    .map((row) => row.querySelector("strong")?.textContent);

describe("CrateScreen", () => {
  let service: TestCrateService;
  beforeEach(() => {
    service = createTestCrateService();
  });

  it("shows a crate's songs with their durations", async () => {
    const crate = service.addCrate("Road trip", ["One", "Two", "Three"]);
    renderWithKit(<CrateScreen crateUuid={crate.crate.crateUuid} />, signedInKit(service));
    expect(await screen.findByRole("heading", { name: "Road trip" })).toBeTruthy();
    expect(titles()).toEqual(["One", "Two", "Three"]);
    expect(screen.getByText("3 songs")).toBeTruthy();
    expect(screen.getAllByText("3:00")).toHaveLength(1);
    expect(screen.getByText("3:01")).toBeTruthy();
  });

  it("moves a song at once and keeps the order the server confirms", async () => {
    const crate = service.addCrate("Road trip", ["One", "Two", "Three"]);
    renderWithKit(<CrateScreen crateUuid={crate.crate.crateUuid} />, signedInKit(service));
    await screen.findByRole("heading", { name: "Road trip" });
    const gate = service.hold("MoveCrateSong");
    fireEvent.click(screen.getByRole("button", { name: "Move One down" }));
    // Optimistic: the new order shows before the server has answered.
    await gate.reached;
    await waitFor(() => expect(titles()).toEqual(["Two", "One", "Three"]));
    await act(async () => gate.release());
    await waitFor(() =>
      expect(service.crates.get(crate.crate.crateUuid)?.songs.map((s) => s.trackName)).toEqual(["Two", "One", "Three"]),
    );
    expect(titles()).toEqual(["Two", "One", "Three"]);
    expect(screen.getByRole("status").textContent).toBe("One moved to position 2.");
    // The keyboard stays on the moved song: moving it again is one more key press.
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Move One down" }));
    fireEvent.click(screen.getByRole("button", { name: "Move One down" }));
    await waitFor(() => expect(titles()).toEqual(["Two", "Three", "One"]));
    // At the bottom its down button is disabled, so the focus goes to its up button.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("button", { name: "Move One up" })));
  });

  it("restores the cached order when the server refuses a move (002 §4)", async () => {
    const crate = service.addCrate("Road trip", ["One", "Two", "Three"]);
    renderWithKit(<CrateScreen crateUuid={crate.crate.crateUuid} />, signedInKit(service));
    await screen.findByRole("heading", { name: "Road trip" });
    const gate = service.hold("MoveCrateSong");
    fireEvent.click(screen.getByRole("button", { name: "Move Three up" }));
    await gate.reached;
    await waitFor(() => expect(titles()).toEqual(["One", "Three", "Two"]));
    await act(async () => gate.fail(new ConnectError("crate belongs to another user", Code.PermissionDenied)));
    expect((await screen.findByRole("alert")).textContent).toBe("Crate belongs to another user");
    expect(titles()).toEqual(["One", "Two", "Three"]);
  });

  it("a fast drop moves the song the drag carries, before the drag start re-rendered the list", async () => {
    const crate = service.addCrate("Road trip", ["One", "Two", "Three"]);
    renderWithKit(<CrateScreen crateUuid={crate.crate.crateUuid} />, signedInKit(service));
    await screen.findByRole("heading", { name: "Road trip" });
    const rows = screen.getAllByTestId("crate-song");
    const three = crate.songs[2]?.crateSongUuid ?? "";
    // No dragstart seen by this list (a drop from the browser's own drag data only).
    fireEvent.drop(rows[0] as HTMLElement, { dataTransfer: { getData: () => three, dropEffect: "" } });
    await waitFor(() => expect(titles()).toEqual(["Three", "One", "Two"]));
  });

  it("moves a song by dragging it onto another row", async () => {
    const crate = service.addCrate("Road trip", ["One", "Two", "Three"]);
    renderWithKit(<CrateScreen crateUuid={crate.crate.crateUuid} />, signedInKit(service));
    await screen.findByRole("heading", { name: "Road trip" });
    const rows = screen.getAllByTestId("crate-song");
    const dataTransfer = { setData: () => undefined, effectAllowed: "", dropEffect: "" };
    fireEvent.dragStart(rows[0] as HTMLElement, { dataTransfer });
    fireEvent.dragOver(rows[2] as HTMLElement, { dataTransfer });
    fireEvent.drop(rows[2] as HTMLElement, { dataTransfer });
    await waitFor(() => expect(titles()).toEqual(["Two", "Three", "One"]));
    await waitFor(() => expect(service.calls).toContain("MoveCrateSong"));
  });

  it("removes a song at once and restores it when the server refuses", async () => {
    const crate = service.addCrate("Road trip", ["One", "Two"]);
    renderWithKit(<CrateScreen crateUuid={crate.crate.crateUuid} />, signedInKit(service));
    await screen.findByRole("heading", { name: "Road trip" });
    service.failNext("RemoveCrateSong", new ConnectError("crate song not found", Code.NotFound));
    fireEvent.click(screen.getByRole("button", { name: "Remove One" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Crate song not found");
    expect(titles()).toEqual(["One", "Two"]);
    fireEvent.click(screen.getByRole("button", { name: "Remove One" }));
    await waitFor(() => expect(titles()).toEqual(["Two"]));
    expect(service.crates.get(crate.crate.crateUuid)?.songs.map((s) => s.trackName)).toEqual(["Two"]);
  });

  it("copies into the queue: clears it (an empty queue at once), copies, then refreshes the queue (002 §4)", async () => {
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
    fireEvent.click(screen.getByRole("button", { name: "Copy into the queue" }));
    await clear.reached;
    // Cleared in the cache before the server answered: an empty queue.
    await waitFor(() => expect(screen.queryByRole("list", { name: "Songs of Queue" })).toBeNull());
    await act(async () => clear.release());
    await waitFor(() =>
      expect(within(screen.getByRole("list", { name: "Songs of Queue" })).getAllByTestId("crate-song")).toHaveLength(2),
    );
    expect(service.calls).toEqual(["ClearQueueSongs", "CopyCrate", "GetQueue"]);
    expect(service.queue.songs.map((song) => song.trackName)).toEqual(["One", "Two"]);
    expect(screen.getByText("The queue now holds this crate's songs.")).toBeTruthy();
  });

  it("clears the queue: empty at once, then the server's crate", async () => {
    service.queue.songs.push(...service.addCrate("old", ["Old song", "Older song"]).songs);
    renderWithKit(<CrateScreen special="queue" />, signedInKit(service));
    expect(await screen.findByRole("heading", { name: "Queue" })).toBeTruthy();
    const clear = service.hold("ClearQueueSongs");
    fireEvent.click(screen.getByRole("button", { name: "Clear" }));
    await clear.reached;
    await screen.findByText("No songs in this crate yet. Find some in Search.");
    expect(screen.getByText("0 songs")).toBeTruthy();
    await act(async () => clear.release());
    await waitFor(() => expect(service.queue.songs).toHaveLength(0));
    // The special crates cannot be deleted or renamed: no such buttons.
    expect(screen.queryByRole("button", { name: "Delete crate" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Rename or describe" })).toBeNull();
  });

  it("clears the likes crate too, and keeps the server's songs when the clear is refused", async () => {
    service.likes.songs.push(...service.addCrate("old", ["Starred"]).songs);
    renderWithKit(<CrateScreen special="likes" />, signedInKit(service));
    expect(await screen.findByRole("heading", { name: "Likes" })).toBeTruthy();
    service.failNext("ClearLikesSongs", new ConnectError("internal", Code.Internal));
    fireEvent.click(screen.getByRole("button", { name: "Clear" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Something went wrong, please try again.");
    await waitFor(() => expect(titles()).toEqual(["Starred"]));
    fireEvent.click(screen.getByRole("button", { name: "Clear" }));
    await screen.findByText("No songs in this crate yet. Find some in Search.");
    await waitFor(() => expect(service.likes.songs).toHaveLength(0));
    expect(service.calls.filter((call) => call === "ClearLikesSongs")).toHaveLength(2);
  });

  it("shuffles, renames and deletes an ordinary crate", async () => {
    const crate = service.addCrate("Road trip", ["One", "Two", "Three"]);
    renderWithKit(<CrateScreen crateUuid={crate.crate.crateUuid} />, signedInKit(service));
    await screen.findByRole("heading", { name: "Road trip" });
    fireEvent.click(screen.getByRole("button", { name: "Shuffle" }));
    await waitFor(() => expect(titles()).toEqual(["Three", "Two", "One"]));

    fireEvent.click(screen.getByRole("button", { name: "Rename or describe" }));
    fireEvent.change(screen.getByLabelText("New name"), { target: { value: "Night drive" } });
    fireEvent.change(screen.getByLabelText("Description"), { target: { value: "After midnight" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByRole("heading", { name: "Night drive" })).toBeTruthy();
    expect(screen.getByText("After midnight")).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Delete crate" }));
    fireEvent.click(
      within(screen.getByRole("group", { name: "Delete crate" })).getByRole("button", { name: "Delete crate" }),
    );
    await waitFor(() => expect(service.crates.has(crate.crate.crateUuid)).toBe(false));
  });

  it("loads the next 300 songs when the list reaches its end", async () => {
    const names = Array.from({ length: 301 }, (_, i) => `Song ${i}`);
    const crate = service.addCrate("Big", names);
    renderWithKit(<CrateScreen crateUuid={crate.crate.crateUuid} />, signedInKit(service));
    await screen.findByRole("heading", { name: "Big" });
    expect(screen.getByText("300 of 301 songs")).toBeTruthy();
    // Only the rows in view are in the page.
    expect(screen.getAllByTestId("crate-song").length).toBeLessThan(40);
    fireEvent.click(screen.getByRole("button", { name: "Load more songs" }));
    await waitFor(() => expect(screen.queryByRole("button", { name: "Load more songs" })).toBeNull());
    expect(service.calls).toContain("ListCrateSongs");
  });

  it("shows another user's crate read-only: no reorder, remove, rename or delete", async () => {
    const crate = service.addCrate("Their mix", ["One", "Two"], { userUuid: "00000000-0000-4000-8000-0000000000ff" });
    renderWithKit(<CrateScreen crateUuid={crate.crate.crateUuid} />, signedInKit(service));
    await screen.findByRole("heading", { name: "Their mix" });
    expect(titles()).toEqual(["One", "Two"]);
    expect(screen.queryByRole("button", { name: "Move One down" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Remove One" })).toBeNull();
    for (const name of ["Shuffle", "Rename or describe", "Delete crate"])
      expect(screen.queryByRole("button", { name })).toBeNull();
    expect(screen.getAllByTestId("crate-song")[0]?.getAttribute("draggable")).toBe("false");
    // Copying it into one's own queue is allowed.
    expect(screen.getByRole("button", { name: "Copy into the queue" })).toBeTruthy();
  });

  it("says so when the crate does not exist", async () => {
    renderWithKit(<CrateScreen crateUuid="00000000-0000-4000-8000-00000000dead" />, signedInKit(service));
    expect((await screen.findByRole("alert")).textContent).toContain("This crate does not exist or is not yours.");
  });
});
