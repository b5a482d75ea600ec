import { Code } from "@connectrpc/connect";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { errorCode, toast, useErrorText } from "@tt/web-kit";
import { DataTable, type DataTableColumn, type RowData } from "@tt/web-kit/table";
import {
  Button,
  EmptyState,
  ErrorMessage,
  Field,
  Input,
  MenuItem,
  MenuSeparator,
  Select,
  buttonClass,
} from "@tt/web-kit/ui";
import { Inbox, ListFilter, RotateCcw, SearchX } from "lucide-react";
import { lazy, Suspense, useCallback, useId, useMemo, useState, type FormEvent, type ReactNode } from "react";
import { useAdminText } from "../i18n.ts";
import { AdminsOnly, useMayAdminister } from "./AdminsOnly.tsx";
import { useFindUsers } from "./find-users.ts";
import type { ActionField, ActionFiles, ActionValues } from "./fields.ts";
import {
  buildQuery,
  withUsersFound,
  type AdminListQueryInit,
  type FilterSpec,
  type ListState,
  type SortDir,
} from "./query.ts";

export interface Column<Row> {
  /** The query language's field name (sorting sends it). */
  field: string;
  label: string;
  sortable?: boolean;
  /** Sorted descending on the first click (dates: newest first). */
  descFirst?: boolean;
  /** Hidden until shown from the columns menu. */
  hidden?: boolean;
  /** The columns menu cannot hide it (the column that names the row). */
  fixed?: boolean;
  align?: "start" | "end";
  render: (row: Row) => ReactNode;
}

interface ActionBase {
  id: string;
  label: string;
  icon?: ReactNode;
  /** Red, and asked with a danger button: what cannot be undone or locks someone out. */
  destructive?: boolean;
  /** The button that sends it; the action's label by default. */
  confirmLabel?: string;
}

export interface RowAction<Row> extends ActionBase {
  /** The dialog's title; "<label>: <row's name>" by default. */
  title?: (row: Row) => string;
  /** What happens, asked before anything is sent. */
  question?: (row: Row) => string;
  /** The dialog's inputs; a function fills them from the row (an edit form). */
  fields?: readonly ActionField[] | ((row: Row) => readonly ActionField[]);
  visible?: (row: Row) => boolean;
  /** Opens something of the screen's own instead of a dialog (the user's details). */
  open?: (row: Row) => void;
  run?: (row: Row, values: ActionValues, files: ActionFiles) => Promise<unknown>;
}

/** An action on the whole list (create, bulk create, whitelist a number). */
export interface ListAction extends ActionBase {
  question?: string;
  fields?: readonly ActionField[];
  run: (values: ActionValues, files: ActionFiles) => Promise<unknown>;
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
  /** The plural noun shown in the caption ("12 Rooms"). */
  title: string;
  columns: readonly Column<Row>[];
  filters?: readonly FilterSpec[];
  actions?: readonly RowAction<Row>[];
  listActions?: readonly ListAction[];
  rowKey: (row: Row) => string;
  /** The row's name in dialogs, toasts and its action button's label. */
  rowName: (row: Row) => string;
  defaultSort?: { field: string; dir: SortDir };
  pageSize?: number;
  /** The empty state's title; "No <title> yet" by default. */
  emptyTitle?: string;
  /** Why the list may be empty and what fills it; the first list action is offered as the next step. */
  emptyBody?: string;
  /** A next step elsewhere when the list has no action of its own (a section of the console). */
  emptyLink?: { label: string; href: string };
  list: (query: AdminListQueryInit) => Promise<ListPage<Row>>;
}

export const DEFAULT_PAGE_SIZE = 20;
/** At most this many users are looked for by a user filter's words (per nickname and per e-mail). */
const USERS_FOUND = 100;

// The dialogs' forms (react-hook-form and zod, through @tt/web-kit/form) load when a dialog first opens, not with
// the list.
const ActionDialog = lazy(() => import("./ActionDialog.tsx").then((module) => ({ default: module.ActionDialog })));
/** Filter pickers' "no filter" choice (a picker's value cannot be empty). */
const ANY = "__any";

type Pending<Row> = { kind: "row"; action: RowAction<Row>; row: Row } | { kind: "list"; action: ListAction };

/**
 * The one list screen of the console: filters in the admin list query language, a server-sorted and -paged kit
 * DataTable, one action menu per row, the list's own actions above it, and every action in a kit dialog whose
 * outcome is a toast.
 */
export function ResourceList<Row extends RowData>({
  description,
  heading,
}: {
  description: ResourceDescription<Row>;
  heading?: string;
}) {
  const { t, language } = useAdminText();
  const toText = useErrorText();
  const mayAsk = useMayAdminister();
  const queryClient = useQueryClient();
  const filters = description.filters ?? [];
  const pageSize = description.pageSize ?? DEFAULT_PAGE_SIZE;
  const [state, setState] = useState<ListState>({ page: 1, sort: description.defaultSort, filters: {} });
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [pending, setPending] = useState<Pending<Row> | undefined>();
  // On a narrow screen the filters fold behind a button; on a wide one they are always shown.
  const [filtersOpen, setFiltersOpen] = useState(false);
  const formId = useId();
  const query = buildQuery(state, filters, pageSize);
  const findUsersBy = useFindUsers(USERS_FOUND);
  const findUsers = useCallback(
    async (words: string) => (await findUsersBy(words)).map((user) => user.uuid),
    [findUsersBy],
  );
  const list = useQuery({
    queryKey: ["adminList", description.key, query],
    queryFn: async () => description.list(await withUsersFound(query, filters, findUsers)),
    enabled: mayAsk,
    placeholderData: keepPreviousData,
  });

  const columns = useMemo<DataTableColumn<Row>[]>(
    () =>
      description.columns.map((column) => ({
        id: column.field,
        header: column.label,
        sortable: column.sortable,
        firstSort: column.descFirst ? "desc" : "asc",
        hidden: column.hidden,
        hideable: !column.fixed,
        align: column.align,
        cell: (row: Row) => column.render(row),
      })),
    [description.columns],
  );
  const onPageChange = useCallback((pageIndex: number) => setState((s) => ({ ...s, page: pageIndex + 1 })), []);

  const code = errorCode(list.error);
  if (!mayAsk || code === Code.PermissionDenied || code === Code.Unauthenticated) return <AdminsOnly />;

  const refresh = () => void queryClient.invalidateQueries({ queryKey: ["adminList", description.key] });
  const activeFilters = Object.values(state.filters).filter((value) => value.trim() !== "").length;
  const filtered = activeFilters > 0;
  const applyFilters = (event: FormEvent) => {
    event.preventDefault();
    setState((s) => ({ ...s, page: 1, filters: draft }));
  };
  const clearFilters = () => {
    setDraft({});
    setState((s) => ({ ...s, page: 1, filters: {} }));
  };
  const listActions = description.listActions ?? [];
  const rowActions = description.actions ?? [];

  const actionMenu = (row: Row) => {
    const visible = rowActions.filter((action) => action.visible?.(row) ?? true);
    if (visible.length === 0) return null;
    const safe = visible.filter((action) => !action.destructive);
    const risky = visible.filter((action) => action.destructive);
    const item = (action: RowAction<Row>) => (
      <MenuItem
        key={action.id}
        icon={action.icon}
        danger={action.destructive}
        onSelect={() => (action.open ? action.open(row) : setPending({ kind: "row", action, row }))}
      >
        {action.label}
      </MenuItem>
    );
    return (
      <>
        {safe.map(item)}
        {safe.length > 0 && risky.length > 0 && <MenuSeparator />}
        {risky.map(item)}
      </>
    );
  };

  // Beside the list's heading when it has one, else at the end of the toolbar above the table.
  const actionsInHead = Boolean(heading) || list.isError;
  const listButtons = listActions.map((action, index) => (
    <Button
      key={action.id}
      variant={index === 0 ? "primary" : "secondary"}
      icon={action.icon}
      onClick={() => setPending({ kind: "list", action })}
    >
      {action.label}
    </Button>
  ));

  const filterForm =
    filters.length > 0 ? (
      <div className="tt-admin-filterbar" data-open={filtersOpen}>
        <Button
          variant="secondary"
          className="tt-admin-filterbar__toggle"
          icon={<ListFilter />}
          aria-expanded={filtersOpen}
          aria-controls={`${formId}-filters`}
          onClick={() => setFiltersOpen((open) => !open)}
        >
          {activeFilters > 0 ? t("filtersCount", { count: activeFilters }) : t("filters")}
        </Button>
        <form id={`${formId}-filters`} className="tt-admin-filters" aria-label={t("filters")} onSubmit={applyFilters}>
          {filters.map((filter) => (
            <Field key={filter.id} label={filter.label} className="tt-admin-filters__field">
              {filter.options ? (
                <Select
                  id={`${formId}-${filter.id}`}
                  value={draft[filter.id] || ANY}
                  onValueChange={(value) => setDraft((d) => ({ ...d, [filter.id]: value === ANY ? "" : value }))}
                  options={[{ value: ANY, label: t("any") }, ...filter.options]}
                />
              ) : (
                <Input
                  id={`${formId}-${filter.id}`}
                  type={filter.type === "datetime" ? "datetime-local" : "search"}
                  placeholder={filter.type === "user" ? t("userFilterHint") : undefined}
                  value={draft[filter.id] ?? ""}
                  onChange={(event) => setDraft((d) => ({ ...d, [filter.id]: event.target.value }))}
                />
              )}
            </Field>
          ))}
          <div className="tt-admin-filters__buttons">
            <Button type="submit" variant="secondary">
              {t("applyFilters")}
            </Button>
            <Button variant="ghost" onClick={clearFilters}>
              {t("clearFilters")}
            </Button>
          </div>
        </form>
      </div>
    ) : undefined;

  const empty = filtered ? (
    <EmptyState
      icon={<SearchX />}
      title={t("emptyFilteredTitle")}
      headingLevel={heading ? 3 : 2}
      action={
        <Button variant="secondary" onClick={clearFilters}>
          {t("clearAllFilters")}
        </Button>
      }
    >
      {t("emptyFilteredBody")}
    </EmptyState>
  ) : (
    <EmptyState
      icon={<Inbox />}
      title={description.emptyTitle ?? t("emptyTitle", { what: description.title.toLowerCase() })}
      headingLevel={heading ? 3 : 2}
      action={
        listActions[0] ? (
          <Button icon={listActions[0].icon} onClick={() => setPending({ kind: "list", action: listActions[0]! })}>
            {listActions[0].label}
          </Button>
        ) : description.emptyLink ? (
          <a className={buttonClass("secondary")} href={description.emptyLink.href}>
            {description.emptyLink.label}
          </a>
        ) : (
          // Nothing to create here: looking again is the next step.
          <Button variant="secondary" icon={<RotateCcw />} busy={list.isFetching} onClick={() => void list.refetch()}>
            {t("refresh")}
          </Button>
        )
      }
    >
      {description.emptyBody}
    </EmptyState>
  );

  const total = list.data?.total;
  const numbers = new Intl.NumberFormat(language);
  const label =
    total === undefined ? description.title : t("caption", { total: numbers.format(total), what: description.title });

  const dialog = (() => {
    if (!pending) return null;
    const close = () => setPending(undefined);
    const done = (name?: string) => {
      toast({ title: t("done", { action: pending.action.label }), description: name, tone: "success" });
      setPending(undefined);
      refresh();
    };
    if (pending.kind === "list") {
      const { action } = pending;
      return (
        <ActionDialog
          title={action.label}
          description={action.question}
          fields={action.fields}
          confirmLabel={action.confirmLabel ?? action.label}
          destructive={action.destructive}
          run={action.run}
          onDone={() => done()}
          onClose={close}
        />
      );
    }
    const { action, row } = pending;
    const name = description.rowName(row);
    return (
      <ActionDialog
        title={action.title?.(row) ?? `${action.label}: ${name}`}
        description={action.question?.(row)}
        fields={typeof action.fields === "function" ? action.fields(row) : action.fields}
        confirmLabel={action.confirmLabel ?? action.label}
        destructive={action.destructive}
        run={(values, files) => action.run?.(row, values, files) ?? Promise.resolve()}
        onDone={() => done(name)}
        onClose={close}
      />
    );
  })();

  return (
    <div className="tt-admin-list">
      {(heading || (list.isError && listButtons.length > 0)) && (
        <div className="tt-admin-list__head">
          {heading ? <h2 className="tt-admin-list__title">{heading}</h2> : <span />}
          {actionsInHead && listButtons.length > 0 && <div className="tt-admin-list__actions">{listButtons}</div>}
        </div>
      )}
      {list.isError ? (
        <div className="tt-admin-failed">
          <ErrorMessage>{toText(list.error)}</ErrorMessage>
          <Button variant="secondary" onClick={() => void list.refetch()}>
            {t("retry")}
          </Button>
        </div>
      ) : (
        <DataTable<Row>
          label={label}
          columns={columns}
          rows={list.data?.rows as Row[] | undefined}
          rowCount={total}
          getRowId={(row) => description.rowKey(row)}
          getRowName={(row) => description.rowName(row)}
          sort={state.sort ? { id: state.sort.field, desc: state.sort.dir === "DESC" } : undefined}
          onSortChange={(sort) =>
            setState((s) => ({
              ...s,
              page: 1,
              sort: sort ? { field: sort.id, dir: sort.desc ? "DESC" : "ASC" } : undefined,
            }))
          }
          pageIndex={state.page - 1}
          pageSize={pageSize}
          onPageChange={onPageChange}
          busy={list.isFetching && list.isPlaceholderData}
          empty={empty}
          toolbar={filterForm}
          actions={!actionsInHead && listButtons.length > 0 ? listButtons : undefined}
          columnsMenu={description.columns.length > 4}
          rowActions={rowActions.length > 0 ? actionMenu : undefined}
          storageKey={`admin:${description.key}`}
        />
      )}
      <Suspense fallback={null}>{dialog}</Suspense>
    </div>
  );
}
