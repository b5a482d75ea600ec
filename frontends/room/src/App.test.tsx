import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { App } from "./App.tsx";
import {
  createTestRoomService,
  FRIEND_UUID,
  OTHER_UUID,
  OWNER_UUID,
  tokenOf,
  type TestRoomService,
} from "./testing/room-service.ts";
import { choose, chooseTab, clearToasts, confirm, confirmation, pickPerson, toastTitles } from "./testing/ui.ts";

function kitFor(service: TestRoomService, userUuid?: string, search = "") {
  const kit = createTestKit({ routes: service.routes, search });
  if (userUuid) {
    kit.session.signIn(
      { token: tokenOf(userUuid), tokenType: "user" },
      { uuid: userUuid, email: `${userUuid}@example.com`, role: "user" },
    );
  }
  return kit;
}

const go = (path: string) => window.history.replaceState(null, "", `/room${path}`);

describe("room remote", () => {
  let service: TestRoomService;
  beforeEach(() => {
    service = createTestRoomService();
    go("/");
    clearToasts();
  });
  afterEach(() => window.history.replaceState(null, "", "/"));

  it("lists public rooms and searches them by name", async () => {
    service.addRoom("Jazz Cellar");
    service.addRoom("Techno Bunker", OWNER_UUID, { isLive: true });
    service.addRoom("Secret club", OWNER_UUID, { type: "PRIVATE" });
    renderWithKit(<App />, kitFor(service));
    const list = await screen.findByRole("list", { name: "Public rooms" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(2);
    expect(within(list).queryByText("Secret club")).toBeNull();
    fireEvent.change(screen.getByRole("searchbox", { name: "Search rooms by name" }), { target: { value: "jazz" } });
    await waitFor(() => expect(within(screen.getByRole("list")).getAllByRole("listitem")).toHaveLength(1));
    expect(screen.getByRole("link", { name: "Jazz Cellar" }).getAttribute("href")).toBe("/room/r/jazz-cellar");
  });

  it("shows each live room's listeners, song and DJs by name on its card", async () => {
    service.addRoom("Jazz Cellar");
    const bunker = service.addRoom("Techno Bunker", OWNER_UUID);
    service.listeners.set(bunker.uuid, [OWNER_UUID, OTHER_UUID, FRIEND_UUID]);
    service.booths.set(bunker.uuid, {
      djs: [OWNER_UUID, OTHER_UUID],
      song: { trackName: "Strobe", artistName: "deadmau5" },
    });
    renderWithKit(<App />, kitFor(service));
    const list = await screen.findByRole("list", { name: "Public rooms" });
    const card = within(list).getByRole("link", { name: "Techno Bunker" }).closest("li")!;
    expect(await within(card).findByText("Playing Strobe by deadmau5")).toBeTruthy();
    expect(within(card).getByText(/3 listeners/)).toBeTruthy();
    await waitFor(() => expect(within(card).getByText("On the decks: Olivia, Oscar")).toBeTruthy());
    expect(within(card).getByText("Live")).toBeTruthy();
    // A room nobody is in shows no live lines.
    const quiet = within(list).getByRole("link", { name: "Jazz Cellar" }).closest("li")!;
    expect(within(quiet).queryByText(/listeners|Playing/)).toBeNull();
  });

  it("asks a guest to sign in for their own rooms, and shows a user's rooms", async () => {
    service.addRoom("Mine", OTHER_UUID);
    service.addRoom("Not mine", OWNER_UUID);
    renderWithKit(<App />, kitFor(service));
    chooseTab(await screen.findByRole("tab", { name: "Your rooms" }));
    expect(await screen.findByRole("heading", { name: "Sign in to see your rooms" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Log in" }).getAttribute("href")).toBe("/login");
    expect(service.calls).not.toContain("ListMyRooms");
  });

  it("lists the signed-in user's rooms", async () => {
    service.addRoom("Mine", OTHER_UUID);
    service.addRoom("Not mine", OWNER_UUID);
    renderWithKit(<App />, kitFor(service, OTHER_UUID));
    chooseTab(await screen.findByRole("tab", { name: "Your rooms" }));
    const list = await screen.findByRole("list", { name: "Your rooms" });
    expect(within(list).getByText("Mine")).toBeTruthy();
    expect(within(list).queryByText("Not mine")).toBeNull();
  });

  it("creates a room with its settings and opens its page with the join answer", async () => {
    go("/create");
    renderWithKit(<App />, kitFor(service, OWNER_UUID));
    fireEvent.change(await screen.findByRole("textbox", { name: "Name" }), {
      target: { value: "Night Owls" },
    });
    // The pickers show words, never the internal values.
    const design = screen.getByRole("combobox", { name: "Design" });
    expect(design.textContent).toBe("Club");
    choose(screen.getByRole("combobox", { name: "Who can enter" }), "PRIVATE");
    choose(design, "YACHT");
    await waitFor(() => expect(design.textContent).toBe("Yacht"));
    fireEvent.change(screen.getByRole("spinbutton", { name: /DJ seats/ }), { target: { value: "3" } });
    fireEvent.click(screen.getByRole("checkbox", { name: "Your uploads" }));
    fireEvent.click(screen.getByRole("button", { name: "Create the room" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Night Owls" })).toBeTruthy();
    expect(window.location.pathname).toBe("/room/r/night-owls");
    const created = service.rooms[0];
    expect(created).toMatchObject({
      type: "PRIVATE",
      design: "YACHT",
      numberOfDjs: 3,
      musicProviders: ["uploadService"],
    });
    expect(toastTitles()).toContain("Night Owls is open");
    // Roles as words.
    expect(screen.getByTestId("my-roles").textContent).toContain("Owner");
    expect(screen.getByText("You moderate this room")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Settings" })).toBeTruthy();
    // Issue 14: the live stage comes first; the room's details and the caller's roles are folded below it.
    const details = screen.getByTestId("room-details");
    expect(details.hasAttribute("open")).toBe(false);
    expect(within(details).getByText("Room settings")).toBeTruthy();
    expect(within(details).getByTestId("my-roles")).toBeTruthy();
    const stage = await screen.findByRole("region", { name: "Live stage" });
    expect(stage.compareDocumentPosition(details) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("checks the fields before sending: a name is needed, seats are 1–10", async () => {
    go("/create");
    renderWithKit(<App />, kitFor(service, OWNER_UUID));
    fireEvent.change(await screen.findByRole("spinbutton", { name: /DJ seats/ }), {
      target: { value: "40" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Create the room" }));
    await waitFor(() =>
      expect(screen.getByRole("textbox", { name: "Name" }).getAttribute("aria-invalid")).toBe("true"),
    );
    expect(screen.getByText("Give the room a name.")).toBeTruthy();
    expect(screen.getByText("Between 1 and 10 seats.")).toBeTruthy();
    expect(service.calls).not.toContain("CreateRoom");
  });

  it("shows the server's text when the name is taken", async () => {
    service.addRoom("Night Owls");
    go("/create");
    renderWithKit(<App />, kitFor(service, OWNER_UUID));
    fireEvent.change(await screen.findByRole("textbox", { name: "Name" }), {
      target: { value: "Night Owls" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Create the room" }));
    expect((await screen.findByRole("alert")).textContent).toBe("A room with this name already exists");
  });

  it("refuses a banned user at the door with the server's message", async () => {
    const room = service.addRoom("Strict");
    service.grants.push({
      ...service.grants[0]!,
      id: "g",
      roomUuid: room.uuid,
      userUuid: OTHER_UUID,
      role: "banned",
    } as never);
    go("/r/strict");
    renderWithKit(<App />, kitFor(service, OTHER_UUID));
    expect(await screen.findByRole("heading", { name: "You cannot enter this room" })).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toBe("You are banned from this room");
    // No password lifts a ban: no password form.
    expect(screen.queryByLabelText("Guest password")).toBeNull();
    expect(screen.getByRole("link", { name: "Back to the rooms" })).toBeTruthy();
  });

  it("tells a kicked user at the door until when, in their own time, never the server's raw time", async () => {
    const room = service.addRoom("Bouncer");
    const until = Date.UTC(2030, 0, 1, 12);
    service.grants.push({
      ...service.grants[0]!,
      id: "k",
      roomUuid: room.uuid,
      userUuid: OTHER_UUID,
      role: "kicked",
      expiresAt: timestampFromMs(until),
    } as never);
    go("/r/bouncer");
    renderWithKit(<App />, kitFor(service, OTHER_UUID));
    const alert = await screen.findByTestId("room-kicked");
    expect(alert.textContent).toContain("You were kicked from this room.");
    expect(alert.textContent).toMatch(/You can come back after .*2030.* \(your time\)/);
    expect(alert.textContent).not.toContain("2030-01-01T");
  });

  it("lets a private room's guest in with the password", async () => {
    service.addRoom("Hidden", OWNER_UUID, { type: "PRIVATE" });
    go("/r/hidden");
    renderWithKit(<App />, kitFor(service, OTHER_UUID));
    expect((await screen.findByRole("alert")).textContent).toBe("This room is private");
    fireEvent.change(screen.getByLabelText("Guest password"), { target: { value: "letmein" } });
    fireEvent.click(screen.getByRole("button", { name: "Enter with the password" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Hidden" })).toBeTruthy();
    expect(screen.queryByRole("link", { name: "Settings" })).toBeNull();
  });

  it("settings: the owner picks a listener by nickname, makes them a moderator, and removes the role after confirming", async () => {
    const room = service.addRoom("Owned");
    service.listeners.set(room.uuid, [OWNER_UUID, OTHER_UUID]);
    go(`/r/${room.uuid}/settings`);
    renderWithKit(<App />, kitFor(service, OWNER_UUID));
    expect(await screen.findByRole("heading", { level: 1, name: "Settings of Owned" })).toBeTruthy();
    const grant = screen.getByRole("form", { name: "Give a role" });
    // No id is typed: the field lists the people in the room (the caller left out) by nickname and why.
    const person = within(grant).getByRole("combobox", { name: "Person" });
    fireEvent.click(person);
    const list = await screen.findByRole("listbox", { name: "Person" });
    const options = await within(list).findAllByRole("option");
    expect(options.map((option) => option.textContent)).toEqual(["OscarIn the room now"]);
    expect(list.textContent).not.toContain(OTHER_UUID);
    await pickPerson(grant, "Person", "osc", "Oscar");
    const role = within(grant).getByRole("combobox", { name: "Role" });
    expect(role.textContent).toBe("Moderator");
    choose(role, "dj");
    await waitFor(() => expect(role.textContent).toBe("DJ"));
    choose(role, "moderator");
    fireEvent.click(within(grant).getByRole("button", { name: "Give the role" }));
    // The role list names people by their nickname and roles by their word, never an id.
    const roles = await screen.findByRole("list", { name: "Roles" });
    await waitFor(() => expect(roles.textContent).toContain("Oscar"));
    expect(roles.textContent).toContain("Moderator");
    expect(roles.textContent).toContain("No end date");
    expect(roles.textContent).not.toContain(OTHER_UUID);
    expect(service.grants[0]).toMatchObject({ userUuid: OTHER_UUID, role: "moderator" });
    expect(toastTitles()).toContain("Saved");

    fireEvent.click(within(roles).getByRole("button", { name: "Remove Moderator from Oscar" }));
    await confirm("Remove");
    await waitFor(() => expect(service.grants).toHaveLength(0));
    expect(toastTitles()).toContain("Oscar is no longer Moderator");
  });

  it("settings: a bad seat count is refused on its field; the server's refusal shows on the field it names", async () => {
    const room = service.addRoom("Owned");
    service.friends.set(OWNER_UUID, [FRIEND_UUID]);
    go(`/r/${room.uuid}/settings`);
    renderWithKit(<App />, kitFor(service, OWNER_UUID));
    const seats = await screen.findByRole("form", { name: "DJ seats" });
    fireEvent.change(within(seats).getByRole("spinbutton"), { target: { value: "40" } });
    fireEvent.click(within(seats).getByRole("button", { name: "Save" }));
    expect(await within(seats).findByText("Between 1 and 10 seats.")).toBeTruthy();
    expect(service.calls).not.toContain("SetDjSeats");
    fireEvent.change(within(seats).getByRole("spinbutton"), { target: { value: "3" } });
    fireEvent.click(within(seats).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(service.rooms[0]?.numberOfDjs).toBe(3));

    // A role ending in the past: the server's message names expiresAt, so it shows under that field.
    const grant = screen.getByRole("form", { name: "Give a role" });
    // A friend who is not in the room is listed too, and says why.
    fireEvent.change(within(grant).getByRole("combobox", { name: "Person" }), { target: { value: "fri" } });
    const frida = await screen.findByRole("option", { name: "Frida" });
    expect(
      frida.getAttribute("aria-describedby") &&
        document.getElementById(frida.getAttribute("aria-describedby")!)?.textContent,
    ).toBe("Your friend");
    await pickPerson(grant, "Person", "fri", "Frida");
    fireEvent.change(within(grant).getByLabelText("Ends (optional)"), { target: { value: "2001-01-01T10:00" } });
    fireEvent.click(within(grant).getByRole("button", { name: "Give the role" }));
    const ends = within(grant).getByLabelText("Ends (optional)");
    await waitFor(() => expect(ends.getAttribute("aria-invalid")).toBe("true"));
    expect(within(grant).getByText("ExpiresAt must be in the future")).toBeTruthy();
    expect(service.calls).toContain("GrantRoomRole");
  });

  it("settings: pins messages, uploads a poster and kicks a user until a time", async () => {
    const room = service.addRoom("Owned");
    service.listeners.set(room.uuid, [OTHER_UUID]);
    go(`/r/${room.uuid}/settings`);
    renderWithKit(<App />, kitFor(service, OWNER_UUID));
    const pinned = await screen.findByRole("form", { name: "Pinned messages" });
    fireEvent.change(within(pinned).getByRole("textbox"), { target: { value: "Be kind\n\n  No spam  " } });
    fireEvent.click(within(pinned).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(service.rooms[0]?.pinnedMessages).toEqual(["Be kind", "No spam"]));
    expect(toastTitles()).toContain("Saved");

    const poster = screen.getByRole("form", { name: "Poster" });
    const file = new File([new Uint8Array([137, 80, 78, 71])], "poster.png", { type: "image/png" });
    fireEvent.change(within(poster).getByLabelText("Poster image"), { target: { files: [file] } });
    fireEvent.click(within(poster).getByRole("button", { name: "Upload" }));
    await waitFor(() => expect(service.rooms[0]?.posterUrl).toContain("poster.png"));
    expect(service.calls).toContain("UploadPoster");

    const kick = screen.getByRole("form", { name: "Kick or ban" });
    await pickPerson(kick, "Person", "O", "Oscar");
    fireEvent.change(within(kick).getByLabelText(/Kicked until/), { target: { value: "2099-01-01T10:00" } });
    fireEvent.click(within(kick).getByRole("button", { name: "Kick" }));
    // Asked first, by the person's nickname and until when, in words.
    const dialog = await confirmation();
    await waitFor(() => expect(within(dialog).getByRole("heading").textContent).toBe("Kick Oscar from the room?"));
    expect(dialog.textContent).toContain("2099");
    await confirm("Kick");
    const roles = await screen.findByRole("list", { name: "Roles" });
    await waitFor(() => expect(roles.textContent).toContain("Kicked"));
    expect(roles.textContent).toContain("Until");
    expect(
      service.grants[0]?.expiresAt && new Date(Number(service.grants[0].expiresAt.seconds) * 1000).getFullYear(),
    ).toBe(2099);
    expect(toastTitles()).toContain("Oscar was kicked");
  });

  it("settings: a user without a role is told the page is for owners and moderators", async () => {
    const room = service.addRoom("Owned");
    go(`/r/${room.uuid}/settings`);
    renderWithKit(<App />, kitFor(service, OTHER_UUID));
    expect(await screen.findByText("Only the room's owners and moderators can change its settings.")).toBeTruthy();
    expect(screen.queryByRole("form", { name: "Give a role" })).toBeNull();
  });

  it("shows a community with its rooms by name, and joins it", async () => {
    const jazz = service.addRoom("Jazz Cellar");
    const community = service.addCommunity("Jazz lovers", [jazz.uuid]);
    go(`/communities/${community.id}`);
    renderWithKit(<App />, kitFor(service, OTHER_UUID));
    expect(await screen.findByRole("heading", { level: 1, name: "Jazz lovers" })).toBeTruthy();
    expect((await screen.findByRole("link", { name: "Jazz Cellar" })).getAttribute("href")).toBe("/room/r/jazz-cellar");
    fireEvent.click(await screen.findByRole("button", { name: "Join" }));
    expect(await screen.findByText("1 member")).toBeTruthy();
    expect(toastTitles()).toContain("You joined Jazz lovers");
    // A member leaves, after confirming.
    fireEvent.click(await screen.findByRole("button", { name: "Leave" }));
    await confirm("Leave");
    expect(await screen.findByText("0 members")).toBeTruthy();
    expect(toastTitles()).toContain("You left Jazz lovers");
  });

  it("shows the server's message for a community that cannot be shown", async () => {
    go("/communities/nope");
    renderWithKit(<App />, kitFor(service, OTHER_UUID));
    expect(await screen.findByRole("heading", { name: "This community cannot be shown" })).toBeTruthy();
    expect(screen.getByText("Community not found")).toBeTruthy();
  });

  it("says what to do when a list is empty: no public rooms, no match for a search", async () => {
    renderWithKit(<App />, kitFor(service, OTHER_UUID));
    expect(await screen.findByRole("heading", { name: "No live rooms yet — start one" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Start a room" }).getAttribute("href")).toBe("/room/create");
    fireEvent.change(screen.getByRole("searchbox", { name: "Search rooms by name" }), { target: { value: "zz" } });
    expect(await screen.findByRole("heading", { name: "No rooms match “zz”" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Clear the search" }));
    expect(await screen.findByRole("heading", { name: "No live rooms yet — start one" })).toBeTruthy();
  });

  it("shows upcoming events with their times in words, never an ISO string", async () => {
    go("/events");
    renderWithKit(<App />, kitFor(service));
    expect(await screen.findByText("Friday set")).toBeTruthy();
    const list = screen.getByRole("list", { name: "Upcoming" });
    expect(list.textContent).toMatch(/June/);
    expect(list.textContent).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });

  it("speaks Spanish with ?lang=es", async () => {
    service.addRoom("Sala uno");
    renderWithKit(<App />, kitFor(service, undefined, "?lang=es"));
    expect(await screen.findByRole("heading", { level: 1, name: "Salas" })).toBeTruthy();
    expect(screen.getByRole("tab", { name: "Salas públicas" })).toBeTruthy();
    expect(await screen.findByText("Club")).toBeTruthy();
  });
});
