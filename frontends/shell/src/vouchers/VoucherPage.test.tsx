import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { createTestKit, createTestUserService } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { openAccountMenu, renderShell } from "../testing/render-shell.tsx";

const EMAIL = "ada@example.com";

function setup(path: string, { signedIn = true, search = "" } = {}) {
  const service = createTestUserService();
  const kit = createTestKit({ routes: service.routes, search });
  if (signedIn) {
    const account = service.addAccount(EMAIL, "correct-horse-1");
    service.tokens.set("ada-token", { type: "user", uuid: account.uuid });
    kit.session.signIn({ token: "ada-token", tokenType: "user" }, { uuid: account.uuid, email: EMAIL, role: "user" });
  }
  return { service, user: userEvent.setup(), ...renderShell({ path, kit }) };
}

describe("voucher redeem screen (PATCH /vouchers/redeem)", () => {
  it("is in the account menu; a code that grants uploadMusic says so in words and links to the upload page", async () => {
    const { service, user } = setup("/");
    service.addVoucher("UPLOAD-2345", { capabilities: ["uploadMusic"], badges: ["VERIFIED"] });
    await openAccountMenu(user);
    await user.click(await screen.findByRole("menuitem", { name: "Redeem a voucher" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Redeem a voucher" })).toBeTruthy();

    // Codes compare case-insensitively, as the server does.
    await user.type(screen.getByLabelText("Voucher code"), "upload-2345");
    await user.click(screen.getByRole("button", { name: "Redeem" }));
    const status = await screen.findByRole("status");
    expect(within(status).getByRole("heading", { name: "Voucher UPLOAD-2345 redeemed" })).toBeTruthy();
    expect(
      within(status)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["You can now upload music.", "Your profile now shows the Verified badge."]);
    expect(within(status).getByRole("link", { name: "Upload a song" }).getAttribute("href")).toBe("/crates/uploads");
    expect(service.capabilitiesOf(EMAIL)).toEqual(["uploadMusic"]);

    // Another code can be typed after.
    await user.click(within(status).getByRole("button", { name: "Redeem another voucher" }));
    expect((screen.getByLabelText("Voucher code") as HTMLInputElement).value).toBe("");
  });

  it("shows the server's message for an unknown code and for one already used, and asks for a code first", async () => {
    const { service, user } = setup("/vouchers");
    service.addVoucher("USED-2345", { capabilities: ["promoteRoom"] });
    await user.click(await screen.findByRole("button", { name: "Redeem" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Enter the voucher's code.");
    expect(service.calls).not.toContain("RedeemVoucher");

    await user.type(screen.getByLabelText("Voucher code"), "NO-SUCH-CODE");
    await user.click(screen.getByRole("button", { name: "Redeem" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("Voucher not found"));

    await user.clear(screen.getByLabelText("Voucher code"));
    await user.type(screen.getByLabelText("Voucher code"), "USED-2345");
    await user.click(screen.getByRole("button", { name: "Redeem" }));
    expect(await screen.findByText("You can now promote rooms.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Redeem another voucher" }));
    await user.type(screen.getByLabelText("Voucher code"), "USED-2345");
    await user.click(screen.getByRole("button", { name: "Redeem" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("Voucher can not be redeemed"));
  });

  it("asks a guest to log in first, and speaks Spanish", async () => {
    const { user } = setup("/vouchers", { signedIn: false, search: "?lang=es" });
    expect(await screen.findByRole("heading", { level: 1, name: "Canjear un vale" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Inicia sesión para canjear un vale" })).toBeTruthy();
    await user.click(within(screen.getByRole("main")).getByRole("link", { name: "Iniciar sesión" }));
    expect(await screen.findByLabelText("Correo electrónico")).toBeTruthy();
  });
});
