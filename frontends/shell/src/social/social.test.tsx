import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { screen, waitFor, within } from "@testing-library/react";
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

/** `path` may name the DJ's profile: the DJ is an account of the user service (nickname "dj"). */
function setup(path: string | ((dj: string) => string), signedIn = true, search = "") {
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
  const dj = users.addAccount("dj@example.com", "correct-horse-2").uuid;
  const user = userEvent.setup();
  return {
    social,
    users,
    kit,
    dj,
    user,
    render: () => renderShell({ path: typeof path === "string" ? path : path(dj), kit }),
  };
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
    const { render, user } = setup("/");
    render();
    await openAccountMenu(user);
    await user.click(await screen.findByRole("menuitem", { name: "Friends and fans" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Friends and fans" })).toBeTruthy();
  });

  it("shows fans in pages of 12 and fetches the next page on demand", async () => {
    const { social, render, user } = setup("/people");
    for (let n = 0; n < 30; n++) social.fans.push(create(DjFanSchema, { id: `f${n}`, djId: ME, fanId: fanUuid(n) }));
    render();
    // The tab shows how many fans there are before it is opened.
    const tab = await screen.findByRole("tab", { name: /^Fans/ });
    await waitFor(() => expect(tab.textContent).toBe("Fans30"));
    await user.click(tab);
    const fans = await screen.findByRole("region", { name: "Your fans" });
    await waitFor(() => expect(within(fans).getAllByRole("listitem")).toHaveLength(12));
    expect(within(fans).getByText("12 of 30")).toBeTruthy();
    await user.click(within(fans).getByRole("button", { name: "Show more" }));
    await waitFor(() => expect(within(fans).getAllByRole("listitem")).toHaveLength(24));
    expect(social.takes.every((take) => take === 12)).toBe(true);
  });

  it("tells a user with no friends where to find some", async () => {
    const { render } = setup("/people");
    render();
    const friends = await screen.findByRole("region", { name: "Your friends" });
    expect(await within(friends).findByRole("heading", { name: "No friends yet" })).toBeTruthy();
    expect(within(friends).getByRole("link", { name: "Find people in a room" }).getAttribute("href")).toBe("/room");
  });

  it("finds a person on your lists by nickname, accents aside, each a link to their profile; no field asks for an id", async () => {
    const { social, users, render, dj, user } = setup("/people");
    const ada = users.addAccount("ada@example.com", "correct-horse-3").uuid;
    const adam = users.addAccount("adam@example.com", "correct-horse-4").uuid;
    const jose = users.addAccount("josé@example.com", "correct-horse-5").uuid;
    const inviter = users.addAccount("nadia@example.com", "correct-horse-6").uuid;
    social.friendships.push([ME, ada]);
    // Adam is the 161st fan: the search looks past the first fetch of 150 (and past the tab's pages of 12).
    for (let n = 0; n < 160; n++) social.fans.push(create(DjFanSchema, { id: `f${n}`, djId: ME, fanId: fanUuid(n) }));
    social.fans.push(create(DjFanSchema, { id: "f-adam", djId: ME, fanId: adam }));
    social.fans.push(create(DjFanSchema, { id: "f-dj", djId: dj, fanId: ME }));
    social.fans.push(create(DjFanSchema, { id: "f-jose", djId: jose, fanId: ME }));
    social.friendships.push([jose, ME]);
    social.invitations.push(
      create(FriendInvitationSchema, { id: "inv-n", fromUserId: inviter, toUserId: ME, invitationStatus: "pending" }),
    );
    render();
    await screen.findByRole("tab", { name: /^Friends/ });
    // The only text field on the page is the search: no user id is typed anywhere.
    expect(screen.getAllByRole("searchbox").map((box) => box.getAttribute("placeholder"))).toEqual(["Nickname"]);
    expect(screen.queryAllByRole("textbox")).toEqual([]);
    expect(screen.queryByText(/user id/i)).toBeNull();

    const search = screen.getByRole("searchbox", { name: "Find a person" });
    await user.type(search, "AD");
    const results = await screen.findByRole("region", { name: "People found" });
    // The tabs give their place to the answer: the nicknames it starts with first ("ada", "adam"), then "nadia".
    expect(screen.queryByRole("tablist")).toBeNull();
    await waitFor(() =>
      expect(
        within(results)
          .getAllByRole("link")
          .map((link) => link.textContent),
      ).toEqual(["ada", "adam", "nadia"]),
    );
    const rows = within(results).getAllByRole("listitem");
    expect(rows.map((row) => row.querySelector(".tt-person__meta")?.textContent)).toEqual([
      "Friend",
      "Your fan",
      "Invited you",
    ]);
    expect(within(results).getByRole("link", { name: "adam" }).getAttribute("href")).toBe(`/users/${adam}`);
    expect(await screen.findByText("3 people found")).toBeTruthy();
    expect(social.takes.filter((take) => take !== 12)).toEqual([150, 150]);
    expect(results.textContent).not.toContain("00000000");

    await user.clear(search);
    await user.type(search, "jose");
    await waitFor(() =>
      expect(within(screen.getByRole("region", { name: "People found" })).getByRole("link").textContent).toBe("josé"),
    );
    expect(screen.getByText("Friend · You follow them")).toBeTruthy();

    // Cleared, the tabs come back as they were.
    await user.clear(search);
    expect(await screen.findByRole("tablist")).toBeTruthy();
    expect(screen.getByRole("tab", { name: /^Friends/, selected: true })).toBeTruthy();
  });

  it("offers to follow a fan back, and to stop for a fan you follow", async () => {
    const { social, users, render, dj, user } = setup("/people");
    const adam = users.addAccount("adam@example.com", "correct-horse-4").uuid;
    social.fans.push(create(DjFanSchema, { id: "f-adam", djId: ME, fanId: adam }));
    social.fans.push(create(DjFanSchema, { id: "f-dj", djId: ME, fanId: dj }));
    social.fans.push(create(DjFanSchema, { id: "f-me", djId: dj, fanId: ME }));
    render();
    await user.click(await screen.findByRole("tab", { name: /^Fans/ }));
    const fans = await screen.findByRole("region", { name: "Your fans" });
    const row = (name: string) => within(fans).getByRole("link", { name }).closest("li") as HTMLElement;
    await waitFor(() => expect(within(row("dj")).getByRole("button").textContent).toBe("Unfollow"));
    await user.click(within(row("adam")).getByRole("button", { name: "Follow back" }));
    expect(await screen.findByText("You follow adam.")).toBeTruthy();
    await waitFor(() => expect(within(row("adam")).getByRole("button").textContent).toBe("Unfollow"));
    expect(social.fans.some((f) => f.djId === adam && f.fanId === ME)).toBe(true);
  });

  it("says who it did not find and where to meet more people", async () => {
    const { render, user } = setup("/people");
    render();
    await user.type(await screen.findByRole("searchbox", { name: "Find a person" }), "zed");
    const results = await screen.findByRole("region", { name: "People found" });
    expect(await within(results).findByRole("heading", { name: "Nobody called “zed” on your lists" })).toBeTruthy();
    expect(within(results).getByRole("link", { name: "Find people in a room" }).getAttribute("href")).toBe("/room");
  });

  it("accepts a friend invitation and lists the new friend by name", async () => {
    const { social, render, dj, user } = setup("/people");
    social.invitations.push(
      create(FriendInvitationSchema, { id: "inv-1", fromUserId: dj, toUserId: ME, invitationStatus: "pending" }),
    );
    render();
    await user.click(await screen.findByRole("tab", { name: /^Invitations/ }));
    const invitations = await screen.findByRole("region", { name: "Invitations for you" });
    expect(await within(invitations).findByRole("link", { name: "dj" })).toBeTruthy();
    await user.click(within(invitations).getByRole("button", { name: "Accept" }));
    expect(await screen.findByText("You and dj are friends now.")).toBeTruthy();
    await user.click(screen.getByRole("tab", { name: /^Friends/ }));
    const friends = await screen.findByRole("region", { name: "Your friends" });
    expect(await within(friends).findByRole("link", { name: "dj" })).toBeTruthy();
    expect(social.friendships).toEqual([[dj, ME]]);
  });

  it("follows a DJ, invites them as a friend and blocks them from their profile, each told by a toast", async () => {
    const { social, render, dj, user } = setup((dj) => `/users/${dj}`);
    document.title = "Turntable";
    render();
    expect(await screen.findByRole("heading", { level: 1, name: "dj" })).toBeTruthy();
    // The page is titled with the nickname (the browser's tab too), never the id in its address.
    await waitFor(() => expect(document.title).toBe("dj · Turntable"));
    await user.click(await screen.findByRole("button", { name: "Follow this DJ" }));
    expect(await screen.findByRole("button", { name: "Unfollow" })).toBeTruthy();
    expect(await screen.findByText("You follow dj.")).toBeTruthy();
    expect(social.fans).toMatchObject([{ djId: dj, fanId: ME }]);
    await waitFor(() => expect(screen.getByTestId("fan-count").textContent).toBe("1"));
    expect(screen.getByTestId("following-count").textContent).toBe("0");

    await user.click(screen.getByRole("button", { name: "Send a friend invitation" }));
    expect(await screen.findByText("Your invitation is pending.")).toBeTruthy();
    expect(await screen.findByText("Friend invitation sent to dj.")).toBeTruthy();

    // Blocking asks first; cancelling blocks nobody.
    await user.click(screen.getByRole("button", { name: "Block this user" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Block dj?" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(social.blocks).toEqual([]);
    await user.click(screen.getByRole("button", { name: "Block this user" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Block" }));
    expect(await screen.findByText("You blocked this user.")).toBeTruthy();
    expect(await screen.findByText("You blocked dj.")).toBeTruthy();
    expect(social.blocks).toEqual([[ME, dj]]);
    // Whether I follow or blocked them came with the friendship: no question whose "no" is a 404.
    expect(social.notFoundQuestions).toEqual([]);
  });

  it("shows a DJ already followed and blocked as such, from the one friendship answer", async () => {
    const { social, render, dj } = setup((dj) => `/users/${dj}`);
    social.fans.push(create(DjFanSchema, { id: "f-dj", djId: dj, fanId: ME }));
    social.blocks.push([ME, dj]);
    render();
    expect(await screen.findByRole("button", { name: "Unfollow" })).toBeTruthy();
    expect(await screen.findByText("You blocked this user.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Unblock" })).toBeTruthy();
    expect(social.notFoundQuestions).toEqual([]);
  });

  it("links the profile to the rooms the user is in now, by name, to the room's page", async () => {
    const { social, render, dj } = setup((dj) => `/users/${dj}`);
    social.userRooms.set(dj, [
      { roomUuid: "00000000-0000-4000-8000-0000000000f1", slug: "night-owls", name: "Night Owls" },
      { roomUuid: "00000000-0000-4000-8000-0000000000f2", slug: "café-sol", name: "Café Sol" },
    ]);
    render();
    const rooms = await screen.findByRole("list", { name: "In a room now" });
    const links = within(rooms).getAllByRole("link");
    expect(links.map((link) => [link.textContent, link.getAttribute("href")])).toEqual([
      ["In Night Owls now", "/room/r/night-owls"],
      ["In Café Sol now", `/room/r/${encodeURIComponent("café-sol")}`],
    ]);
    expect(rooms.textContent).not.toContain("00000000");
  });

  it("shows no room line for a user who is in no room", async () => {
    const { render } = setup((dj) => `/users/${dj}`);
    render();
    expect(await screen.findByRole("heading", { level: 1, name: "dj" })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId("fan-count").textContent).toBe("0"));
    expect(screen.queryByRole("list", { name: "In a room now" })).toBeNull();
  });

  it("shows the server's refusal text", async () => {
    const { social, render, dj, user } = setup((dj) => `/users/${dj}`);
    social.blocks.push([dj, ME]);
    render();
    await user.click(await screen.findByRole("button", { name: "Send a friend invitation" }));
    expect(await screen.findByText("Forbidden")).toBeTruthy();
  });

  it("says so when a profile does not exist", async () => {
    const { render } = setup("/users/00000000-0000-4000-8000-00000000dead");
    render();
    expect(await screen.findByRole("heading", { name: "This profile does not exist" })).toBeTruthy();
  });

  it("speaks Spanish with ?lang=es", async () => {
    const { render, user } = setup("/people", true, "?lang=es");
    render();
    expect(await screen.findByRole("heading", { level: 1, name: "Amigos y fans" })).toBeTruthy();
    await user.click(await screen.findByRole("tab", { name: /^Fans/ }));
    expect(await screen.findByRole("region", { name: "Tus fans" })).toBeTruthy();
  });

  it("asks a guest to sign in", async () => {
    const { render } = setup("/people", false);
    render();
    expect((await screen.findByRole("status")).textContent).toContain("Sign in to see your friends and fans.");
  });
});

describe("editing your own profile", () => {
  const dialogNamed = (name: string) => screen.findByRole("dialog", { name });

  it("offers Edit profile on your own page only", async () => {
    const { render } = setup(`/users/${ME}`);
    render();
    expect(await screen.findByRole("heading", { level: 1, name: "me" })).toBeTruthy();
    expect(await screen.findByRole("button", { name: "Edit profile" })).toBeTruthy();
  });

  it("offers no Edit profile on someone else's page", async () => {
    const { render } = setup((dj) => `/users/${dj}`);
    render();
    expect(await screen.findByRole("button", { name: "Follow this DJ" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Edit profile" })).toBeNull();
  });

  it("sends only what changed and shows it at once on the page and in the header, told by a toast", async () => {
    const { users, render, user } = setup(`/users/${ME}`);
    render();
    await user.click(await screen.findByRole("button", { name: "Edit profile" }));
    const dialog = await dialogNamed("Edit your profile");
    const nickname = within(dialog).getByRole("textbox", { name: "Nickname" });
    expect((nickname as HTMLInputElement).value).toBe("me");
    expect(within(dialog).getByRole("radio", { name: "Default colour" })).toHaveProperty("checked", true);
    // The bio counts down from 500.
    const bio = within(dialog).getByRole("textbox", { name: "Bio" });
    expect(within(dialog).getByText("500 characters left")).toBeTruthy();
    await user.type(bio, "Deep house at dawn.");
    expect(within(dialog).getByText("481 characters left")).toBeTruthy();
    await user.clear(nickname);
    await user.type(nickname, "  Ada Lovelace ");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));

    expect(await screen.findByText("Your profile is saved.")).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(users.profileUpdates).toEqual([{ nickname: "Ada Lovelace", bio: "Deep house at dawn." }]);
    expect(screen.getByRole("heading", { level: 1, name: "Ada Lovelace" })).toBeTruthy();
    expect(screen.getByText("Deep house at dawn.")).toBeTruthy();
    expect(screen.getByTestId("signed-in-user").textContent).toBe("Ada Lovelace");
    // Focus is back on the button that opened the dialog.
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Edit profile" }));

    // The colour alone, the next time: the name shows in it (the preview too), made readable on each theme.
    await user.click(screen.getByRole("button", { name: "Edit profile" }));
    const again = await dialogNamed("Edit your profile");
    expect((within(again).getByRole("textbox", { name: "Nickname" }) as HTMLInputElement).value).toBe("Ada Lovelace");
    expect(within(again).getByText(/^Your name on your profile and in chat:/)).toBeTruthy();
    await user.click(within(again).getByRole("radio", { name: "Blue" }));
    const preview = within(again).getByText("Ada Lovelace", { selector: "strong" });
    expect(preview.style.getPropertyValue("--tt-name-dark")).toBe("#488bf7");
    expect(preview.style.getPropertyValue("--tt-name-light")).toBe("#0b61ee");
    await user.click(within(again).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(users.profileUpdates).toHaveLength(2));
    expect(users.profileUpdates[1]).toEqual({ color: "#3b82f6" });
    await waitFor(() =>
      expect(
        screen.getByRole("heading", { level: 1, name: "Ada Lovelace" }).style.getPropertyValue("--tt-name-dark"),
      ).toBe("#488bf7"),
    );
    const heading = screen.getByRole("heading", { level: 1, name: "Ada Lovelace" });
    expect(heading.classList.contains("tt-name-color")).toBe(true);
    expect(heading.style.getPropertyValue("--tt-name-light")).toBe("#0b61ee");
  });

  it("checks the nickname before sending it", async () => {
    const { users, render, user } = setup(`/users/${ME}`);
    render();
    await user.click(await screen.findByRole("button", { name: "Edit profile" }));
    const dialog = await dialogNamed("Edit your profile");
    const nickname = within(dialog).getByRole("textbox", { name: "Nickname" });
    await user.clear(nickname);
    await user.type(nickname, "   ");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByRole("alert")).toHaveProperty("textContent", "Choose a nickname.");
    expect(nickname.getAttribute("aria-invalid")).toBe("true");
    expect(users.profileUpdates).toEqual([]);
  });

  it("shows the server's refusal in the dialog, on the field it names, and keeps the dialog open", async () => {
    const { users, render, user } = setup(`/users/${ME}`);
    users.refuse.set("UpdateProfile", new ConnectError("nickname is not allowed", Code.InvalidArgument));
    render();
    await user.click(await screen.findByRole("button", { name: "Edit profile" }));
    const dialog = await dialogNamed("Edit your profile");
    const nickname = within(dialog).getByRole("textbox", { name: "Nickname" });
    await user.type(nickname, "2");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByText("Nickname is not allowed")).toBeTruthy();
    expect(nickname.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByRole("dialog", { name: "Edit your profile" })).toBeTruthy();
    // Behind the dialog (hidden from assistive technology while it is open), the page is unchanged.
    expect(screen.getByRole("heading", { level: 1, name: "me", hidden: true })).toBeTruthy();

    // A refusal about no field is shown above the buttons.
    users.refuse.set("UpdateProfile", new ConnectError("user profile not found", Code.NotFound));
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByText("User profile not found")).toBeTruthy();
    expect(users.profileUpdates).toEqual([{ nickname: "me2" }, { nickname: "me2" }]);
  });

  it("opens the dialog from the account menu, and Escape closes it", async () => {
    const { render, user } = setup("/");
    render();
    await openAccountMenu(user);
    await user.click(await screen.findByRole("menuitem", { name: "Edit profile" }));
    const dialog = await dialogNamed("Edit your profile");
    expect(screen.getByRole("heading", { level: 1, name: "me", hidden: true })).toBeTruthy();
    // Focus is in the dialog, on its first field.
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole("textbox", { name: "Nickname" })));
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Edit profile" }));
  });

  it("speaks Spanish with ?lang=es", async () => {
    const { render, user } = setup(`/users/${ME}`, true, "?lang=es");
    render();
    await user.click(await screen.findByRole("button", { name: "Editar perfil" }));
    const dialog = await dialogNamed("Editar tu perfil");
    expect(within(dialog).getByText("Quedan 500 caracteres")).toBeTruthy();
    expect(within(dialog).getByRole("radio", { name: "Azul" })).toBeTruthy();
    expect(within(dialog).getByText(/^Tu nombre en tu perfil y en el chat:/)).toBeTruthy();
    expect(within(dialog).getByRole("button", { name: "Guardar" })).toBeTruthy();
  });
});
