import { screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { createTestKit, createTestUserService } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { renderShell } from "../testing/render-shell.tsx";

function setup(search = "") {
  const service = createTestUserService();
  const kit = createTestKit({ routes: service.routes, search });
  return renderShell({ path: "/login/phone", kit });
}

describe("phone-number login (spec 002 §5)", () => {
  it("explains the screen with the spec's text", async () => {
    setup();
    expect(
      await screen.findByText("Enter your phone number to create a new account. We'll text a code to verify."),
    ).toBeTruthy();
  });

  it("rejects a number that cannot be a mobile number with the spec's message", async () => {
    const user = userEvent.setup();
    setup();
    await user.type(await screen.findByLabelText("Phone number"), "12ab");
    await user.click(screen.getByRole("button", { name: "Text me a code" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Phone number is invalid. Only real, non-VoIP mobile numbers are allowed.",
    );
    expect(screen.getByLabelText("Phone number").getAttribute("aria-invalid")).toBe("true");
  });

  it("says so in Spanish with ?lang=es", async () => {
    const user = userEvent.setup();
    setup("?lang=es");
    await user.type(await screen.findByLabelText("Número de teléfono"), "123");
    await user.click(screen.getByRole("button", { name: "Enviarme un código" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "El número de teléfono no es válido. Solo se permiten números móviles reales que no sean VoIP.",
    );
  });

  it("tells the truth about a valid number while the server has no phone sign-in", async () => {
    const user = userEvent.setup();
    setup();
    await user.type(await screen.findByLabelText("Phone number"), "+1 415 555 0100");
    await user.click(screen.getByRole("button", { name: "Text me a code" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Signing in with a phone number is not available on this server yet. Please use your e-mail.",
    );
  });
});

describe("phone-number login once the user service implements it", () => {
  function setupWithPhone() {
    const service = createTestUserService({ phoneCode: "123456" });
    const kit = createTestKit({ routes: service.routes });
    return { service, ...renderShell({ path: "/login/phone", kit }) };
  }

  it("shows the spec's message when the server finds the number is VoIP", async () => {
    const user = userEvent.setup();
    setupWithPhone();
    await user.type(await screen.findByLabelText("Phone number"), "+1 555 010 0000");
    await user.click(screen.getByRole("button", { name: "Text me a code" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Phone number is invalid. Only real, non-VoIP mobile numbers are allowed.",
    );
  });

  it("texts a code, takes it back and signs the user in", async () => {
    const user = userEvent.setup();
    const { kit, service } = setupWithPhone();
    await user.type(await screen.findByLabelText("Phone number"), "+34 612 345 678");
    await user.click(screen.getByRole("button", { name: "Text me a code" }));
    expect((await screen.findByRole("status")).textContent).toBe("We texted a code to +34612345678.");
    await user.type(screen.getByLabelText("Code"), "000000");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Invalid or expired code");
    await user.clear(screen.getByLabelText("Code"));
    await user.type(screen.getByLabelText("Code"), "123456");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    // Signed in: the header's account chip shows the new account's name.
    await waitFor(() => expect(screen.getByTestId("signed-in-user").textContent).toBe("34612345678"));
    expect(kit.session.getSnapshot().accessToken?.tokenType).toBe("user");
    expect(service.calls).toEqual(expect.arrayContaining(["SendMobileCode", "VerifyMobileCode"]));
  });
});
