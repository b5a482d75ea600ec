import { screen, waitFor, fireEvent, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { queryKeys } from "@tt/web-kit";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { createTestMerchService, TEST_USER_UUID } from "../testing/merch-service.ts";
import { AvatarsScreen } from "./AvatarsScreen.tsx";
import { Balance } from "./Balance.tsx";

const screenWithBalance = (
  <>
    <Balance />
    <AvatarsScreen />
  </>
);

async function buyOwl() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole("button", { name: "Gold owl: Buy for 40" }));
  const dialog = await screen.findByRole("alertdialog", { name: "Buy the avatar Gold owl?" });
  await user.click(within(dialog).getByRole("button", { name: "Buy for 40 tokens" }));
  return dialog;
}

describe("AvatarsScreen", () => {
  it("lists the avatars you can choose and those on sale; choosing one sets the profile's avatarId", async () => {
    const service = createTestMerchService();
    const kit = createTestKit({ routes: service.routes });
    kit.session.signIn(
      { token: "t", tokenType: "user" },
      { uuid: TEST_USER_UUID, email: "a@example.com", role: "user" },
    );
    renderWithKit(screenWithBalance, kit);
    expect(await screen.findByText("You use the default avatar.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Gold owl: Buy for 40" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Cat: Use" }));
    await waitFor(() => expect(screen.getByText("Current avatar: Cat")).toBeTruthy());
    expect(service.calls).toContain("UpdateProfile:cat");
    expect(screen.getByRole("button", { name: "Cat: In use" })).toHaveProperty("disabled", true);
  });

  it("buys an avatar on sale: it joins your avatars, the balance is the answer's, once per Idempotency-Key", async () => {
    const service = createTestMerchService({ balance: 100 });
    const kit = createTestKit({ routes: service.routes });
    kit.session.signIn(
      { token: "t", tokenType: "user" },
      { uuid: TEST_USER_UUID, email: "a@example.com", role: "user" },
    );
    renderWithKit(screenWithBalance, kit);
    expect((await screen.findByTestId("token-balance")).textContent).toBe("100 tokens");
    await buyOwl();
    expect(await screen.findByRole("button", { name: "Gold owl: Use" })).toBeTruthy();
    expect(screen.getByTestId("token-balance").textContent).toBe("60 tokens");
    expect(screen.getByText("No avatars on sale.")).toBeTruthy();
    expect(service.calls.filter((c) => c.startsWith("CreateAvatarAssignment"))).toEqual(["CreateAvatarAssignment:owl"]);
    expect(service.keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("shows the server's refusal of an avatar purchase", async () => {
    const service = createTestMerchService({ balance: 10 });
    const kit = createTestKit({ routes: service.routes });
    kit.session.signIn(
      { token: "t", tokenType: "user" },
      { uuid: TEST_USER_UUID, email: "a@example.com", role: "user" },
    );
    renderWithKit(screenWithBalance, kit);
    await screen.findByTestId("token-balance");
    const dialog = await buyOwl();
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Not enough tokens");
    expect(screen.getByTestId("token-balance").textContent).toBe("10 tokens");
  });

  // Regression: the shell keeps the nickname it shows under the profile key of the page's shared query client;
  // the shop read that string as its profile and showed the default avatar (and could overwrite the shell's).
  it("reads the current avatar beside the shell's cached nickname, and leaves the nickname alone", async () => {
    const service = createTestMerchService();
    service.avatarId = "cat";
    const kit = createTestKit({ routes: service.routes });
    kit.session.signIn(
      { token: "t", tokenType: "user" },
      { uuid: TEST_USER_UUID, email: "a@example.com", role: "user" },
    );
    kit.queryClient.setQueryData(queryKeys.profile(TEST_USER_UUID), "Ada");
    renderWithKit(screenWithBalance, kit);
    expect(await screen.findByText("Current avatar: Cat")).toBeTruthy();
    expect(kit.queryClient.getQueryData(queryKeys.profile(TEST_USER_UUID))).toBe("Ada");
  });
});
