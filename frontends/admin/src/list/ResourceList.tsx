import { Code } from "@connectrpc/connect";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { errorCode, useErrorText, useSession } from "@tt/web-kit";
import { useId, useState, type FormEvent, type ReactNode } from "react";
import { useAdminText } from "../i18n.ts";
import { ConfirmAction, type ActionField, type PendingAction } from "./ConfirmAction.tsx";
import { buildQuery, type AdminListQueryInit, type FilterSpec, type ListState, type SortDir } from "./query.ts";

export interface Column<Row> {
  /** The query language's field name (sorting sends it). */
  field: string;
  label: string;
  sortable?: boolean;
  render: (row: Row) => ReactNode;
}

export interface RowAction<Row> {
  id: string;
  label: string;
  destructive?: boolean;
  question: (row: Row) => string;
  /** The dialog's inputs; a function fills them from the row (an edit form). */
  fields?: readonly ActionField[] | ((row: Row) => readonly ActionField[]);
  visible?: (row: Row) => boolean;
  run: (row: Row, values: Record<string, string>) => Promise<unknown>;
}

/** An action on the whole list (create, bulk create, whitelist a number). */
export interface ListAction {
  id: string;
  label: string;
  question: string;
  fields?: readonly ActionField[];
  run: (values: Record<string, string>) => Promise<unknown>;
}

export interface ListPage<Row> {
  rows: Row[];
  total: number;
  pageCount: number;
}

/** What one admin list is: everything the generic screen needs to page, sort, filter and act on it. */
export interface ResourceDescription<Row> {
  /** Cache key part, unique per resource. */
  key: string;
  /** The plural noun shown in the caption ("12 rooms"). */
  title: string;
  columns: readonly Column<Row>[];
  filters?: readonly FilterSpec[];
  actions?: readonly RowAction<Row>[];
  listActions?: readonly ListAction[];
  rowKey: (row: Row) => string;
  /** The row's name in confirmation questions. */
  rowName: (row: Row) => string;
  defaultSort?: { field: string; dir: SortDir };
  pageSize?: number;
  list: (query: AdminListQueryInit) => Promise<ListPage<Row>>;
}

export const DEFAULT_PAGE_SIZE = 20;

function AdminsOnly() {
  const { t } = useAdminText();
  return (
    <div className="tt-card tt-empty" role="alert">
      <h2>{t("adminsOnlyTitle")}</h2>
      <p className="tt-muted">{t("adminsOnlyBody")}</p>
    </div>
  );
}

/** The one list screen of the console: a table paged, sorted and filtered through the admin list query. */
export function ResourceList<Row>({ description }: { description: ResourceDescription<Row> }) {
  const { t } = useAdminText();
  const toText = useErrorText();
  const { signedIn, user } = useSession();
  // Guests and members cannot use the console; the server is asked only for a staff role (it decides the rest).
  const mayAsk = signedIn && user?.role !== undefined && user.role !== "user";
  const queryClient = useQueryClient();
  const filters = description.filters ?? [];
  const pageSize = description.pageSize ?? DEFAULT_PAGE_SIZE;
  const [state, setState] = useState<ListState>({ page: 1, sort: description.defaultSort, filters: {} });
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [pending, setPending] = useState<PendingAction | undefined>();
  const formId = useId();
  const query = buildQuery(state, filters, pageSize);
  const list = useQuery({
    queryKey: ["adminList", description.key, query],
    queryFn: () => description.list(query),
    enabled: mayAsk,
    placeholderData: keepPreviousData,
  });

  const code = errorCode(list.error);
  if (!mayAsk || code === Code.PermissionDenied || code === Code.Unauthenticated) return <AdminsOnly />;

  const refresh = () => void queryClient.invalidateQueries({ queryKey: ["adminList", description.key] });
  const applyFilters = (event: FormEvent) => {
    event.preventDefault();
    setState((s) => ({ ...s, page: 1, filters: draft }));
  };
  const toggleSort = (field: string) =>
    setState((s) => ({
      ...s,
      page: 1,
      sort: { field, dir: s.sort?.field === field && s.sort.dir === "ASC" ? "DESC" : "ASC" },
    }));
  const actions = description.actions ?? [];

  let table: ReactNode;
  if (list.isError) {
    table = (
      <div className="tt-error" role="alert">
        <p>{toText(list.error)}</p>
        <button type="button" className="tt-button" onClick={() => void list.refetch()}>
          {t("retry")}
        </button>
      </div>
    );
  } else if (!list.data) {
    table = <p className="tt-loading">{t("loading")}</p>;
  } else {
    const { rows, total, pageCount } = list.data;
    const lastPage = Math.max(pageCount, 1);
    const width = description.columns.length + (actions.length > 0 ? 1 : 0);
    table = (
      <>
        <div className="tt-table-wrap">
          <table className="tt-table" aria-busy={list.isFetching}>
            <caption className="tt-admin-caption">{t("caption", { total, what: description.title })}</caption>
            <thead>
              <tr>
                {description.columns.map((column) => {
                  const sorted = state.sort?.field === column.field ? state.sort.dir : undefined;
                  return (
                    <th
                      key={column.field}
                      scope="col"
                      aria-sort={sorted === "ASC" ? "ascending" : sorted === "DESC" ? "descending" : undefined}
                    >
                      {column.sortable ? (
                        <button
                          type="button"
                          className="tt-admin-sort"
                          aria-label={t("sortBy", { column: column.label })}
                          onClick={() => toggleSort(column.field)}
                        >
                          {column.label}
                          {sorted === "ASC" ? " ▲" : sorted === "DESC" ? " ▼" : ""}
                        </button>
                      ) : (
                        column.label
                      )}
                    </th>
                  );
                })}
                {actions.length > 0 && <th scope="col">{t("actions")}</th>}
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={width}>{t("empty")}</td>
                </tr>
              ) : (
                rows.map((row) => (
                  <tr key={description.rowKey(row)}>
                    {description.columns.map((column, index) => (
                      <td key={column.field} id={index === 0 ? `${formId}-row-${description.rowKey(row)}` : undefined}>
                        {column.render(row)}
                      </td>
                    ))}
                    {actions.length > 0 && (
                      <td className="tt-admin-actions">
                        {actions
                          .filter((action) => action.visible?.(row) ?? true)
                          .map((action) => (
                            <button
                              key={action.id}
                              type="button"
                              className={
                                action.destructive
                                  ? "tt-button tt-button--quiet tt-button--danger"
                                  : "tt-button tt-button--quiet"
                              }
                              aria-describedby={`${formId}-row-${description.rowKey(row)}`}
                              onClick={() =>
                                setPending({
                                  label: action.label,
                                  question: action.question(row),
                                  fields: typeof action.fields === "function" ? action.fields(row) : action.fields,
                                  destructive: action.destructive,
                                  run: (values) => action.run(row, values),
                                })
                              }
                            >
                              {action.label}
                            </button>
                          ))}
                      </td>
                    )}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        <nav className="tt-pagination" aria-label={t("pagination")}>
          <button
            type="button"
            className="tt-button tt-button--quiet"
            disabled={state.page <= 1}
            onClick={() => setState((s) => ({ ...s, page: Math.max(1, s.page - 1) }))}
          >
            {t("previous")}
          </button>
          <span aria-live="polite">{t("pageOf", { page: state.page, pageCount: lastPage })}</span>
          <button
            type="button"
            className="tt-button tt-button--quiet"
            disabled={state.page >= lastPage || list.isPlaceholderData}
            onClick={() => setState((s) => ({ ...s, page: s.page + 1 }))}
          >
            {t("next")}
          </button>
        </nav>
      </>
    );
  }

  return (
    <>
      {(description.listActions ?? []).length > 0 && (
        <div className="tt-admin-toolbar">
          {(description.listActions ?? []).map((action) => (
            <button
              key={action.id}
              type="button"
              className="tt-button"
              onClick={() =>
                setPending({ label: action.label, question: action.question, fields: action.fields, run: action.run })
              }
            >
              {action.label}
            </button>
          ))}
        </div>
      )}
      {filters.length > 0 && (
        <form className="tt-admin-filters" aria-label={t("filters")} onSubmit={applyFilters}>
          {filters.map((filter) => (
            <div key={filter.id} className="tt-field">
              <label htmlFor={`${formId}-${filter.id}`}>{filter.label}</label>
              {filter.options ? (
                <select
                  id={`${formId}-${filter.id}`}
                  value={draft[filter.id] ?? ""}
                  onChange={(event) => setDraft((d) => ({ ...d, [filter.id]: event.target.value }))}
                >
                  <option value="">{t("any")}</option>
                  {filter.options.map((option) => (
                    <option key={option} value={option}>
                      {option}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  id={`${formId}-${filter.id}`}
                  type={filter.type === "datetime" ? "datetime-local" : "search"}
                  value={draft[filter.id] ?? ""}
                  onChange={(event) => setDraft((d) => ({ ...d, [filter.id]: event.target.value }))}
                />
              )}
            </div>
          ))}
          <button type="submit" className="tt-button">
            {t("applyFilters")}
          </button>
          <button
            type="button"
            className="tt-button tt-button--quiet"
            onClick={() => {
              setDraft({});
              setState((s) => ({ ...s, page: 1, filters: {} }));
            }}
          >
            {t("clearFilters")}
          </button>
        </form>
      )}
      {table}
      {pending && <ConfirmAction action={pending} onClose={() => setPending(undefined)} onDone={refresh} />}
    </>
  );
}
