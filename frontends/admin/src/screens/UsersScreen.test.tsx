import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type ConnectRouter } from "@connectrpc/connect";
import { screen, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import { UserSchema } from "@tt/proto/tt/user/v1/user_pb";
import { toSessionUser, toStoredToken } from "@tt/web-kit/connect";
import { createTestKit, createTestUserService, renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import UsersScreen from "./UsersScreen.tsx";

/** The test user service plus a moderation service that bans known users and refuses the rest as the spec says. */
async function setUp() {
  const service = createTestUserService();
  service.addAccount("root@example.com", "pw", "admin");
  const target = service.addAccount("spammer@example.com", "pw");
  const bans: { uuid: string; reason: string }[] = [];
  const routes = (router: ConnectRouter) => {
    service.routes(router);
    router.service(ModerationService, {
      banUser: (req) => {
        if (req.uuid !== target.uuid || bans.length > 0)
          throw new ConnectError("user profile not found", Code.NotFound);
        bans.push({ uuid: req.uuid, reason: req.reason });
        return { user: create(UserSchema, { uuid: req.uuid }) };
      },
    });
  };
  const kit = createTestKit({ routes });
  const answer = await createClient(AuthService, kit.transport).login({ email: "root@example.com", password: "pw" });
  if (!answer.accessToken || !answer.user) throw new Error("login failed in the test service");
  kit.session.signIn(toStoredToken(answer.accessToken), toSessionUser(answer.user));
  return { kit, target, bans };
}

describe("users screen", () => {
  it("bans a user after confirmation with the reason given, and shows the server's refusal of a second ban", async () => {
    const user = userEvent.setup();
    const { kit, target, bans } = await setUp();
    renderWithKit(<UsersScreen />, kit);
    await screen.findByRole("table", { name: "2 Users" });

    await user.click(screen.getByRole("button", { name: "Ban", description: "spammer@example.com" }));
    let dialog = screen.getByRole("dialog");
    expect(within(dialog).getByText("Ban spammer@example.com with no end? Every session is revoked.")).toBeTruthy();
    await user.type(within(dialog).getByLabelText("Reason"), "spam");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect((await within(dialog).findByRole("status")).textContent).toBe("Done: Ban.");
    expect(bans).toEqual([{ uuid: target.uuid, reason: "spam" }]);
    await user.click(within(dialog).getByRole("button", { name: "Dismiss" }));

    await user.click(screen.getByRole("button", { name: "Ban", description: "spammer@example.com" }));
    dialog = screen.getByRole("dialog");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("User profile not found");
    expect(bans).toHaveLength(1);
  });
});
