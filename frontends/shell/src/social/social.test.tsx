import { create } from "@bufbuild/protobuf";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { DjFanSchema } from "@tt/proto/tt/room/v1/dj_fan_service_pb";
import { FriendInvitationSchema } from "@tt/proto/tt/room/v1/friend_service_pb";
import { userEvent } from "@testing-library/user-event";
import { createTestKit, createTestUserService } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { openAccountMenu, renderShell } from "../testing/render-shell.tsx";
import { followerTake } from "./api.ts";
import { createTestSocialService, tokenOf } from "./test-social-service.ts";

// The test user service numbers its accounts from 1: the first account made in each setup is this one.
const ME = "00000000-0000-4000-8000-000000000001";
const DJ = "00000000-0000-4000-8000-0000000000b2";

function setup(path: string, signedIn = true, search = "") {
  const social = createTestSocialService();
  const users = createTestUserService();
  const kit = createTestKit({
    search,
    routes: (router) => {
      users.routes(router);
      social.routes(router);
    },
  });
  if (signedIn) {
    // The shell checks the session with the user service: the account and its token exist there too.
    const account = users.addAccount("me@example.com", "correct-horse-1");
    expect(account.uuid).toBe(ME);
    users.tokens.set(tokenOf(ME), { type: "user", uuid: ME });
    kit.session.signIn({ token: tokenOf(ME), tokenType: "user" }, { uuid: ME, email: "me@example.com", role: "user" });
  }
  return { social, kit, render: () => renderShell({ path, kit }) };
}

const fanUuid = (n: number) => `00000000-0000-4000-8000-${String(1000 + n).padStart(12, "0")}`;

describe("followerTake (002 §9)", () => {
  it.each([
    [1, 12],
    [2, 24],
    [12, 144],
    [13, 150],
    [100, 150],
  ])("%i pages → take %i", (pages, take) => expect(followerTake(pages)).toBe(take));
});

describe("shell social screens", () => {
  it("links the signed-in user's menu to their friends and fans", async () => {
    const user = userEvent.setup();
    const { render } = setup("/");
    render();
    await openAccountMenu(user);
    await user.click(await screen.findByRole("menuitem", { name: "Friends and fans" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Friends and fans" })).toBeTruthy();
  });

  it("shows fans in pages of 12 and fetches the next page on demand", async () => {
    const { social, render } = setup("/people");
    for (let n = 0; n < 30; n++) social.fans.push(create(DjFanSchema, { id: `f${n}`, djId: ME, fanId: fanUuid(n) }));
    render();
    const fans = await screen.findByRole("region", { name: "Your fans" });
    await waitFor(() => expect(within(fans).getAllByRole("listitem")).toHaveLength(12));
    expect(within(fans).getByText("12 of 30")).toBeTruthy();
    fireEvent.click(within(fans).getByRole("button", { name: "Show more" }));
    await waitFor(() => expect(within(fans).getAllByRole("listitem")).toHaveLength(24));
    expect(social.takes.every((take) => take === 12)).toBe(true);
  });

  it("accepts a friend invitation and lists the new friend", async () => {
    const { social, render } = setup("/people");
    social.invitations.push(
      create(FriendInvitationSchema, { id: "inv-1", fromUserId: DJ, toUserId: ME, invitationStatus: "pending" }),
    );
    render();
    const invitations = await screen.findByRole("region", { name: "Invitations for you" });
    fireEvent.click(await within(invitations).findByRole("button", { name: "Accept" }));
    const friends = screen.getByRole("region", { name: "Your friends" });
    expect(await within(friends).findByRole("link", { name: DJ })).toBeTruthy();
    expect(social.friendships).toEqual([[DJ, ME]]);
  });

  it("follows a DJ, invites them as a friend and blocks another user from their profiles", async () => {
    const { social, render } = setup(`/users/${DJ}`);
    render();
    fireEvent.click(await screen.findByRole("button", { name: "Follow this DJ" }));
    expect(await screen.findByRole("button", { name: "Unfollow" })).toBeTruthy();
    expect(social.fans).toMatchObject([{ djId: DJ, fanId: ME }]);
    expect(await screen.findByText("1 fans · follows 0 DJs")).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Send a friend invitation" }));
    expect(await screen.findByText("Your invitation is pending.")).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Block this user" }));
    expect(await screen.findByText("You blocked this user.")).toBeTruthy();
    expect(social.blocks).toEqual([[ME, DJ]]);
  });

  it("shows the server's refusal text", async () => {
    const { social, render } = setup(`/users/${DJ}`);
    social.blocks.push([DJ, ME]);
    render();
    fireEvent.click(await screen.findByRole("button", { name: "Send a friend invitation" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Forbidden");
  });

  it("speaks Spanish with ?lang=es", async () => {
    const { render } = setup("/people", true, "?lang=es");
    render();
    expect(await screen.findByRole("heading", { level: 1, name: "Amigos y fans" })).toBeTruthy();
    expect(await screen.findByRole("region", { name: "Tus fans" })).toBeTruthy();
  });

  it("asks a guest to sign in", async () => {
    const { render } = setup("/people", false);
    render();
    expect((await screen.findByRole("status")).textContent).toContain("Sign in to see your friends and fans.");
  });
});
