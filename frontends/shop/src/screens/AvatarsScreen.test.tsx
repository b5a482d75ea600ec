import { screen, waitFor, fireEvent } from "@testing-library/react";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { createTestMerchService, TEST_USER_UUID } from "../testing/merch-service.ts";
import { AvatarsScreen } from "./AvatarsScreen.tsx";

describe("AvatarsScreen", () => {
  it("lists the avatars you can choose and those on sale; choosing one sets the profile's avatarId", async () => {
    const service = createTestMerchService();
    const kit = createTestKit({ routes: service.routes });
    kit.session.signIn(
      { token: "t", tokenType: "user" },
      { uuid: TEST_USER_UUID, email: "a@example.com", role: "user" },
    );
    renderWithKit(<AvatarsScreen />, kit);
    expect(await screen.findByText("You use the default avatar.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Gold owl: Buy for 40" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Cat: Use" }));
    await waitFor(() => expect(screen.getByText("Current avatar: cat")).toBeTruthy());
    expect(service.calls).toContain("UpdateProfile:cat");
    expect(screen.getByRole("button", { name: "Cat: In use" })).toHaveProperty("disabled", true);
  });
});
