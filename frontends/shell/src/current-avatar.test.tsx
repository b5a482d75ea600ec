import { create } from "@bufbuild/protobuf";
import { act, screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { AvatarService } from "@tt/proto/tt/merch/v1/avatar_service_pb";
import { AvatarSchema } from "@tt/proto/tt/merch/v1/merch_pb";
import { queryKeys } from "@tt/web-kit";
import { createTestKit, createTestUserService, MemoryStorage } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { createTestSocialService, tokenOf } from "./social/test-social-service.ts";
import { openAccountMenu, renderShell } from "./testing/render-shell.tsx";

/** The picture on the profile page (/users/{id}), named by the user's nickname. */
function profileImage(name: string) {
  return screen.queryByRole("heading", { level: 1, name })?.closest(".tt-profile__body")?.querySelector("img") ?? null;
}

/** The image in the header's account chip. */
function chipImage() {
  return screen.queryByRole("button", { name: /^Account menu for / })?.querySelector("img") ?? null;
}

// The current avatar is the profile's avatarId (the shop sets it); the header shows it beside the user's name.
describe("the shell's current avatar", () => {
  it("shows the signed-in user's avatar, and the new one once the shop changes the profile", async () => {
    const user = userEvent.setup();
    const service = createTestUserService();
    const kit = createTestKit({
      storage: new MemoryStorage(),
      routes: (router) => {
        service.routes(router);
        router.service(AvatarService, {
          getAvatar: ({ slug }) => ({
            avatar: create(AvatarSchema, {
              slug,
              name: slug === "owl" ? "Gold owl" : "Cat",
              imageUrl: `/media/${slug}.png`,
            }),
          }),
        });
      },
    });
    const ada = service.addAccount("ada@example.com", "correct-horse-1");
    service.avatars.set(ada.uuid, "owl");
    renderShell({ path: "/login", kit });
    await user.type(await screen.findByLabelText("E-mail"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "correct-horse-1");
    await user.click(screen.getByRole("button", { name: "Log in" }));
    // The account chip shows the avatar the user wears beside their name (decoration: the name is the text).
    await waitFor(() => expect(chipImage()?.getAttribute("src")).toBe("/media/owl.png"));
    expect(chipImage()?.getAttribute("alt")).toBe("");

    // The shop sets another avatar and invalidates the profile family.
    service.avatars.set(ada.uuid, "cat");
    await act(() => kit.queryClient.invalidateQueries({ queryKey: queryKeys.profile(ada.uuid) }));
    await waitFor(() => expect(chipImage()?.getAttribute("src")).toBe("/media/cat.png"));
    expect((await screen.findByTestId("signed-in-user")).textContent).toBe("ada");
  });

  it("shows the new one on the profile page too, open or opened again, without a reload", async () => {
    const user = userEvent.setup();
    const service = createTestUserService();
    const social = createTestSocialService();
    const kit = createTestKit({
      storage: new MemoryStorage(),
      routes: (router) => {
        service.routes(router);
        social.routes(router);
        router.service(AvatarService, {
          getAvatar: ({ slug }) => ({
            avatar: create(AvatarSchema, { slug, name: slug, imageUrl: `/media/${slug}.png` }),
          }),
        });
      },
    });
    const ada = service.addAccount("ada@example.com", "correct-horse-1");
    service.avatars.set(ada.uuid, "owl");
    service.tokens.set(tokenOf(ada.uuid), { type: "user", uuid: ada.uuid });
    kit.session.signIn(
      { token: tokenOf(ada.uuid), tokenType: "user" },
      { uuid: ada.uuid, email: "ada@example.com", role: "user" },
    );
    renderShell({ path: `/users/${ada.uuid}`, kit });
    await waitFor(() => expect(profileImage("ada")?.getAttribute("src")).toBe("/media/owl.png"));
    expect(profileImage("ada")?.getAttribute("alt")).toBe("ada");

    // The shop sets another avatar while the profile is open (in another tab of the page's query client) and
    // invalidates the profile family, as its useChooseAvatar does: the page and the header show it.
    service.avatars.set(ada.uuid, "cat");
    await act(() => kit.queryClient.invalidateQueries({ queryKey: queryKeys.profile(ada.uuid) }));
    await waitFor(() => expect(profileImage("ada")?.getAttribute("src")).toBe("/media/cat.png"));
    await waitFor(() => expect(chipImage()?.getAttribute("src")).toBe("/media/cat.png"));

    // Away from the profile (the shop is another page), the avatar changes again; back on the profile, the page
    // shows it, not the profile it had cached.
    await openAccountMenu(user);
    await user.click(await screen.findByRole("menuitem", { name: "Friends and fans" }));
    await screen.findByRole("heading", { level: 1, name: "Friends and fans" });
    service.avatars.set(ada.uuid, "fox");
    await act(() => kit.queryClient.invalidateQueries({ queryKey: queryKeys.profile(ada.uuid) }));
    await openAccountMenu(user);
    await user.click(await screen.findByRole("menuitem", { name: "Your profile" }));
    await waitFor(() => expect(profileImage("ada")?.getAttribute("src")).toBe("/media/fox.png"));
  });

  it("shows nothing for the default avatar", async () => {
    const user = userEvent.setup();
    const service = createTestUserService();
    const kit = createTestKit({ storage: new MemoryStorage(), routes: service.routes });
    const bo = service.addAccount("bo@example.com", "correct-horse-1");
    renderShell({ path: "/login", kit });
    await user.type(await screen.findByLabelText("E-mail"), "bo@example.com");
    await user.type(screen.getByLabelText("Password"), "correct-horse-1");
    await user.click(screen.getByRole("button", { name: "Log in" }));
    await waitFor(() => expect(screen.getByTestId("signed-in-user").textContent).toBe("bo"));
    await waitFor(() =>
      expect(kit.queryClient.getQueryState([...queryKeys.profile(bo.uuid), "avatar"])?.status).toBe("success"),
    );
    // No shop avatar: the default generated from the user's id, drawn in the page (nothing fetched).
    await waitFor(() => expect(chipImage()?.getAttribute("src")).toMatch(/^data:image\/svg\+xml/));
  });
});
