import { create } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { AdminService as RoomAdminService } from "@tt/proto/tt/room/v1/admin_service_pb";
import { RoomSchema } from "@tt/proto/tt/room/v1/room_pb";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { toSessionUser, toStoredToken } from "@tt/web-kit/connect";
import { createTestKit, createTestUserService, renderWithKit } from "@tt/web-kit/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { App } from "./App.tsx";
import { pick } from "./test-helpers.ts";

const USERS_PAGE_SIZE = 20;
/** A section's screen is a chunk of its own: its first import in a test run takes a while. */
const LOADED = { timeout: 15_000 };

async function signedInAs(email: string, role: string, others = 0, search = "") {
  const service = createTestUserService();
  service.addAccount(email, "pw", role);
  for (let i = 0; i < others; i++) service.addAccount(`listener${i}@example.com`, "pw");
  const roomQueries: unknown[] = [];
  const kit = createTestKit({
    search,
    routes: (router) => {
      service.routes(router);
      router.service(RoomAdminService, {
        adminListRooms: ({ query }) => {
          roomQueries.push(query?.filter);
          return {
            data: [create(RoomSchema, { uuid: "r1", name: "Jazz Cellar", slug: "jazz-cellar", type: "PUBLIC" })],
            total: 1,
            count: 1,
            page: 1,
            pageCount: 1,
          };
        },
      });
    },
  });
  const answer = await createClient(AuthService, kit.transport).login({ email, password: "pw" });
  if (!answer.accessToken || !answer.user) throw new Error("login failed in the test service");
  kit.session.signIn(toStoredToken(answer.accessToken), toSessionUser(answer.user));
  return { service, kit, roomQueries };
}

// Each journey drives several dialogs; on a loaded two-core machine that takes longer than the default 30 s.
describe("admin remote: users", { timeout: 90_000 }, () => {
  beforeEach(() => window.history.replaceState(null, "", "#users"));

  it("lists users a page at a time for an admin", async () => {
    const user = userEvent.setup();
    const { kit } = await signedInAs("root@example.com", "admin", 24);
    renderWithKit(<App />, kit);
    const table = await screen.findByRole("table", { name: "25 Users" }, LOADED);
    // The header row plus one row per user on the first page.
    expect(within(table).getAllByRole("row")).toHaveLength(USERS_PAGE_SIZE + 1);
    expect(within(table).getByRole("cell", { name: "root@example.com" })).toBeTruthy();
    // Each row names its user by nickname (their profile's, asked in one batch) and has one menu of actions.
    expect(await within(table).findByRole("button", { name: "root" })).toBeTruthy();
    expect(within(table).getAllByRole("button", { name: /^Actions for / })).toHaveLength(USERS_PAGE_SIZE);
    expect(screen.getByText("1–20 of 25")).toBeTruthy();
    expect(screen.getByText("Page 1 of 2")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Previous page" }).hasAttribute("disabled")).toBe(true);

    await user.click(screen.getByRole("button", { name: "Next page" }));
    expect(await screen.findByText("Page 2 of 2")).toBeTruthy();
    expect(await screen.findByRole("cell", { name: "listener23@example.com" })).toBeTruthy();
    expect(screen.getByText("21–25 of 25")).toBeTruthy();
    expect(within(screen.getByRole("table")).getAllByRole("row")).toHaveLength(5 + 1);
  });

  it("tells a signed-in member that the area is for admins only, without asking (a refusal is a 401)", async () => {
    const { kit, service } = await signedInAs("ada@example.com", "user");
    renderWithKit(<App />, kit);
    expect((await screen.findByRole("alert")).textContent).toContain("Admins only");
    expect(service.calls).not.toContain("AdminListUsers");
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("tells a staff member whom the server refuses that the area is for admins only, and keeps them signed in", async () => {
    const { kit, service } = await signedInAs("sam@example.com", "globalModerator");
    renderWithKit(<App />, kit);
    expect((await screen.findByRole("alert")).textContent).toContain("Admins only");
    expect(service.calls).toContain("AdminListUsers");
    expect(kit.session.getSnapshot().user?.email).toBe("sam@example.com");
  });

  it("does not ask the server for a guest", async () => {
    const service = createTestUserService();
    const kit = createTestKit({ routes: service.routes });
    await kit.ensureToken();
    renderWithKit(<App />, kit);
    expect((await screen.findByRole("alert")).textContent).toContain("Admins only");
    expect(service.calls).not.toContain("AdminListUsers");
  });

  it("opens another section from the navigation, loading its screen, and keeps it in the address", async () => {
    const user = userEvent.setup();
    const { kit, roomQueries } = await signedInAs("root@example.com", "admin");
    renderWithKit(<App />, kit);
    await screen.findByRole("table", { name: "1 Users" }, LOADED);
    await user.click(screen.getByRole("link", { name: "Rooms" }));
    expect(await screen.findByRole("cell", { name: "Jazz Cellar" }, LOADED)).toBeTruthy();
    expect(window.location.hash).toBe("#rooms");
    expect(screen.getByRole("link", { name: "Rooms" }).getAttribute("aria-current")).toBe("page");
    // Fixed values are picked by their words ("Private"), sent by their wire names.
    await pick(user, "Type", "Private");
    await user.click(screen.getByRole("button", { name: "Apply" }));
    await waitFor(() => expect(roomQueries.at(-1)).toEqual(["type||$eq||PRIVATE"]));
  });

  it("speaks Spanish", async () => {
    const { kit } = await signedInAs("root@example.com", "admin", 0, "?lang=es");
    renderWithKit(<App />, kit);
    expect(await screen.findByRole("table", { name: "1 Usuarios" }, LOADED)).toBeTruthy();
    expect(screen.getByRole("navigation", { name: "Secciones de administración" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Registro de moderación" })).toBeTruthy();
  });
});
