// The moderation log names people instead of showing their ids, and each name leads to that person's page in the
// console (their details over the users list, at an address of their own).
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createClient } from "@connectrpc/connect";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { ModerationActionSchema } from "@tt/proto/tt/audit/v1/audit_pb";
import { ModerationService as AuditModerationService } from "@tt/proto/tt/audit/v1/moderation_service_pb";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import { toSessionUser, toStoredToken } from "@tt/web-kit/connect";
import { createTestKit, createTestUserService, renderWithKit } from "@tt/web-kit/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { App } from "../App.tsx";

const LOADED = { timeout: 15_000 };

async function setUp(search = "") {
  const queries: string[][] = [];
  const service = createTestUserService();
  const root = service.addAccount("root@example.com", "pw", "admin");
  const spammer = service.addAccount("spammer@example.com", "pw");
  const kit = createTestKit({
    search,
    routes: (router) => {
      service.routes(router);
      router.service(AuditModerationService, {
        listModerationActions: ({ query }) => {
          queries.push(query?.filter ?? []);
          return {
            data: [
              create(ModerationActionSchema, {
                id: "a1",
                actionType: "globalBan",
                userUuid: spammer.uuid,
                moderatorUuid: root.uuid,
                reason: "spam",
                createdAt: timestampFromDate(new Date("2026-11-30T21:15:00Z")),
              }),
              create(ModerationActionSchema, {
                id: "a2",
                actionType: "grantRole",
                userUuid: spammer.uuid,
                moderatorUuid: root.uuid,
                role: "moderator",
                previousRole: "user",
                createdAt: timestampFromDate(new Date("2026-11-29T10:00:00Z")),
              }),
            ],
            total: 2,
            count: 2,
            page: 1,
            pageCount: 1,
          };
        },
      });
      router.service(ModerationService, { listModerationComments: () => ({ comments: [] }) });
    },
  });
  const answer = await createClient(AuthService, kit.transport).login({ email: "root@example.com", password: "pw" });
  if (!answer.accessToken || !answer.user) throw new Error("login failed in the test service");
  kit.session.signIn(toStoredToken(answer.accessToken), toSessionUser(answer.user));
  return { kit, service, spammer, root, queries };
}

describe("moderation log", { timeout: 90_000 }, () => {
  beforeEach(() => window.history.replaceState(null, "", "#moderation"));

  it("names the user and the moderator by nickname, each a link to their page, with no id shown", async () => {
    const user = userEvent.setup();
    const { kit, service, spammer } = await setUp();
    renderWithKit(<App />, kit);
    const table = await screen.findByRole("table", { name: "2 Moderation log" }, LOADED);
    const ban = within(table).getByText("Banned").closest("tr")!;
    const target = await within(ban).findByRole("link", { name: "spammer" });
    expect(target.getAttribute("href")).toBe(`#users/${spammer.uuid}`);
    expect(within(ban).getByRole("link", { name: "root" })).toBeTruthy();
    // Both rows' four people came in one profile batch, and no uuid is anywhere on the page.
    expect(service.calls.filter((call) => call === "GetProfiles")).toHaveLength(1);
    expect(document.body.textContent).not.toContain(spammer.uuid);
    // A role change says which role, in words.
    const grant = within(table).getByText("Role given").closest("tr")!;
    expect(within(grant).getByText("Member → Moderator")).toBeTruthy();

    // The link opens the users section with that person's details, and the address names them.
    await user.click(target);
    const dialog = await screen.findByRole("dialog", { name: "spammer" }, LOADED);
    expect(within(dialog).getByText("spammer@example.com")).toBeTruthy();
    expect(window.location.hash).toBe(`#users/${spammer.uuid}`);
    // Closing the details leaves the users list, at the list's own address.
    await user.click(within(dialog).getByRole("button", { name: "Close" }));
    expect(window.location.hash).toBe("#users");
    expect(await screen.findByRole("table", { name: "2 Users" }, LOADED)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Users" }).getAttribute("aria-current")).toBe("page");
  });

  it("filters by a person's nickname or e-mail, sending the uuids of those it finds", async () => {
    const user = userEvent.setup();
    const { kit, spammer, root, queries } = await setUp();
    renderWithKit(<App />, kit);
    await screen.findByRole("table", { name: "2 Moderation log" }, LOADED);
    const filters = screen.getByRole("form", { name: "Filters" });
    expect(within(filters).getByLabelText("User").getAttribute("placeholder")).toBe("Nickname or e-mail");
    await user.type(within(filters).getByLabelText("User"), "spam");
    await user.type(within(filters).getByLabelText("Moderator"), "ROOT@example");
    await user.click(within(filters).getByRole("button", { name: "Apply" }));
    await waitFor(() =>
      expect(queries.at(-1)).toEqual([`moderatorUuid||$in||${root.uuid}`, `userUuid||$in||${spammer.uuid}`]),
    );
    // Nobody found matches no row; a uuid is sent as it is.
    await user.clear(within(filters).getByLabelText("User"));
    await user.type(within(filters).getByLabelText("User"), "nobody");
    await user.clear(within(filters).getByLabelText("Moderator"));
    await user.type(within(filters).getByLabelText("Moderator"), root.uuid);
    await user.click(within(filters).getByRole("button", { name: "Apply" }));
    await waitFor(() =>
      expect(queries.at(-1)).toEqual([
        `moderatorUuid||$eq||${root.uuid}`,
        "userUuid||$in||00000000-0000-0000-0000-000000000000",
      ]),
    );
  });

  it("opens a user's page from its address", async () => {
    const { kit, spammer } = await setUp("?lang=es");
    window.history.replaceState(null, "", `#users/${spammer.uuid}`);
    renderWithKit(<App />, kit);
    const dialog = await screen.findByRole("dialog", { name: "spammer" }, LOADED);
    expect(within(dialog).getByText("Apodo")).toBeTruthy();
  });
});
