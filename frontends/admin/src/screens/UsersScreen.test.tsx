import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type ConnectRouter } from "@connectrpc/connect";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { TokenAccountSchema } from "@tt/proto/tt/merch/v1/merch_pb";
import { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import { UserSchema } from "@tt/proto/tt/user/v1/user_pb";
import { toSessionUser, toStoredToken } from "@tt/web-kit/connect";
import { createTestKit, createTestUserService, renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { lastToast, rowAction } from "../test-helpers.ts";
import UsersScreen from "./UsersScreen.tsx";

/**
 * The test user service plus a moderation service that bans known users and refuses the rest as the spec says,
 * and a token service where only the target has a token account (the others get merch's 404).
 */
async function setUp() {
  const service = createTestUserService();
  service.addAccount("root@example.com", "pw", "admin");
  const target = service.addAccount("spammer@example.com", "pw");
  const bans: { uuid: string; reason: string }[] = [];
  const grants: { accountId: string; tokens: number; reason: string }[] = [];
  const targetAccount = "0b6f7c1e-8a52-4e0f-9d3a-2f1c5b7e9a10";
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
    router.service(TokenService, {
      getUserTokenAccount: (req) => {
        if (req.userUuid !== target.uuid) throw new ConnectError("this user has no token account", Code.NotFound);
        return { account: create(TokenAccountSchema, { id: targetAccount, userUuid: target.uuid }) };
      },
      grantTokens: (req) => {
        grants.push({ accountId: req.accountId, tokens: req.tokens, reason: req.reason });
        return { account: create(TokenAccountSchema, { id: req.accountId, balance: req.tokens }) };
      },
    });
  };
  const kit = createTestKit({ routes });
  const answer = await createClient(AuthService, kit.transport).login({ email: "root@example.com", password: "pw" });
  if (!answer.accessToken || !answer.user) throw new Error("login failed in the test service");
  kit.session.signIn(toStoredToken(answer.accessToken), toSessionUser(answer.user));
  return { kit, target, bans, grants, targetAccount };
}

// Each journey drives several dialogs; on a loaded two-core machine that takes longer than the default 30 s.
describe("users screen", { timeout: 90_000 }, () => {
  it("bans a user after confirmation with the reason given, and shows the server's refusal of a second ban", async () => {
    const user = userEvent.setup();
    const { kit, target, bans } = await setUp();
    renderWithKit(<UsersScreen />, kit);
    await screen.findByRole("table", { name: "2 Users" });

    await rowAction(user, "spammer@example.com", "Ban");
    let dialog = await screen.findByRole("dialog", { name: "Ban: spammer@example.com" });
    expect(within(dialog).getByText("Ban spammer@example.com with no end? Every session is revoked.")).toBeTruthy();
    await user.type(within(dialog).getByLabelText("Reason"), "spam");
    await user.click(within(dialog).getByRole("button", { name: "Ban" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(lastToast()).toBe("Done: Ban · spammer@example.com");
    expect(bans).toEqual([{ uuid: target.uuid, reason: "spam" }]);

    await rowAction(user, "spammer@example.com", "Ban");
    dialog = await screen.findByRole("dialog", { name: "Ban: spammer@example.com" });
    await user.click(within(dialog).getByRole("button", { name: "Ban" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("User profile not found");
    expect(bans).toHaveLength(1);
  });

  it("grants tokens to a user's account found by the user, and says so when the user has none", async () => {
    const user = userEvent.setup();
    const { kit, grants, targetAccount } = await setUp();
    renderWithKit(<UsersScreen />, kit);
    await screen.findByRole("table", { name: "2 Users" });

    await rowAction(user, "spammer@example.com", "Grant tokens");
    let dialog = await screen.findByRole("dialog", { name: "Grant tokens: spammer@example.com" });
    expect(within(dialog).getByText(/^Their token account is found by the user/)).toBeTruthy();
    await user.type(within(dialog).getByLabelText("Tokens"), "25");
    await user.type(within(dialog).getByLabelText("Reason"), "goodwill");
    await user.click(within(dialog).getByRole("button", { name: "Grant tokens" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(lastToast()).toBe("Done: Grant tokens · spammer@example.com");
    expect(grants).toEqual([{ accountId: targetAccount, tokens: 25, reason: "goodwill" }]);

    await rowAction(user, "root@example.com", "Grant tokens");
    dialog = await screen.findByRole("dialog", { name: "Grant tokens: root@example.com" });
    await user.type(within(dialog).getByLabelText("Tokens"), "5");
    await user.type(within(dialog).getByLabelText("Reason"), "none");
    await user.click(within(dialog).getByRole("button", { name: "Grant tokens" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("This user has no token account");
    expect(grants).toHaveLength(1);
  });

  it("finds users by nickname or by e-mail", async () => {
    const user = userEvent.setup();
    const { kit } = await setUp();
    renderWithKit(<UsersScreen />, kit);
    const table = await screen.findByRole("table", { name: "2 Users" });
    const filters = screen.getByRole("form", { name: "Filters" });
    await user.type(within(filters).getByLabelText("Nickname"), "SPAM");
    await user.click(within(filters).getByRole("button", { name: "Apply" }));
    await screen.findByRole("table", { name: "1 Users" });
    expect(within(table).getByRole("cell", { name: "spammer@example.com" })).toBeTruthy();
    expect(within(table).queryByRole("cell", { name: "root@example.com" })).toBeNull();
    await user.clear(within(filters).getByLabelText("Nickname"));
    await user.type(within(filters).getByLabelText("E-mail"), "root@");
    await user.click(within(filters).getByRole("button", { name: "Apply" }));
    await waitFor(() => expect(within(table).getByRole("cell", { name: "root@example.com" })).toBeTruthy());
    expect(within(table).queryByRole("cell", { name: "spammer@example.com" })).toBeNull();
  });

  it("shows each user's nickname and avatar, their role and status in words, and their details", async () => {
    const user = userEvent.setup();
    const { kit } = await setUp();
    renderWithKit(<UsersScreen />, kit);
    const table = await screen.findByRole("table", { name: "2 Users" });
    const row = within(table).getByRole("cell", { name: "spammer@example.com" }).closest("tr")!;
    expect(await within(row).findByRole("button", { name: "spammer" })).toBeTruthy();
    expect(row.querySelector(".tt-avatar")).toBeTruthy();
    expect(within(row).getByText("Member")).toBeTruthy();
    expect(within(row).getByText("Active")).toBeTruthy();
    // Roles are picked from a list of words, never typed.
    await rowAction(user, "spammer@example.com", "Set role");
    const dialog = await screen.findByRole("dialog", { name: "Set role: spammer@example.com" });
    expect(within(dialog).getByLabelText("Role").textContent).toBe("Member");
    await user.click(within(dialog).getByLabelText("Role"));
    expect((await screen.findAllByRole("option")).map((option) => option.textContent)).toEqual([
      "Member",
      "Promoter",
      "Staff",
      "Moderator",
      "Global moderator",
      "Admin",
    ]);
  });
});
