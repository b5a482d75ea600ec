import {
  columnVisibilityFeature,
  rowPaginationFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type ColumnVisibilityState,
  type PaginationState,
  type RowData,
  type SortingState,
  type Updater,
} from "@tanstack/react-table";
import { useAppTranslation } from "@tt/web-kit";
import { IconButton, Menu, MenuCheckboxItem, MenuLabel, Skeleton, useFormat } from "@tt/web-kit/ui";
import { ArrowDown, ArrowUp, ChevronLeft, ChevronRight, ChevronsUpDown, Columns3, Ellipsis } from "lucide-react";
import { useEffect, useMemo, useState, type ReactNode } from "react";

/** What the table registers of TanStack Table: sorting, paging and column visibility, all three driven from outside. */
const features = tableFeatures({ rowSortingFeature, rowPaginationFeature, columnVisibilityFeature });
type Features = typeof features;

export interface DataTableColumn<Row extends RowData> {
  /** The server's name of the field (sorting sends it); unique within the table. */
  id: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** The server can sort by it: the header becomes a button. */
  sortable?: boolean;
  /** The first click sorts descending (dates: newest first). */
  firstSort?: "asc" | "desc";
  /** The columns menu may hide it (default true). */
  hideable?: boolean;
  /** Hidden until the person shows it from the columns menu. */
  hidden?: boolean;
  align?: "start" | "end";
}

export interface DataTableSort {
  id: string;
  desc: boolean;
}

export interface DataTableProps<Row extends RowData> {
  /** The table's accessible name (its caption): what it lists, with the count when known ("1,234 users"). */
  label: string;
  columns: readonly DataTableColumn<Row>[];
  /** The current page's rows as the server sent them; undefined while the first page loads. */
  rows: readonly Row[] | undefined;
  /** How many rows match in all (the server's total); undefined when unknown. */
  rowCount: number | undefined;
  getRowId: (row: Row) => string;
  /** The sort the server applied; a header click asks for another through onSortChange. */
  sort?: DataTableSort | undefined;
  onSortChange?: (sort: DataTableSort | undefined) => void;
  /** 0-based. Changing the sort goes back to the first page (onPageChange(0)). */
  pageIndex: number;
  pageSize: number;
  onPageChange: (pageIndex: number) => void;
  /** A new page or sort is on its way: the rows shown are the previous answer. */
  busy?: boolean;
  /** Shown instead of the table when the page has no rows (an EmptyState with a next step). */
  empty?: ReactNode;
  /** Controls above the table, at its start (filters). */
  toolbar?: ReactNode;
  /** Buttons above the table, at its end after the columns menu (the list's own actions: create…). */
  actions?: ReactNode;
  /** The entries of a row's action menu (MenuItems); no menu when it gives nothing. */
  rowActions?: (row: Row) => ReactNode;
  /** The row's name in its action button's label ("Actions for ada@example.com"). */
  getRowName?: (row: Row) => string;
  /** Offers the columns menu (default true; a narrow table has nothing worth hiding). */
  columnsMenu?: boolean;
  /** Remembers the shown columns in this browser under this key. */
  storageKey?: string;
}

const NO_ROWS: readonly never[] = [];
const STORAGE_PREFIX = "tt-table-columns:";

function storedVisibility(storageKey: string | undefined): ColumnVisibilityState | undefined {
  if (!storageKey) return undefined;
  try {
    const stored = globalThis.localStorage?.getItem(STORAGE_PREFIX + storageKey);
    const parsed: unknown = stored ? JSON.parse(stored) : undefined;
    return parsed && typeof parsed === "object" ? (parsed as ColumnVisibilityState) : undefined;
  } catch {
    return undefined;
  }
}

function apply<T>(updater: Updater<T>, current: T): T {
  return typeof updater === "function" ? (updater as (old: T) => T)(current) : updater;
}

/**
 * A table of server-side rows (TanStack Table, manual sorting and paging): sorting a column or turning a page
 * asks the caller, who asks the server — the rows are never sorted here. Sort buttons in the headers announce
 * their state (aria-sort), a columns menu shows and hides columns, a pager says "1–50 of 1,234", skeleton rows
 * stand in while the first page loads, `empty` replaces an empty page, and each row's actions sit in one menu.
 */
export function DataTable<Row extends RowData>({
  label,
  columns,
  rows,
  rowCount,
  getRowId,
  sort,
  onSortChange,
  pageIndex,
  pageSize,
  onPageChange,
  busy = false,
  empty,
  toolbar,
  actions: listActions,
  rowActions,
  getRowName,
  columnsMenu: offerColumns = true,
  storageKey,
}: DataTableProps<Row>) {
  const { t } = useAppTranslation("common");
  const format = useFormat();
  const [columnVisibility, setColumnVisibility] = useState<ColumnVisibilityState>(() => ({
    ...Object.fromEntries(columns.filter((column) => column.hidden).map((column) => [column.id, false])),
    ...storedVisibility(storageKey),
  }));
  useEffect(() => {
    if (!storageKey) return;
    try {
      globalThis.localStorage?.setItem(STORAGE_PREFIX + storageKey, JSON.stringify(columnVisibility));
    } catch {
      // Storage full or refused: the choice lasts as long as the page.
    }
  }, [storageKey, columnVisibility]);

  const columnDefs = useMemo<ColumnDef<Features, Row>[]>(
    () =>
      columns.map((column) => ({
        id: column.id,
        header: column.header,
        // Sorting needs an accessor; the value is never compared here (manualSorting), the server sorts.
        accessorFn: () => "",
        cell: ({ row }) => column.cell(row.original),
        enableSorting: Boolean(column.sortable),
        enableHiding: column.hideable ?? true,
        sortDescFirst: column.firstSort === "desc",
      })),
    [columns],
  );
  const sorting = useMemo<SortingState>(
    () => (sort ? [{ id: sort.id, desc: sort.desc }] : []),
    [sort?.id, sort?.desc], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const pagination = useMemo<PaginationState>(() => ({ pageIndex, pageSize }), [pageIndex, pageSize]);
  const data = (rows ?? NO_ROWS) as Row[];

  const table = useTable({
    features,
    columns: columnDefs,
    data,
    getRowId: (row) => getRowId(row),
    state: { sorting, pagination, columnVisibility },
    manualSorting: true,
    manualPagination: true,
    autoResetPageIndex: false,
    enableSortingRemoval: false,
    enableMultiSort: false,
    ...(rowCount === undefined ? {} : { rowCount }),
    onSortingChange: (updater) => {
      const next = apply(updater, sorting)[0];
      onSortChange?.(next ? { id: next.id, desc: next.desc } : undefined);
      if (pageIndex !== 0) onPageChange(0);
    },
    onPaginationChange: (updater) => {
      const next = apply(updater, pagination);
      if (next.pageIndex !== pageIndex) onPageChange(next.pageIndex);
    },
    onColumnVisibilityChange: (updater) => setColumnVisibility((current) => apply(updater, current)),
  });

  // A page emptied under the caller (its last row deleted): go back one.
  const emptyPage = rows !== undefined && rows.length === 0 && pageIndex > 0 && !busy;
  useEffect(() => {
    if (emptyPage) onPageChange(pageIndex - 1);
  }, [emptyPage, pageIndex, onPageChange]);

  const hideable = table.getAllLeafColumns().filter((column) => column.getCanHide());
  const visibleCount = table.getVisibleLeafColumns().length;
  const loading = rows === undefined;
  const withActions = Boolean(rowActions);
  const headerGroups = table.getHeaderGroups();

  const columnsMenu =
    offerColumns && hideable.length > 0 ? (
      <Menu
        label={t("ui.table.columns")}
        trigger={<IconButton size="sm" icon={<Columns3 aria-hidden="true" />} label={t("ui.table.columns")} />}
      >
        <MenuLabel>{t("ui.table.showColumns")}</MenuLabel>
        {hideable.map((column) => {
          const visible = column.getIsVisible();
          return (
            <MenuCheckboxItem
              key={column.id}
              checked={visible}
              // The last visible column stays: a table of no columns says nothing.
              disabled={visible && visibleCount <= 1}
              onCheckedChange={(checked) => column.toggleVisibility(checked)}
            >
              {String(column.columnDef.header ?? column.id)}
            </MenuCheckboxItem>
          );
        })}
      </Menu>
    ) : null;

  // The last column holds each row's menu, and in its header the columns menu.
  const corner = withActions || Boolean(columnsMenu);

  const first = pageIndex * pageSize + 1;
  const last = pageIndex * pageSize + (rows?.length ?? 0);
  const pageCount = table.getPageCount();
  const range =
    rowCount === undefined
      ? t("ui.table.rowsOpen", { from: format.number(first), to: format.number(last) })
      : t("ui.table.rows", { from: format.number(first), to: format.number(last), total: format.number(rowCount) });

  const showEmpty = rows !== undefined && rows.length === 0 && !emptyPage;

  return (
    <div className="tt-datatable">
      {(toolbar || listActions) && (
        <div className="tt-datatable__toolbar">
          <div className="tt-datatable__toolbar-main">{toolbar}</div>
          {listActions && <div className="tt-datatable__tools">{listActions}</div>}
        </div>
      )}
      {showEmpty ? (
        empty
      ) : (
        <>
          <div className="tt-table-wrap">
            <table className="tt-table tt-datatable__table" aria-busy={busy || loading} data-busy={busy || undefined}>
              <caption className="tt-visually-hidden">{label}</caption>
              <thead>
                {headerGroups.map((group) => (
                  <tr key={group.id}>
                    {group.headers.map((header) => {
                      const spec = columns.find((column) => column.id === header.column.id);
                      const sorted =
                        sort?.id === header.column.id ? (sort.desc ? "descending" : "ascending") : undefined;
                      const SortIcon =
                        sorted === "ascending" ? ArrowUp : sorted === "descending" ? ArrowDown : ChevronsUpDown;
                      return (
                        <th
                          key={header.id}
                          scope="col"
                          aria-sort={sorted}
                          className={spec?.align === "end" ? "tt-datatable__end" : undefined}
                        >
                          {header.column.getCanSort() ? (
                            <button
                              type="button"
                              className="tt-table__sort"
                              data-sorted={sorted ? "true" : undefined}
                              onClick={() => header.column.toggleSorting()}
                            >
                              {spec?.header}
                              <SortIcon aria-hidden="true" />
                            </button>
                          ) : (
                            spec?.header
                          )}
                        </th>
                      );
                    })}
                    {corner && (
                      <th scope="col" className="tt-datatable__actions">
                        {withActions && <span className="tt-visually-hidden">{t("ui.table.actions")}</span>}
                        {columnsMenu}
                      </th>
                    )}
                  </tr>
                ))}
              </thead>
              <tbody>
                {loading
                  ? Array.from({ length: Math.min(pageSize, 8) }, (_, index) => (
                      <tr key={index} className="tt-datatable__skeleton" aria-hidden="true">
                        {table.getVisibleLeafColumns().map((column, cellIndex) => (
                          <td key={column.id}>
                            <Skeleton
                              width={cellIndex === 0 ? "70%" : `${40 + ((index * 7 + cellIndex * 13) % 40)}%`}
                            />
                          </td>
                        ))}
                        {corner && <td />}
                      </tr>
                    ))
                  : table.getRowModel().rows.map((row) => {
                      const actions = rowActions?.(row.original);
                      return (
                        <tr key={row.id}>
                          {row.getVisibleCells().map((cell) => {
                            const spec = columns.find((column) => column.id === cell.column.id);
                            return (
                              <td key={cell.id} className={spec?.align === "end" ? "tt-datatable__end" : undefined}>
                                <table.FlexRender cell={cell} />
                              </td>
                            );
                          })}
                          {corner && (
                            <td className="tt-datatable__actions">
                              {actions ? (
                                <Menu
                                  trigger={
                                    <IconButton
                                      size="sm"
                                      icon={<Ellipsis aria-hidden="true" />}
                                      label={t("ui.table.rowActions", {
                                        name: getRowName?.(row.original) ?? row.id,
                                      })}
                                    />
                                  }
                                >
                                  {actions}
                                </Menu>
                              ) : null}
                            </td>
                          )}
                        </tr>
                      );
                    })}
              </tbody>
            </table>
          </div>
          <nav className="tt-pager" aria-label={t("ui.table.pages")}>
            <span aria-live="polite">{loading ? "" : range}</span>
            <span className="tt-pager__controls">
              {!loading && pageCount > 1 && (
                <span className="tt-pager__page">
                  {t("ui.table.pageOf", { page: format.number(pageIndex + 1), pages: format.number(pageCount) })}
                </span>
              )}
              <IconButton
                size="sm"
                variant="secondary"
                icon={<ChevronLeft aria-hidden="true" />}
                label={t("ui.table.previous")}
                disabled={loading || !table.getCanPreviousPage()}
                onClick={() => table.previousPage()}
              />
              <IconButton
                size="sm"
                variant="secondary"
                icon={<ChevronRight aria-hidden="true" />}
                label={t("ui.table.next")}
                disabled={loading || busy || !table.getCanNextPage()}
                onClick={() => table.nextPage()}
              />
            </span>
          </nav>
        </>
      )}
    </div>
  );
}
