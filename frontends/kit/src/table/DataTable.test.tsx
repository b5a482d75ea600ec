import { act, screen, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { MenuItem } from "@tt/web-kit/ui";
import { useMemo, useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { renderWithKit } from "../testing/test-kit.tsx";
import { DataTable, type DataTableColumn, type DataTableSort } from "./DataTable.tsx";

interface Thing {
  id: string;
  name: string;
  size: number;
}

const THINGS: Thing[] = Array.from({ length: 45 }, (_, i) => ({ id: `t${i}`, name: `thing ${i}`, size: (i * 7) % 10 }));

const COLUMNS: DataTableColumn<Thing>[] = [
  { id: "name", header: "Name", sortable: true, cell: (thing) => thing.name },
  { id: "size", header: "Size", sortable: true, firstSort: "desc", align: "end", cell: (thing) => thing.size },
  { id: "id", header: "Id", hidden: true, cell: (thing) => thing.id },
];

/**
 * A page of the "server": it sorts (by name, with a collation of its own that a client sort would not reproduce:
 * the number in the name counts backwards) and pages. Every request the table makes is recorded.
 */
function serverPage(sort: DataTableSort | undefined, pageIndex: number, pageSize: number) {
  const rows = [...THINGS];
  if (sort?.id === "name") rows.sort((a, b) => (sort.desc ? -1 : 1) * (Number(b.id.slice(1)) - Number(a.id.slice(1))));
  if (sort?.id === "size") rows.sort((a, b) => (sort.desc ? -1 : 1) * (a.size - b.size));
  return rows.slice(pageIndex * pageSize, (pageIndex + 1) * pageSize);
}

function Harness({
  requests,
  onAction = () => undefined,
  rows: fixedRows,
}: {
  requests: { sort: DataTableSort | undefined; pageIndex: number }[];
  onAction?: (thing: Thing) => void;
  rows?: Thing[] | undefined | "loading";
}) {
  const [sort, setSort] = useState<DataTableSort | undefined>();
  const [pageIndex, setPageIndex] = useState(0);
  const rows = useMemo(() => {
    requests.push({ sort, pageIndex });
    return serverPage(sort, pageIndex, 20);
  }, [sort, pageIndex, requests]);
  return (
    <DataTable<Thing>
      label="45 things"
      columns={COLUMNS}
      rows={fixedRows === "loading" ? undefined : (fixedRows ?? rows)}
      rowCount={fixedRows === "loading" ? undefined : (fixedRows?.length ?? THINGS.length)}
      getRowId={(thing) => thing.id}
      getRowName={(thing) => thing.name}
      sort={sort}
      onSortChange={setSort}
      pageIndex={pageIndex}
      pageSize={20}
      onPageChange={setPageIndex}
      empty={<p>Nothing here yet</p>}
      rowActions={(thing) => (
        <>
          <MenuItem onSelect={() => onAction(thing)}>Rename</MenuItem>
          <MenuItem danger onSelect={() => onAction({ ...thing, name: `deleted ${thing.name}` })}>
            Delete
          </MenuItem>
        </>
      )}
    />
  );
}

const bodyNames = () =>
  within(screen.getByRole("table", { name: "45 things" }))
    .getAllByRole("row")
    .slice(1)
    .map((row) => within(row).getAllByRole("cell")[0]?.textContent);

describe("DataTable", () => {
  it("asks the server for each sort, shows the server's order as it came, and announces the sort", async () => {
    const user = userEvent.setup();
    const requests: { sort: DataTableSort | undefined; pageIndex: number }[] = [];
    renderWithKit(<Harness requests={requests} />);
    expect(bodyNames().slice(0, 2)).toEqual(["thing 0", "thing 1"]);
    const nameHeader = screen.getByRole("columnheader", { name: "Name" });
    expect(nameHeader.getAttribute("aria-sort")).toBeNull();

    await user.click(screen.getByRole("button", { name: "Name" }));
    expect(requests.at(-1)).toEqual({ sort: { id: "name", desc: false }, pageIndex: 0 });
    expect(nameHeader.getAttribute("aria-sort")).toBe("ascending");
    // The server's order ("thing 44" first), never re-sorted here (a client sort would put "thing 0" first).
    expect(bodyNames().slice(0, 2)).toEqual(["thing 44", "thing 43"]);

    await user.click(screen.getByRole("button", { name: "Name" }));
    expect(requests.at(-1)).toEqual({ sort: { id: "name", desc: true }, pageIndex: 0 });
    expect(nameHeader.getAttribute("aria-sort")).toBe("descending");

    // Another column: its own first direction (newest/largest first), the previous one no longer sorted.
    await user.click(screen.getByRole("button", { name: "Size" }));
    expect(requests.at(-1)).toEqual({ sort: { id: "size", desc: true }, pageIndex: 0 });
    expect(nameHeader.getAttribute("aria-sort")).toBeNull();
    expect(screen.getByRole("columnheader", { name: "Size" }).getAttribute("aria-sort")).toBe("descending");
  });

  it("pages through the server's rows and goes back to the first page when the sort changes", async () => {
    const user = userEvent.setup();
    const requests: { sort: DataTableSort | undefined; pageIndex: number }[] = [];
    renderWithKit(<Harness requests={requests} />);
    const pages = screen.getByRole("navigation", { name: "Pages" });
    expect(within(pages).getByText("1–20 of 45")).toBeTruthy();
    expect(within(pages).getByText("Page 1 of 3")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Previous page" }).hasAttribute("disabled")).toBe(true);

    await user.click(screen.getByRole("button", { name: "Next page" }));
    expect(requests.at(-1)).toEqual({ sort: undefined, pageIndex: 1 });
    expect(within(pages).getByText("21–40 of 45")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Next page" }));
    expect(within(pages).getByText("41–45 of 45")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Next page" }).hasAttribute("disabled")).toBe(true);
    expect(bodyNames()).toHaveLength(5);

    await user.click(screen.getByRole("button", { name: "Previous page" }));
    expect(requests.at(-1)).toEqual({ sort: undefined, pageIndex: 1 });
    await user.click(screen.getByRole("button", { name: "Name" }));
    expect(requests.at(-1)).toEqual({ sort: { id: "name", desc: false }, pageIndex: 0 });
    expect(within(pages).getByText("1–20 of 45")).toBeTruthy();
  });

  it("shows and hides columns from the columns menu in the table's corner, keeping at least one", async () => {
    const user = userEvent.setup();
    renderWithKit(<Harness requests={[]} />);
    const table = screen.getByRole("table", { name: "45 things" });
    // While the menu is open the rest of the page is hidden from assistive technology (a modal menu): read the DOM.
    const headers = () => [...table.querySelectorAll("th")].map((th) => th.textContent);
    expect(headers()).toEqual(["Name", "Size", "Actions"]);

    await user.click(screen.getByRole("button", { name: "Columns" }));
    const menu = screen.getByRole("menu", { name: "Columns" });
    expect(
      within(menu)
        .getAllByRole("menuitemcheckbox")
        .map((item) => [item.textContent, item.getAttribute("aria-checked")]),
    ).toEqual([
      ["Name", "true"],
      ["Size", "true"],
      ["Id", "false"],
    ]);
    await user.click(within(menu).getByRole("menuitemcheckbox", { name: "Id" }));
    await user.click(within(menu).getByRole("menuitemcheckbox", { name: "Size" }));
    // The menu stays open for the next choice.
    expect(headers()).toEqual(["Name", "Id", "Actions"]);
    expect(table.querySelector("tbody tr")?.textContent).toContain("t0");
    await user.click(within(menu).getByRole("menuitemcheckbox", { name: "Id" }));
    // Name is the last column shown: it cannot be hidden.
    expect(within(menu).getByRole("menuitemcheckbox", { name: "Name" }).getAttribute("aria-disabled")).toBe("true");
  });

  it("works from the keyboard: sort buttons and each row's action menu", async () => {
    const user = userEvent.setup();
    const requests: { sort: DataTableSort | undefined; pageIndex: number }[] = [];
    const onAction = vi.fn();
    renderWithKit(<Harness requests={requests} onAction={onAction} />);

    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Name" }));
    await user.keyboard("{Enter}");
    expect(requests.at(-1)).toEqual({ sort: { id: "name", desc: false }, pageIndex: 0 });
    await user.tab();
    await user.keyboard(" ");
    expect(requests.at(-1)).toEqual({ sort: { id: "size", desc: true }, pageIndex: 0 });

    // One "…" button per row, named after its row; the actions are in its menu.
    const firstRow = bodyNames()[0]!;
    const trigger = screen.getByRole("button", { name: `Actions for ${firstRow}` });
    act(() => trigger.focus());
    await user.keyboard("{Enter}");
    const menu = await screen.findByRole("menu");
    expect(
      within(menu)
        .getAllByRole("menuitem")
        .map((item) => item.textContent),
    ).toEqual(["Rename", "Delete"]);
    await user.keyboard("{ArrowDown}{ArrowDown}{Enter}");
    expect(onAction).toHaveBeenCalledWith(expect.objectContaining({ name: `deleted ${firstRow}` }));
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it("stands skeleton rows in while the first page loads, and an empty state when nothing matches", () => {
    const { unmount } = renderWithKit(<Harness requests={[]} rows="loading" />);
    const table = screen.getByRole("table", { name: "45 things" });
    expect(table.getAttribute("aria-busy")).toBe("true");
    expect(table.querySelectorAll("tbody tr.tt-datatable__skeleton")).toHaveLength(8);
    expect(screen.getByRole("button", { name: "Next page" }).hasAttribute("disabled")).toBe(true);
    unmount();

    renderWithKit(<Harness requests={[]} rows={[]} />);
    expect(screen.queryByRole("table")).toBeNull();
    expect(screen.getByText("Nothing here yet")).toBeTruthy();
  });
});
