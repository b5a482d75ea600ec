// login-action (spec 002 §7) from the shell's log-in and sign-up forms, through the kit's analytics client pointed
// at a recording sink: a guest may send it, so a refused attempt is recorded as well as a signed-in one.
import { screen } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { createTestKit, createTestUserService, recordAnalytics } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { renderShell } from "../testing/render-shell.tsx";

function setup(path: string) {
  const service = createTestUserService();
  const kit = createTestKit({ routes: service.routes });
  const sink = recordAnalytics(kit);
  renderShell({ path, kit });
  return { service, sink };
}

describe("login analytics", () => {
  it("records a refused log-in (as a guest) and a signed-in one (as the user)", async () => {
    const user = userEvent.setup();
    const { service, sink } = setup("/login");
    service.addAccount("ada@example.com", "right");
    await user.type(await screen.findByLabelText("E-mail"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "wrong");
    await user.click(screen.getByRole("button", { name: "Log in" }));
    await screen.findByRole("alert");
    await user.clear(screen.getByLabelText("Password"));
    await user.type(screen.getByLabelText("Password"), "right");
    await user.click(screen.getByRole("button", { name: "Log in" }));
    await screen.findByTestId("signed-in-user");
    expect(sink.of("login-action")).toEqual([
      { action: "login", method: "password", outcome: "refused" },
      { action: "login", method: "password", outcome: "signed-in" },
    ]);
    expect(sink.events.filter((e) => e.topic === "login-action").map((e) => e.deviceData.isLoggedIn)).toEqual([
      false,
      true,
    ]);
  });

  it("records a sign-up", async () => {
    const user = userEvent.setup();
    const { sink } = setup("/signup");
    await user.type(await screen.findByLabelText("E-mail"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "correct-horse-1");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    await screen.findByTestId("signed-in-user");
    expect(sink.of("login-action")).toEqual([{ action: "sign-up", method: "password", outcome: "signed-in" }]);
  });
});
