import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { toSessionUser, toStoredToken } from "@tt/web-kit/connect";
import { createTestKit, createTestUserService, renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { lastToast, pick } from "../test-helpers.ts";
import type { AdminListQueryInit } from "./query.ts";
import { ResourceList, type ResourceDescription } from "./ResourceList.tsx";

interface Thing {
  id: string;
  name: string;
}

async function adminKit() {
  const service = createTestUserService();
  service.addAccount("root@example.com", "pw", "admin");
  const kit = createTestKit({ routes: service.routes });
  const answer = await createClient(AuthService, kit.transport).login({ email: "root@example.com", password: "pw" });
  if (!answer.accessToken || !answer.user) throw new Error("login failed in the test service");
  kit.session.signIn(toStoredToken(answer.accessToken), toSessionUser(answer.user));
  return kit;
}

/** A resource of `count` things kept in memory; every query the screen sends is recorded. */
function thingsResource(overrides: Partial<ResourceDescription<Thing>> = {}, count = 45) {
  const queries: AdminListQueryInit[] = [];
  const things = Array.from({ length: count }, (_, i) => ({ id: `t${i}`, name: `thing ${i}` }));
  const removed: string[] = [];
  const created: string[] = [];
  const description: ResourceDescription<Thing> = {
    key: `things-${Math.random()}`,
    title: "Things",
    rowKey: (thing) => thing.id,
    rowName: (thing) => thing.name,
    columns: [{ field: "name", label: "Name", sortable: true, render: (thing) => thing.name }],
    filters: [
      { id: "name", field: "name", op: "$contL", label: "Name contains" },
      {
        id: "kind",
        field: "kind",
        op: "$eq",
        label: "Kind",
        options: [
          { value: "big", label: "Big" },
          { value: "small", label: "Small" },
        ],
      },
    ],
    listActions: [
      {
        id: "create",
        label: "Create a thing",
        confirmLabel: "Create",
        fields: [{ name: "name", label: "Name", required: true }],
        run: async (values) => {
          created.push(values.name ?? "");
        },
      },
    ],
    actions: [
      {
        id: "delete",
        label: "Delete",
        destructive: true,
        question: (thing) => `Delete ${thing.name}?`,
        fields: [{ name: "reason", label: "Reason" }],
        run: async (thing, values) => {
          removed.push(`${thing.id}:${values.reason ?? ""}`);
        },
      },
    ],
    pageSize: 20,
    list: async (query) => {
      queries.push(query);
      const live = things.filter((thing) => !removed.some((r) => r.startsWith(`${thing.id}:`)));
      const matching = (query.filter ?? []).length > 0 ? live.filter((thing) => thing.name.includes("jazz")) : live;
      const start = ((query.page ?? 1) - 1) * 20;
      return {
        rows: matching.slice(start, start + 20),
        total: matching.length,
        pageCount: Math.ceil(matching.length / 20),
      };
    },
    ...overrides,
  };
  return { description, queries, removed, created };
}

// Each journey drives several dialogs; on a loaded two-core machine that takes longer than the default 30 s.
describe("the generic admin list", { timeout: 90_000 }, () => {
  it("pages, sorts and filters through the admin list query", async () => {
    const user = userEvent.setup();
    const { description, queries } = thingsResource();
    renderWithKit(<ResourceList description={description} />, await adminKit());
    expect(await screen.findByRole("table", { name: "45 Things" })).toBeTruthy();
    expect(queries.at(-1)).toEqual({ limit: 20, page: 1, sort: [], filter: [] });

    await user.click(screen.getByRole("button", { name: "Next page" }));
    expect(await screen.findByText("21–40 of 45")).toBeTruthy();
    expect(queries.at(-1)).toMatchObject({ page: 2 });

    await user.click(screen.getByRole("button", { name: "Name" }));
    await waitFor(() => expect(queries.at(-1)).toMatchObject({ page: 1, sort: ["name,ASC"] }));
    expect(screen.getByRole("columnheader", { name: /Name/ }).getAttribute("aria-sort")).toBe("ascending");
    await user.click(screen.getByRole("button", { name: "Name" }));
    await waitFor(() => expect(queries.at(-1)).toMatchObject({ sort: ["name,DESC"] }));

    await user.click(screen.getByRole("button", { name: "Next page" }));
    await waitFor(() => expect(queries.at(-1)).toMatchObject({ page: 2 }));
    await user.type(screen.getByLabelText("Name contains"), "jazz");
    await pick(user, "Kind", "Big");
    await user.click(screen.getByRole("button", { name: "Apply" }));
    // A new filter starts again at the first page, keeping the sort.
    await waitFor(() =>
      expect(queries.at(-1)).toEqual({
        limit: 20,
        page: 1,
        sort: ["name,DESC"],
        filter: ["name||$contL||jazz", "kind||$eq||big"],
      }),
    );
    // Nothing matches: the empty state says so and offers to clear the filters.
    expect(await screen.findByRole("heading", { name: "Nothing matches these filters" })).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Clear filters" }));
    await waitFor(() => expect(queries.at(-1)).toMatchObject({ filter: [] }));
    expect(await screen.findByRole("table", { name: "45 Things" })).toBeTruthy();
  });

  it("asks before a destructive action, sends nothing on cancel, and refreshes the list after it", async () => {
    const user = userEvent.setup();
    const { description, removed } = thingsResource();
    renderWithKit(<ResourceList description={description} />, await adminKit());
    await screen.findByRole("table", { name: "45 Things" });

    // One menu per row, named after the row; the action opens a dialog that asks first.
    await user.click(screen.getByRole("button", { name: "Actions for thing 0" }));
    await user.click(await screen.findByRole("menuitem", { name: "Delete" }));
    let dialog = await screen.findByRole("dialog", { name: "Delete: thing 0" });
    expect(within(dialog).getByText("Delete thing 0?")).toBeTruthy();
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(removed).toEqual([]);

    await user.click(screen.getByRole("button", { name: "Actions for thing 0" }));
    await user.click(await screen.findByRole("menuitem", { name: "Delete" }));
    dialog = await screen.findByRole("dialog", { name: "Delete: thing 0" });
    await user.type(within(dialog).getByLabelText("Reason"), "spam");
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));
    // Done: the dialog closes, a toast says so, and the list is asked again.
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(lastToast()).toBe("Done: Delete · thing 0");
    expect(removed).toEqual(["t0:spam"]);
    expect(await screen.findByRole("table", { name: "44 Things" })).toBeTruthy();
  });

  it("checks a form before sending it, and offers the list's own action when the list is empty", async () => {
    const user = userEvent.setup();
    const { description, created } = thingsResource({}, 0);
    renderWithKit(<ResourceList description={description} />, await adminKit());
    expect(await screen.findByRole("heading", { name: "No things yet" })).toBeTruthy();
    // The empty state's next step is the list's first action.
    const buttons = screen.getAllByRole("button", { name: "Create a thing" });
    expect(buttons).toHaveLength(2);
    await user.click(buttons[1]!);
    const dialog = await screen.findByRole("dialog", { name: "Create a thing" });
    await user.click(within(dialog).getByRole("button", { name: "Create" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Required");
    expect(created).toEqual([]);
    await user.type(within(dialog).getByLabelText("Name"), "a new thing");
    await user.click(within(dialog).getByRole("button", { name: "Create" }));
    await waitFor(() => expect(created).toEqual(["a new thing"]));
    expect(lastToast()).toBe("Done: Create a thing");
  });

  it("shows the server's message when an action is refused, and keeps the dialog open", async () => {
    const user = userEvent.setup();
    const { description } = thingsResource({
      actions: [
        {
          id: "ban",
          label: "Ban",
          destructive: true,
          question: () => "Ban?",
          run: async () => {
            throw new ConnectError("user profile not found", Code.NotFound);
          },
        },
      ],
    });
    renderWithKit(<ResourceList description={description} />, await adminKit());
    await screen.findByRole("table", { name: "45 Things" });
    await user.click(screen.getByRole("button", { name: "Actions for thing 3" }));
    await user.click(await screen.findByRole("menuitem", { name: "Ban" }));
    // Nothing to fill in: a confirmation.
    const dialog = await screen.findByRole("alertdialog", { name: "Ban: thing 3" });
    await user.click(within(dialog).getByRole("button", { name: "Ban" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("User profile not found");
    expect(within(dialog).getByRole("button", { name: "Ban" })).toBeTruthy();
  });

  it("shows the server's message when the list fails, with a retry", async () => {
    const user = userEvent.setup();
    let fail = true;
    const { description } = thingsResource();
    const list = description.list;
    description.list = async (query) => {
      if (fail) throw new ConnectError("filter: unknown field kind", Code.InvalidArgument);
      return list(query);
    };
    renderWithKit(<ResourceList description={description} />, await adminKit());
    expect((await screen.findByRole("alert")).textContent).toContain("Filter: unknown field kind");
    fail = false;
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("table", { name: "45 Things" })).toBeTruthy();
  });

  it("tells a guest the area is for admins, without asking the server", async () => {
    const { description, queries } = thingsResource();
    const kit = createTestKit({ routes: createTestUserService().routes });
    await kit.ensureToken();
    renderWithKit(<ResourceList description={description} />, kit);
    expect((await screen.findByRole("alert")).textContent).toContain("Admins only");
    expect(queries).toEqual([]);
  });
});
