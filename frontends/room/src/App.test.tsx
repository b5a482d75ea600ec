import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { App } from "./App.tsx";
import {
  createTestRoomService,
  OTHER_UUID,
  OWNER_UUID,
  tokenOf,
  type TestRoomService,
} from "./testing/room-service.ts";

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

  it("asks a guest to sign in for their own rooms, and shows a user's rooms", async () => {
    service.addRoom("Mine", OTHER_UUID);
    service.addRoom("Not mine", OWNER_UUID);
    renderWithKit(<App />, kitFor(service));
    fireEvent.click(await screen.findByRole("tab", { name: "Your rooms" }));
    expect(screen.getByRole("status").textContent).toContain("Sign in");
    expect(service.calls).not.toContain("ListMyRooms");
  });

  it("lists the signed-in user's rooms", async () => {
    service.addRoom("Mine", OTHER_UUID);
    service.addRoom("Not mine", OWNER_UUID);
    renderWithKit(<App />, kitFor(service, OTHER_UUID));
    fireEvent.click(await screen.findByRole("tab", { name: "Your rooms" }));
    const list = await screen.findByRole("list", { name: "Your rooms" });
    expect(within(list).getByText("Mine")).toBeTruthy();
    expect(within(list).queryByText("Not mine")).toBeNull();
  });

  it("creates a room with its settings and opens its page with the join answer", async () => {
    go("/create");
    renderWithKit(<App />, kitFor(service, OWNER_UUID));
    fireEvent.change(await screen.findByRole("textbox", { name: "Name" }), { target: { value: "Night Owls" } });
    fireEvent.change(screen.getByRole("combobox", { name: "Who can enter" }), { target: { value: "PRIVATE" } });
    fireEvent.change(screen.getByRole("combobox", { name: "Design" }), { target: { value: "YACHT" } });
    fireEvent.change(screen.getByRole("spinbutton", { name: /DJ seats/ }), { target: { value: "3" } });
    fireEvent.click(screen.getByRole("button", { name: "Create the room" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Night Owls" })).toBeTruthy();
    expect(window.location.pathname).toBe("/room/r/night-owls");
    const created = service.rooms[0];
    expect(created).toMatchObject({ type: "PRIVATE", design: "YACHT", numberOfDjs: 3 });
    expect(screen.getByTestId("my-roles").textContent).toContain("owner");
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

  it("shows the server's text when the name is taken", async () => {
    service.addRoom("Night Owls");
    go("/create");
    renderWithKit(<App />, kitFor(service, OWNER_UUID));
    fireEvent.change(await screen.findByRole("textbox", { name: "Name" }), { target: { value: "Night Owls" } });
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

  it("settings: the owner makes another user a moderator and sees the server's refusal of a bad seat count", async () => {
    const room = service.addRoom("Owned");
    go(`/r/${room.uuid}/settings`);
    renderWithKit(<App />, kitFor(service, OWNER_UUID));
    expect(await screen.findByRole("heading", { level: 1, name: "Settings of Owned" })).toBeTruthy();
    const grant = screen.getByRole("form", { name: "Grant" });
    fireEvent.change(within(grant).getByRole("textbox", { name: "User id" }), { target: { value: OTHER_UUID } });
    fireEvent.change(within(grant).getByRole("combobox", { name: "Role" }), { target: { value: "moderator" } });
    fireEvent.click(within(grant).getByRole("button", { name: "Grant" }));
    const roles = await screen.findByRole("list", { name: "Roles" });
    await waitFor(() => expect(roles.textContent).toContain(`${OTHER_UUID} — moderator (no expiry)`));
    expect(service.grants[0]).toMatchObject({ userUuid: OTHER_UUID, role: "moderator" });

    const seats = screen.getByRole("form", { name: "DJ seats" });
    fireEvent.change(within(seats).getByRole("spinbutton"), { target: { value: "40" } });
    fireEvent.click(within(seats).getByRole("button", { name: "Save" }));
    expect((await within(seats).findByRole("alert")).textContent).toBe("Seats must be between 1 and 10");
    expect(service.calls).toContain("SetDjSeats");

    fireEvent.click(within(roles).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(service.grants).toHaveLength(0));
  });

  it("settings: pins messages, uploads a poster and kicks a user until a time", async () => {
    const room = service.addRoom("Owned");
    go(`/r/${room.uuid}/settings`);
    renderWithKit(<App />, kitFor(service, OWNER_UUID));
    const pinned = await screen.findByRole("form", { name: "Pinned messages" });
    fireEvent.change(within(pinned).getByRole("textbox"), { target: { value: "Be kind\n\n  No spam  " } });
    fireEvent.click(within(pinned).getByRole("button", { name: "Save" }));
    await within(pinned).findByText("Saved.");
    expect(service.rooms[0]?.pinnedMessages).toEqual(["Be kind", "No spam"]);

    const poster = screen.getByRole("form", { name: "Poster" });
    const file = new File([new Uint8Array([137, 80, 78, 71])], "poster.png", { type: "image/png" });
    fireEvent.change(within(poster).getByLabelText("Poster image"), { target: { files: [file] } });
    fireEvent.click(within(poster).getByRole("button", { name: "Upload" }));
    await waitFor(() => expect(service.rooms[0]?.posterUrl).toContain("poster.png"));
    expect(service.calls).toContain("UploadPoster");

    const kick = screen.getByRole("form", { name: "Kick" });
    fireEvent.change(within(kick).getByRole("textbox", { name: "User id" }), { target: { value: OTHER_UUID } });
    fireEvent.change(within(kick).getByLabelText(/Kicked until/), { target: { value: "2099-01-01T10:00" } });
    fireEvent.click(within(kick).getByRole("button", { name: "Kick" }));
    const roles = await screen.findByRole("list", { name: "Roles" });
    await waitFor(() => expect(roles.textContent).toContain(`${OTHER_UUID} — kicked (until`));
    expect(
      service.grants[0]?.expiresAt && new Date(Number(service.grants[0].expiresAt.seconds) * 1000).getFullYear(),
    ).toBe(2099);
  });

  it("settings: a user without a role is told the page is for owners and moderators", async () => {
    const room = service.addRoom("Owned");
    go(`/r/${room.uuid}/settings`);
    renderWithKit(<App />, kitFor(service, OTHER_UUID));
    expect((await screen.findByRole("alert")).textContent).toContain("Only the room's owners and moderators");
    expect(screen.queryByRole("form", { name: "Grant" })).toBeNull();
  });

  it("shows a community with its rooms by name, and joins it", async () => {
    const jazz = service.addRoom("Jazz Cellar");
    const community = service.addCommunity("Jazz lovers", [jazz.uuid]);
    go(`/communities/${community.id}`);
    renderWithKit(<App />, kitFor(service, OTHER_UUID));
    expect(await screen.findByRole("heading", { level: 1, name: "Jazz lovers" })).toBeTruthy();
    expect((await screen.findByRole("link", { name: "Jazz Cellar" })).getAttribute("href")).toBe("/room/r/jazz-cellar");
    fireEvent.click(screen.getByRole("button", { name: "Join" }));
    expect(await screen.findByText("1 members")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Join" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Already a member");
  });

  it("shows upcoming events", async () => {
    go("/events");
    renderWithKit(<App />, kitFor(service));
    expect(await screen.findByText("Friday set")).toBeTruthy();
  });

  it("speaks Spanish with ?lang=es", async () => {
    service.addRoom("Sala uno");
    renderWithKit(<App />, kitFor(service, undefined, "?lang=es"));
    expect(await screen.findByRole("heading", { level: 1, name: "Salas" })).toBeTruthy();
    expect(screen.getByRole("tab", { name: "Salas públicas" })).toBeTruthy();
  });
});
