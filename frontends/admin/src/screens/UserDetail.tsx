import { useQuery } from "@tanstack/react-query";
import { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import { useErrorText } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";
import { useFormat } from "./format.ts";

/** One account in full (AdminGetUser) with its moderation comments; shown under the user list. */
export function UserDetail({ uuid, onClose }: { uuid: string; onClose: () => void }) {
  const accounts = useClient(AccountService);
  const moderation = useClient(ModerationService);
  const toText = useErrorText();
  const { t, date, text } = useFormat();
  const detail = useQuery({
    queryKey: ["adminList", "users", "detail", uuid],
    queryFn: () => accounts.adminGetUser({ id: uuid }),
  });
  const comments = useQuery({
    queryKey: ["adminList", "users", "comments", uuid],
    queryFn: () => moderation.listModerationComments({ id: uuid }),
  });
  const user = detail.data?.user;
  return (
    <section className="tt-card tt-admin-detail" aria-label={t("userDetail")}>
      <button type="button" className="tt-button tt-button--quiet" onClick={onClose}>
        {t("dismiss")}
      </button>
      {detail.isError ? (
        <p className="tt-error" role="alert">
          {toText(detail.error)}
        </p>
      ) : !user ? (
        <p className="tt-loading">{t("loading")}</p>
      ) : (
        <dl>
          <dt>{t("col_email")}</dt>
          <dd>{user.email}</dd>
          <dt>uuid</dt>
          <dd>{user.uuid}</dd>
          <dt>{t("col_name")}</dt>
          <dd>{text(user.profile?.nickname)}</dd>
          <dt>{t("col_role")}</dt>
          <dd>{user.role}</dd>
          <dt>{t("col_capabilities")}</dt>
          <dd>{user.capabilities.join(", ") || t("none")}</dd>
          <dt>{t("col_badges")}</dt>
          <dd>{user.badges.join(", ") || t("none")}</dd>
          <dt>{t("col_ban")}</dt>
          <dd>
            {!user.ban
              ? t("none")
              : `${user.ban.endsAt ? t("bannedUntil", { at: date(user.ban.endsAt) }) : t("bannedForever")} · ${text(user.ban.reason)}`}
          </dd>
          <dt>{t("col_deactivation")}</dt>
          <dd>
            {user.deactivatedAt
              ? t("deactivated")
              : user.deactivationRequestedAt
                ? t("requestedAt", { at: date(user.deactivationRequestedAt) })
                : t("none")}
          </dd>
          <dt>{t("userEmails")}</dt>
          <dd>{user.emails.map((e) => `${e.email} (${e.status})`).join(", ") || t("none")}</dd>
          <dt>{t("col_phone")}</dt>
          <dd>{user.phoneNumbers.map((p) => p.phoneNumber).join(", ") || t("none")}</dd>
          <dt>{t("col_created")}</dt>
          <dd>{date(user.createdAt)}</dd>
        </dl>
      )}
      <h3>{t("userComments")}</h3>
      {comments.isError ? (
        <p className="tt-error" role="alert">
          {toText(comments.error)}
        </p>
      ) : (
        <ul>
          {(comments.data?.comments ?? []).map((c) => (
            <li key={c.id}>
              {date(c.createdAt)} · {c.comment}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
