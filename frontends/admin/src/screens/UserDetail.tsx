import { useQuery } from "@tanstack/react-query";
import { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import { useErrorText } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";
import { Avatar, Dialog, ErrorMessage, Skeleton } from "@tt/web-kit/ui";
import type { UserRow } from "./UsersScreen.tsx";
import { useAdminFormat } from "./format.ts";

/**
 * One account in full (AdminGetUser) with its moderation comments, in a dialog over the users table: opened from
 * a row (whose values show while the rest loads) or from a link to the user's page (`#users/<uuid>`).
 */
export function UserDetail({ uuid, row, onClose }: { uuid: string; row?: UserRow | undefined; onClose: () => void }) {
  const accounts = useClient(AccountService);
  const moderation = useClient(ModerationService);
  const toText = useErrorText();
  const { t, dateTime: date, text, name, names } = useAdminFormat();
  const detail = useQuery({
    queryKey: ["adminList", "users", "detail", uuid],
    queryFn: () => accounts.adminGetUser({ id: uuid }),
  });
  const comments = useQuery({
    queryKey: ["adminList", "users", "comments", uuid],
    queryFn: () => moderation.listModerationComments({ id: uuid }),
  });
  const user = detail.data?.user;
  const nickname = user?.profile?.nickname || row?.profile?.nickname;
  const email = user?.email || row?.user.email || "";
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      wide
      title={
        <span className="tt-admin-user tt-admin-user--title">
          <Avatar id={uuid} name={nickname || email || t("unknownUser")} size="md" decorative />
          <span>{nickname || email || t("unknownUser")}</span>
        </span>
      }
      description={email || undefined}
    >
      {detail.isError ? (
        <ErrorMessage>{toText(detail.error)}</ErrorMessage>
      ) : !user ? (
        <div className="tt-stack" aria-busy="true">
          {Array.from({ length: 6 }, (_, index) => (
            <Skeleton key={index} height="1.25rem" width={`${60 + ((index * 17) % 35)}%`} />
          ))}
        </div>
      ) : (
        <dl className="tt-admin-facts">
          <dt>{t("col_nickname")}</dt>
          <dd>{text(user.profile?.nickname)}</dd>
          <dt>{t("col_role")}</dt>
          <dd>{name("userRole", user.role)}</dd>
          <dt>{t("col_capabilities")}</dt>
          <dd>{names("capability", user.capabilities)}</dd>
          <dt>{t("col_badges")}</dt>
          <dd>{names("badge", user.badges)}</dd>
          <dt>{t("col_status")}</dt>
          <dd>
            {user.deactivatedAt
              ? t("status_deactivated")
              : user.ban
                ? `${user.ban.endsAt ? t("status_bannedUntil", { at: date(user.ban.endsAt) }) : t("status_banned")}${user.ban.reason ? ` · ${user.ban.reason}` : ""}`
                : user.deactivationRequestedAt
                  ? t("status_deactivationRequested", { at: date(user.deactivationRequestedAt) })
                  : t("status_active")}
          </dd>
          <dt>{t("userEmails")}</dt>
          <dd>{user.emails.map((e) => `${e.email} (${name("emailStatus", e.status)})`).join(", ") || t("none")}</dd>
          <dt>{t("col_phoneNumbers")}</dt>
          <dd>{user.phoneNumbers.map((p) => p.phoneNumber).join(", ") || t("none")}</dd>
          <dt>{t("col_created")}</dt>
          <dd>{date(user.createdAt)}</dd>
          <dt>{t("col_uuid")}</dt>
          <dd className="tt-admin-mono">{user.uuid}</dd>
        </dl>
      )}
      <h3 className="tt-admin-detail__heading">{t("userComments")}</h3>
      {comments.isError ? (
        <ErrorMessage>{toText(comments.error)}</ErrorMessage>
      ) : (comments.data?.comments ?? []).length === 0 ? (
        <p className="tt-muted">{comments.data ? t("noComments") : t("loading")}</p>
      ) : (
        <ul className="tt-admin-comments">
          {(comments.data?.comments ?? []).map((c) => (
            <li key={c.id}>
              <span className="tt-muted">{date(c.createdAt)}</span>
              <p>{c.comment}</p>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
