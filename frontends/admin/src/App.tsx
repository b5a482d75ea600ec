import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { AdminService } from "@tt/proto/tt/user/v1/admin_service_pb";
import { errorCode, queryKeys, useAppTranslation, useErrorText, useSession } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";
import { useState } from "react";
import "./admin.css";

export const USERS_PAGE_SIZE = 20;

const en = {
  title: "Users",
  adminsOnlyTitle: "Admins only",
  adminsOnlyBody: "This area is for administrators. Log in with an admin account to manage users.",
  loading: "Loading users…",
  retry: "Try again",
  caption: "{{total}} users",
  email: "E-mail",
  role: "Role",
  badges: "Badges",
  created: "Created",
  none: "—",
  empty: "No users match.",
  pagination: "Pages",
  previous: "Previous page",
  next: "Next page",
  pageOf: "Page {{page}} of {{pageCount}}",
};

const es: typeof en = {
  title: "Usuarios",
  adminsOnlyTitle: "Solo administradores",
  adminsOnlyBody:
    "Esta zona es para administradores. Inicia sesión con una cuenta de administrador para gestionar usuarios.",
  loading: "Cargando usuarios…",
  retry: "Reintentar",
  caption: "{{total}} usuarios",
  email: "Correo electrónico",
  role: "Rol",
  badges: "Insignias",
  created: "Creado",
  none: "—",
  empty: "Ningún usuario coincide.",
  pagination: "Páginas",
  previous: "Página anterior",
  next: "Página siguiente",
  pageOf: "Página {{page}} de {{pageCount}}",
};

function AdminsOnly({ title, body }: { title: string; body: string }) {
  return (
    <div className="tt-card tt-empty" role="alert">
      <h2>{title}</h2>
      <p className="tt-muted">{body}</p>
    </div>
  );
}

/** The admin remote's first screen: every account, a page at a time (adminListUsers, admins only). */
export function App() {
  const { t, i18n } = useAppTranslation("admin", { en, es });
  const toText = useErrorText();
  const users = useClient(AdminService);
  const { signedIn } = useSession();
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: queryKeys.adminUsers(page, USERS_PAGE_SIZE),
    queryFn: () => users.adminListUsers({ query: { limit: USERS_PAGE_SIZE, page } }),
    // Guests cannot be admins; the server is asked only when there is a user to ask for.
    enabled: signedIn,
    placeholderData: keepPreviousData,
  });
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium" });

  let body;
  const code = errorCode(list.error);
  if (!signedIn || code === Code.PermissionDenied || code === Code.Unauthenticated) {
    body = <AdminsOnly title={t("adminsOnlyTitle")} body={t("adminsOnlyBody")} />;
  } else if (list.isError) {
    body = (
      <div className="tt-error" role="alert">
        <p>{toText(list.error)}</p>
        <button type="button" className="tt-button" onClick={() => void list.refetch()}>
          {t("retry")}
        </button>
      </div>
    );
  } else if (!list.data) {
    body = <p className="tt-loading">{t("loading")}</p>;
  } else {
    const { data, total, pageCount } = list.data;
    const lastPage = Math.max(pageCount, 1);
    body = (
      <>
        <div className="tt-table-wrap">
          <table className="tt-table" aria-busy={list.isFetching}>
            <caption className="tt-admin-caption">{t("caption", { total })}</caption>
            <thead>
              <tr>
                <th scope="col">{t("email")}</th>
                <th scope="col">{t("role")}</th>
                <th scope="col">{t("badges")}</th>
                <th scope="col">{t("created")}</th>
              </tr>
            </thead>
            <tbody>
              {data.length === 0 ? (
                <tr>
                  <td colSpan={4}>{t("empty")}</td>
                </tr>
              ) : (
                data.map((user) => (
                  <tr key={user.uuid}>
                    <td>{user.email}</td>
                    <td>{user.role}</td>
                    <td>{user.badges.length > 0 ? user.badges.join(", ") : t("none")}</td>
                    <td>{user.createdAt ? dates.format(timestampDate(user.createdAt)) : t("none")}</td>
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
            disabled={page <= 1}
            onClick={() => setPage((p) => Math.max(1, p - 1))}
          >
            {t("previous")}
          </button>
          <span aria-live="polite">{t("pageOf", { page, pageCount: lastPage })}</span>
          <button
            type="button"
            className="tt-button tt-button--quiet"
            disabled={page >= lastPage || list.isPlaceholderData}
            onClick={() => setPage((p) => p + 1)}
          >
            {t("next")}
          </button>
        </nav>
      </>
    );
  }

  return (
    <section className="tt-admin" aria-labelledby="admin-title">
      <h1 id="admin-title" className="tt-page-title">
        {t("title")}
      </h1>
      {body}
    </section>
  );
}
