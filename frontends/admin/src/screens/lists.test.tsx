// The lists the server answers whole (the deactivation requests, the dev outbox) are sorted and paged by the
// screen like every other list: newest first, by any sortable column, twenty at a time.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter } from "@connectrpc/connect";
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import { DeactivationRequestSchema } from "@tt/proto/tt/user/v1/moderation_pb";
import { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import { ContactService, DevOutboxMessageSchema } from "@tt/proto/tt/user/v1/contact_service_pb";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { ProductService } from "@tt/proto/tt/payment/v1/product_service_pb";
import { SubscriptionService } from "@tt/proto/tt/payment/v1/subscription_service_pb";
import { AdminService as UserAdminService } from "@tt/proto/tt/user/v1/admin_service_pb";
import OutboxScreen from "./OutboxScreen.tsx";
import PaymentsScreen from "./PaymentsScreen.tsx";
import VouchersScreen from "./VouchersScreen.tsx";

function adminKit(routes: (router: ConnectRouter) => void) {
  const kit = createTestKit({ routes });
  kit.session.signIn({ token: "t", tokenType: "user" }, { uuid: "u0", email: "root@example.com", role: "admin" });
  return kit;
}

/** The text of one column's cells, row by row (the header row left out). */
function firstCells(table: HTMLElement, column: number): string[] {
  return within(table)
    .getAllByRole("row")
    .slice(1)
    .map((row) => row.querySelectorAll("td")[column]?.textContent ?? "");
}

describe("whole lists", { timeout: 90_000 }, () => {
  it("sorts the deactivation requests newest first, by e-mail when asked, and pages them", async () => {
    const user = userEvent.setup();
    // 25 requests, one a day, in the server's order (oldest first); e-mails in the reverse order of the days.
    const requests = Array.from({ length: 25 }, (_, i) =>
      create(DeactivationRequestSchema, {
        uuid: `u${i + 1}`,
        email: `${String.fromCharCode(122 - i)}@example.com`,
        nickname: `leaver${i + 1}`,
        requestedAt: timestampFromDate(new Date(Date.UTC(2026, 10, i + 1, 12))),
      }),
    );
    const kit = adminKit((router) => {
      router.service(AccountService, {
        listVouchers: () => ({ data: [], total: 0, count: 0, page: 1, pageCount: 0 }),
      });
      router.service(ModerationService, { listDeactivationRequests: () => ({ requests }) });
    });
    renderWithKit(<VouchersScreen />, kit);
    const table = await screen.findByRole("table", { name: "25 Deactivation requests" });
    expect(firstCells(table, 0).slice(0, 3)).toEqual(["leaver25", "leaver24", "leaver23"]);
    expect(within(table).getByRole("columnheader", { name: /When/ }).getAttribute("aria-sort")).toBe("descending");

    await user.click(within(table).getByRole("button", { name: "E-mail" }));
    await waitFor(() => expect(firstCells(table, 1).slice(0, 2)).toEqual(["b@example.com", "c@example.com"]));
    const pagers = screen.getAllByRole("button", { name: "Next page" });
    await user.click(pagers[pagers.length - 1]!);
    await waitFor(() =>
      expect(firstCells(table, 1)).toEqual([
        "v@example.com",
        "w@example.com",
        "x@example.com",
        "y@example.com",
        "z@example.com",
      ]),
    );
  });

  it("sorts the outbox newest first and by recipient", async () => {
    const user = userEvent.setup();
    const messages = ["carol", "alice", "bob"].map((name, i) =>
      create(DevOutboxMessageSchema, {
        id: `m${i}`,
        channel: "email",
        to: `${name}@example.com`,
        subject: "Your code",
        body: "1234",
        createdAt: timestampFromDate(new Date(Date.UTC(2026, 10, 1, 12 + i))),
      }),
    );
    const kit = adminKit((router) => router.service(ContactService, { listDevOutbox: () => ({ messages }) }));
    renderWithKit(<OutboxScreen />, kit);
    const table = await screen.findByRole("table", { name: "3 Dev outbox" });
    expect(firstCells(table, 2)).toEqual(["bob@example.com", "alice@example.com", "carol@example.com"]);
    await user.click(within(table).getByRole("button", { name: "To" }));
    await waitFor(() =>
      expect(firstCells(table, 2)).toEqual(["alice@example.com", "bob@example.com", "carol@example.com"]),
    );
  });

  it("finds a user's subscriptions by their nickname, not their uuid", async () => {
    const user = userEvent.setup();
    const nina = "00000000-0000-4000-8000-0000000000aa";
    const asked: string[] = [];
    const kit = adminKit((router) => {
      router.service(ProductService, { listProducts: () => ({ products: [] }) });
      router.service(UserAdminService, {
        adminListUsers: ({ query }) => {
          const found = query!.filter[0]!.endsWith("||nina") ? [{ uuid: nina }] : [];
          return { data: found, total: found.length, count: found.length, page: 1, pageCount: 1 };
        },
      });
      router.service(SubscriptionService, {
        listUserSubscriptions: ({ id }) => {
          asked.push(id);
          return { subscriptions: [{ id: "s1", userUuid: id, level: "pro", status: "active" }], total: 1 };
        },
      });
    });
    renderWithKit(<PaymentsScreen />, kit);
    const filters = (await screen.findAllByRole("form", { name: "Filters" })).at(-1)!;
    await user.type(within(filters).getByLabelText("User"), "nina");
    await user.click(within(filters).getByRole("button", { name: "Apply" }));
    await waitFor(() => expect(asked).toEqual([nina]));
    expect(await screen.findByRole("table", { name: "1 Subscriptions" })).toBeTruthy();
  });
});
