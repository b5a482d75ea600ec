import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import {
  NotificationSchema,
  NotificationService,
  type Notification,
} from "@tt/proto/tt/room/v1/notification_service_pb";
import { createTestKit, createTestUserService } from "@tt/web-kit/testing";
import { describe as suite, expect, it } from "vitest";
import { renderShell } from "../testing/render-shell.tsx";

const ME = "00000000-0000-4000-8000-000000000001";
const ROOM = "00000000-0000-4000-9000-000000000042";
const DJ = "00000000-0000-4000-8000-000000000077";
const tokenOf = (uuid: string) => `t:${uuid}`;

/** The room service's inbox as the bell uses it: list with the unread count, mark read (the caller's own). */
function inboxService(rows: Notification[]) {
  const marked: string[][] = [];
  const caller = (context: HandlerContext) => {
    const token = (context.requestHeader.get("authorization") ?? "").replace(/^Bearer /, "");
    if (!token.startsWith("t:")) throw new ConnectError("Unauthorized", Code.Unauthenticated);
    return token.slice(2);
  };
  return {
    marked,
    routes: (router: ConnectRouter) =>
      router.service(NotificationService, {
        listMyNotifications(_req, context) {
          caller(context);
          return { notifications: rows, total: rows.length, unread: rows.filter((n) => !n.read).length };
        },
        markNotificationsRead(req, context) {
          caller(context);
          marked.push(req.ids);
          let updated = 0;
          for (const n of rows) {
            if (req.ids.includes(n.id) && !n.read) {
              n.read = true;
              updated++;
            }
          }
          return { updated };
        },
      }),
  };
}

function setup(rows: Notification[], signedIn = true) {
  const users = createTestUserService();
  const inbox = inboxService(rows);
  const kit = createTestKit({
    routes: (router) => {
      users.routes(router);
      inbox.routes(router);
    },
  });
  if (signedIn) {
    users.addAccount("me@example.com", "correct-horse-1");
    users.tokens.set(tokenOf(ME), { type: "user", uuid: ME });
    kit.session.signIn({ token: tokenOf(ME), tokenType: "user" }, { uuid: ME, email: "me@example.com", role: "user" });
  }
  return { inbox, kit, user: userEvent.setup() };
}

const minutesAgo = (m: number) => timestampFromDate(new Date(Date.now() - m * 60_000));

suite("the header's notification bell", () => {
  it("counts the unread, lists them in words with links and relative times, and marks them read when opened", async () => {
    const rows = [
      create(NotificationSchema, {
        id: "00000000-0000-4000-a000-000000000001",
        kind: "dj-fans",
        title: "DJ Nova is playing",
        body: "Now playing in Night Shift.",
        roomId: ROOM,
        senderId: DJ,
        data: { djId: DJ, djName: "DJ Nova", roomName: "Night Shift" },
        createdAt: minutesAgo(5),
      }),
      create(NotificationSchema, {
        id: "00000000-0000-4000-a000-000000000002",
        kind: "admin",
        title: "Turntable",
        body: "The shop has new avatars.",
        senderId: "service:admin",
        createdAt: minutesAgo(60 * 26),
        read: true,
      }),
    ];
    const { inbox, kit, user } = setup(rows);
    renderShell({ path: "/", kit });
    const bell = await screen.findByRole("button", { name: "Notifications, 1 unread" });
    expect(within(bell).getByText("1")).toBeTruthy();

    await user.click(bell);
    const panel = await screen.findByRole("dialog", { name: "Notifications" });
    const link = await within(panel).findByRole("link", { name: /DJ Nova is playing/ });
    expect(link.getAttribute("href")).toBe(`/room/r/${ROOM}`);
    expect(link.textContent).toContain("Now playing in Night Shift.");
    expect(link.textContent).toContain("5 minutes ago");
    expect(within(link).getByText("New")).toBeTruthy();
    expect(within(panel).getByText("A message from the team")).toBeTruthy();
    expect(within(panel).getByText("yesterday")).toBeTruthy();
    expect(panel.textContent).not.toContain(ROOM);
    expect(panel.textContent).not.toContain(DJ);

    await waitFor(() => expect(inbox.marked).toEqual([["00000000-0000-4000-a000-000000000001"]]));
    await waitFor(() => expect(screen.getByRole("button", { name: "Notifications" })).toBeTruthy());
  });

  it("says what to do when there is nothing yet; guests have no bell", async () => {
    const { kit, user } = setup([]);
    renderShell({ path: "/", kit });
    await user.click(await screen.findByRole("button", { name: "Notifications" }));
    const panel = await screen.findByRole("dialog", { name: "Notifications" });
    expect(await within(panel).findByText("Nothing new yet")).toBeTruthy();
    expect(within(panel).getByRole("link", { name: "Find people to follow" }).getAttribute("href")).toBe("/people");
    // jsdom has no service workers: the opt-in says so rather than offering what cannot work.
    expect(await within(panel).findByText("This browser cannot show notifications from Turntable.")).toBeTruthy();
  });

  it("shows no bell to a guest", async () => {
    const { kit } = setup([], false);
    renderShell({ path: "/", kit });
    expect(await screen.findByRole("link", { name: "Log in" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: /Notifications/ })).toBeNull();
  });
});
