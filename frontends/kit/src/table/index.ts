// @tt/web-kit/table — server-driven data tables (TanStack Table): sorting, paging and column visibility asked of
// the server, never done on the loaded page. A federation singleton of its own, so only the screens that show a
// table (the admin console) load TanStack Table.
import "./table.css";

export { DataTable } from "./DataTable.tsx";
export type { DataTableColumn, DataTableProps, DataTableSort } from "./DataTable.tsx";
export type { RowData } from "@tanstack/react-table";
