import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { clearToasts, toastTitles } from "../../testing/ui.ts";
import { onOpenDirectChat } from "../chat/open-direct.ts";
import { createFakeSocial, DJ_AVATAR_IMAGE, DJ_UUID, LISTENER_UUID, ROOM_UUID, type FakeSocial } from "../testing.ts";
import { openPersonCard } from "./person-card.ts";
import { PersonCard } from "./PersonCard.tsx";

const MOD_UUID = "00000000-0000-4000-8000-0000000000a1";

function render(social: FakeSocial, me: string | undefined, isModerator = false, search = "") {
  const kit = createTestKit({ routes: social.routes, search });
  if (me) {
    kit.session.signIn({ token: `t:${me}`, tokenType: "user" }, { uuid: me, email: `${me}@x.test`, role: "user" });
  }
  renderWithKit(<PersonCard room={ROOM_UUID} me={me} isModerator={isModerator} seats={[DJ_UUID]} />, kit);
  return kit;
}

/** Opens the card of `user`, as a click on them anywhere in the room does, and answers the open dialog. */
async function open(user: string): Promise<HTMLElement> {
  act(() => openPersonCard(user));
  const dialog = await screen.findByRole("dialog");
  await within(dialog).findByRole("heading", { level: 2, name: user === DJ_UUID ? "DJ Nightjar" : /./ });
  return dialog;
}

describe("the profile card (issue 25)", () => {
  let social: FakeSocial;
  beforeEach(() => {
    social = createFakeSocial();
    social.people.fanCounts.set(DJ_UUID, { fans: 1_204, following: 3 });
    clearToasts();
  });
  afterEach(() => clearToasts());

  it("shows the person: avatar image named by the nickname, role in the room in words, badges-free counts", async () => {
    render(social, LISTENER_UUID);
    const dialog = await open(DJ_UUID);
    expect(within(dialog).getByRole("heading", { name: "DJ Nightjar" })).toBeTruthy();
    await waitFor(() =>
      expect(within(dialog).getByRole("img", { name: "DJ Nightjar" }).getAttribute("src")).toBe(DJ_AVATAR_IMAGE),
    );
    // The owner of the room, in the booth now: in words, never an internal name.
    const roles = within(dialog).getByLabelText("Role in this room");
    await waitFor(() => expect(roles.textContent).toContain("Owner"));
    expect(roles.textContent).toContain("In the DJ booth");
    await waitFor(() => expect(within(dialog).getByTestId("fan-count").textContent).toBe("1,204"));
    expect(within(dialog).getByTestId("following-count").textContent).toBe("3");
    // No id anywhere on the card.
    expect(dialog.textContent).not.toContain(DJ_UUID);
  });

  it("follows and unfollows the DJ, the counts following, with no 404 asked on the way", async () => {
    render(social, LISTENER_UUID);
    const dialog = await open(DJ_UUID);
    fireEvent.click(await within(dialog).findByRole("button", { name: "Follow" }));
    await waitFor(() => expect(social.people.follows.has(`${LISTENER_UUID}→${DJ_UUID}`)).toBe(true));
    await waitFor(() => expect(toastTitles()).toContain("You follow DJ Nightjar"));
    await waitFor(() => expect(within(dialog).getByTestId("fan-count").textContent).toBe("1,205"));
    fireEvent.click(await within(dialog).findByRole("button", { name: "Unfollow" }));
    await waitFor(() => expect(social.people.follows.size).toBe(0));
    await within(dialog).findByRole("button", { name: "Follow" });
    expect(toastTitles()).toContain("You no longer follow DJ Nightjar");
    // Whether I follow them and blocked them came with the friendship: the GETs that answer 404 were never asked.
    expect(social.people.calls.map((call) => call.method)).not.toContain("GetDjFan");
    expect(social.people.calls.map((call) => call.method)).not.toContain("GetBlockedUser");
  });

  it("shows a DJ you follow and blocked as such, told by the one friendship answer", async () => {
    social.people.follows.add(`${LISTENER_UUID}→${DJ_UUID}`);
    social.people.blocks.add(`${LISTENER_UUID}→${DJ_UUID}`);
    render(social, LISTENER_UUID);
    const dialog = await open(DJ_UUID);
    expect(await within(dialog).findByRole("button", { name: "Unfollow" })).toBeTruthy();
    expect(within(dialog).getByRole("button", { name: "Unblock" })).toBeTruthy();
    const asked = social.people.calls.map((call) => call.method);
    expect(asked).not.toContain("GetDjFan");
    expect(asked).not.toContain("GetBlockedUser");
  });

  it("Message opens the direct conversation with them and closes the card", async () => {
    const asked: string[] = [];
    const stop = onOpenDirectChat((user) => asked.push(user));
    render(social, LISTENER_UUID);
    const dialog = await open(DJ_UUID);
    fireEvent.click(within(dialog).getByRole("button", { name: "Message" }));
    expect(asked).toEqual([DJ_UUID]);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    stop();
  });

  it("invites as a friend and blocks after a confirmation", async () => {
    render(social, LISTENER_UUID);
    const dialog = await open(DJ_UUID);
    fireEvent.click(await within(dialog).findByRole("button", { name: "Invite as a friend" }));
    await within(dialog).findByText("Invitation sent");
    expect(social.people.invitations.has(`${LISTENER_UUID}→${DJ_UUID}`)).toBe(true);
    fireEvent.click(within(dialog).getByRole("button", { name: "Block…" }));
    const confirm = await screen.findByRole("alertdialog");
    expect(within(confirm).getByRole("heading").textContent).toBe("Block DJ Nightjar?");
    expect(social.people.blocks.size).toBe(0);
    fireEvent.click(within(confirm).getByRole("button", { name: "Block" }));
    await waitFor(() => expect(social.people.blocks.has(`${LISTENER_UUID}→${DJ_UUID}`)).toBe(true));
    await within(dialog).findByRole("button", { name: "Unblock" });
    expect(toastTitles()).toContain("DJ Nightjar is blocked");
  });

  it("is read-only for a guest: who they are, no actions", async () => {
    render(social, undefined);
    const dialog = await open(DJ_UUID);
    await waitFor(() => expect(within(dialog).getByTestId("fan-count").textContent).toBe("1,204"));
    expect(within(dialog).getByText("Sign in to follow, message or invite people.")).toBeTruthy();
    expect(
      within(dialog)
        .getAllByRole("button")
        .map((button) => button.textContent || button.getAttribute("aria-label")),
    ).toEqual(["Close"]);
    expect(within(dialog).queryByRole("heading", { name: "Moderation" })).toBeNull();
  });

  it("shows your own card without actions on yourself", async () => {
    render(social, DJ_UUID, true);
    const dialog = await open(DJ_UUID);
    expect(within(dialog).getByText("This is you")).toBeTruthy();
    expect(within(dialog).queryByRole("button", { name: "Follow" })).toBeNull();
    expect(within(dialog).queryByRole("heading", { name: "Moderation" })).toBeNull();
  });

  it("gives a moderator kick, ban, chat and DJ restrictions and roles, each confirmed, the server's refusal shown", async () => {
    social.nicknames.set(LISTENER_UUID, "Robin");
    render(social, MOD_UUID, true);
    const dialog = await open(LISTENER_UUID);
    await within(dialog).findByRole("heading", { level: 2, name: "Robin" });
    const moderation = within(dialog).getByRole("region", { name: "Moderation" });
    expect(
      within(moderation)
        .getAllByRole("button")
        .map((button) => button.textContent),
    ).toEqual(["Kick…", "Ban…", "Disable chat…", "Disable DJing…", "Make a DJ…", "Make a moderator…"]);

    // Kick: nothing happens before the confirmation; then for 15 minutes by default.
    fireEvent.click(within(moderation).getByRole("button", { name: "Kick…" }));
    let confirm = await screen.findByRole("alertdialog");
    expect(within(confirm).getByRole("heading").textContent).toBe("Kick Robin from the room?");
    expect(social.calls.some((call) => call.method === "KickUserFromRoom")).toBe(false);
    const before = Date.now();
    fireEvent.click(within(confirm).getByRole("button", { name: "Kick" }));
    await waitFor(() => expect(toastTitles()).toContain("Robin was kicked"));
    const kick = social.calls.find((call) => call.method === "KickUserFromRoom")!.input as {
      roomId: string;
      userId: string;
      until: { seconds: bigint };
    };
    expect(kick).toMatchObject({ roomId: ROOM_UUID, userId: LISTENER_UUID });
    expect(Number(kick.until.seconds) * 1000).toBeGreaterThanOrEqual(before + 15 * 60_000 - 1000);
    expect(Number(kick.until.seconds) * 1000).toBeLessThan(before + 16 * 60_000);

    // Chat-disable for a day by default; the card then says until when, and offers to lift it.
    fireEvent.click(within(moderation).getByRole("button", { name: "Disable chat…" }));
    confirm = await screen.findByRole("alertdialog");
    expect(within(confirm).getByRole("combobox", { name: "For how long" }).textContent).toBe("1 day");
    fireEvent.click(within(confirm).getByRole("button", { name: "Disable chat" }));
    await waitFor(() => expect(toastTitles()).toContain("Robin can no longer chat here"));
    expect(social.roles).toMatchObject([{ userUuid: LISTENER_UUID, role: "chatDisabled" }]);
    expect(social.roles[0]!.expiresAt!.getTime()).toBeGreaterThan(before + 23 * 3_600_000);
    await within(dialog).findByText(/Chat disabled until/);
    await within(moderation).findByRole("button", { name: "Lift: Chat disabled…" });

    // A refusal: the server's message in the dialog, which stays open; nothing changes.
    social.refusals.set("GrantRoomRole", "Insufficient room role");
    fireEvent.click(within(moderation).getByRole("button", { name: "Make a moderator…" }));
    confirm = await screen.findByRole("alertdialog");
    expect(within(confirm).getByRole("heading").textContent).toBe("Make Robin a moderator of this room?");
    fireEvent.click(within(confirm).getByRole("button", { name: "Grant" }));
    expect(await within(confirm).findByText("Insufficient room role")).toBeTruthy();
    expect(screen.getByRole("alertdialog")).toBe(confirm);
    expect(social.roles).toHaveLength(1);
    fireEvent.click(within(confirm).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());

    // Granted DJ, the card offers to remove it.
    social.refusals.clear();
    fireEvent.click(within(moderation).getByRole("button", { name: "Make a DJ…" }));
    fireEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Grant" }));
    await within(moderation).findByRole("button", { name: "Remove as DJ…" });
    expect(toastTitles()).toContain("Robin is now a DJ here");
  });

  it("lets a moderator remove a DJ from the seat, and ban", async () => {
    render(social, MOD_UUID, true);
    social.change((stage) => (stage.seats = [{ $typeName: "tt.social.v1.StageSeat", userUuid: DJ_UUID }]));
    const dialog = await open(DJ_UUID);
    const moderation = within(dialog).getByRole("region", { name: "Moderation" });
    fireEvent.click(within(moderation).getByRole("button", { name: "Remove from the seat…" }));
    fireEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(toastTitles()).toContain("DJ Nightjar left the booth"));
    expect(social.calls.find((call) => call.method === "RemoveFromSeat")?.input).toMatchObject({
      room: ROOM_UUID,
      user: DJ_UUID,
    });
    fireEvent.click(within(moderation).getByRole("button", { name: "Ban…" }));
    fireEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Ban" }));
    await waitFor(() => expect(toastTitles()).toContain("DJ Nightjar was banned"));
    expect(social.roles).toMatchObject([{ userUuid: DJ_UUID, role: "banned" }]);
  });

  it("speaks Spanish", async () => {
    render(social, LISTENER_UUID, false, "?lang=es");
    const dialog = await open(DJ_UUID);
    expect(await within(dialog).findByRole("button", { name: "Seguir" })).toBeTruthy();
    expect(within(dialog).getByRole("button", { name: "Mensaje" })).toBeTruthy();
    await waitFor(() =>
      expect(within(dialog).getByLabelText("Papel en esta sala").textContent).toContain("En la cabina"),
    );
  });
});
