import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { isSignedIn, LOCALE_STORAGE_KEY } from "@tt/web-kit";
import { createTestKit, createTestUserService, MemoryStorage } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { openAccountMenu, renderShell } from "./testing/render-shell.tsx";

function setup(path = "/") {
  const service = createTestUserService();
  const storage = new MemoryStorage();
  const kit = createTestKit({ routes: service.routes, storage });
  return { service, storage, ...renderShell({ path, kit }) };
}

describe("shell", () => {
  it("lets a guest browse: guest token, home page, navigation to every remote but admin", async () => {
    const { kit } = setup();
    await kit.ensureToken();
    expect(await screen.findByRole("heading", { level: 1, name: "Listen together" })).toBeTruthy();
    expect(screen.getByText("Browsing as a guest")).toBeTruthy();
    const nav = screen.getByRole("navigation", { name: "Main" });
    await waitFor(() => expect(within(nav).getByRole("link", { name: "Rooms" })).toBeTruthy());
    expect(within(nav).getByRole("link", { name: "Crates" })).toBeTruthy();
    expect(within(nav).getByRole("link", { name: "Shop" })).toBeTruthy();
    expect(within(nav).queryByRole("link", { name: "Admin" })).toBeNull();
    expect(kit.session.getSnapshot().accessToken?.tokenType).toBe("guest");
  });

  it("signs up, shows the user in the header, logs out and logs back in", async () => {
    const user = userEvent.setup();
    const { kit, service } = setup("/signup");
    await user.type(await screen.findByLabelText("E-mail"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "correct-horse-1");
    await user.type(screen.getByLabelText("Nickname"), "Ada");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    // The signed-in name is the account chip's, which opens the account menu.
    expect((await screen.findByTestId("signed-in-user")).textContent).toBe("Ada");
    expect(isSignedIn(kit.session.getSnapshot())).toBe(true);
    // A brand-new account is greeted as new, never "welcome back".
    expect((await screen.findByTestId("home-greeting")).textContent).toBe(
      "Welcome to Turntable, Ada! Pick a room and say hi.",
    );

    await openAccountMenu(user);
    await user.click(await screen.findByRole("menuitem", { name: "Log out" }));
    // The outcome is told as a toast, and the home page is the guest's again.
    expect(await screen.findByText("You are logged out. See you on the floor!", {}, { timeout: 10_000 })).toBeTruthy();
    expect(await screen.findByText("Browsing as a guest")).toBeTruthy();
    expect(isSignedIn(kit.session.getSnapshot())).toBe(false);
    expect(service.calls).toContain("Logout");

    await user.click(screen.getByRole("link", { name: "Log in" }));
    await user.type(await screen.findByLabelText("E-mail"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "correct-horse-1");
    await user.click(screen.getByRole("button", { name: "Log in" }));
    await waitFor(() => expect(screen.getByTestId("signed-in-user").textContent).toBe("Ada"));
    // A returning user is welcomed back.
    expect((await screen.findByTestId("home-greeting")).textContent).toBe("Welcome back, Ada.");
  });

  it("shows the server's message for a wrong password and for a taken e-mail (spec 002 §8)", async () => {
    const user = userEvent.setup();
    const { service } = setup("/login");
    service.addAccount("ada@example.com", "right");
    await user.type(await screen.findByLabelText("E-mail"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "wrong");
    await user.click(screen.getByRole("button", { name: "Log in" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Incorrect email or password");

    await user.click(within(screen.getByRole("main")).getByRole("link", { name: "Sign up" }));
    await user.type(await screen.findByLabelText("E-mail"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "another-1");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect((await screen.findByRole("alert")).textContent).toBe("This email is already registered");
  });

  it("asks for the e-mail and password before calling the server", async () => {
    const user = userEvent.setup();
    const { service } = setup("/login");
    await user.click(await screen.findByRole("button", { name: "Log in" }));
    // Each field says what it needs, beside it.
    const alerts = await screen.findAllByRole("alert");
    expect(alerts.map((alert) => alert.textContent)).toEqual(["Enter your e-mail address.", "Enter your password."]);
    expect(screen.getByLabelText("E-mail").getAttribute("aria-invalid")).toBe("true");
    await user.type(screen.getByLabelText("E-mail"), "not-an-address");
    expect((await screen.findByText("Enter an e-mail address like name@example.com.")).id).toBe(
      screen.getByLabelText("E-mail").getAttribute("aria-describedby"),
    );
    expect(service.calls).not.toContain("Login");
  });

  it("switches to Spanish and back, and remembers the choice under tt-locale", async () => {
    const user = userEvent.setup();
    const { storage } = setup();
    await screen.findByRole("heading", { name: "Listen together" });
    await user.selectOptions(screen.getByRole("combobox", { name: "Language" }), "es");
    expect(await screen.findByRole("heading", { name: "Escucha en compañía" })).toBeTruthy();
    expect(screen.getByText("Navegando como invitado")).toBeTruthy();
    expect(storage.getItem(LOCALE_STORAGE_KEY)).toBe("es");
    await user.selectOptions(screen.getByRole("combobox", { name: "Idioma" }), "en");
    expect(await screen.findByRole("heading", { name: "Listen together" })).toBeTruthy();
    expect(storage.getItem(LOCALE_STORAGE_KEY)).toBe("en");
  });

  it("shows a page-not-found for an unknown path", async () => {
    setup("/no-such-place/deeper");
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeTruthy();
  });
});
