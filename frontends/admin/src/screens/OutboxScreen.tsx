import { useQuery } from "@tanstack/react-query";
import { ContactService } from "@tt/proto/tt/user/v1/contact_service_pb";
import { useErrorText } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";
import { useFormat } from "./format.ts";

/** The development outbox (e-mails and SMS of the embedded default), newest first. */
export default function OutboxScreen() {
  const contacts = useClient(ContactService);
  const toText = useErrorText();
  const { t, date, text } = useFormat();
  const outbox = useQuery({ queryKey: ["adminList", "outbox"], queryFn: () => contacts.listDevOutbox({}) });
  if (outbox.isError)
    return (
      <p className="tt-error" role="alert">
        {toText(outbox.error)}
      </p>
    );
  if (!outbox.data) return <p className="tt-loading">{t("loading")}</p>;
  const { messages } = outbox.data;
  return (
    <div className="tt-table-wrap">
      <table className="tt-table">
        <caption className="tt-admin-caption">
          {t("caption", { total: messages.length, what: t("section_outbox") })}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t("col_at")}</th>
            <th scope="col">{t("col_channel")}</th>
            <th scope="col">{t("col_to")}</th>
            <th scope="col">{t("col_subject")}</th>
            <th scope="col">{t("col_body")}</th>
          </tr>
        </thead>
        <tbody>
          {messages.length === 0 ? (
            <tr>
              <td colSpan={5}>{t("empty")}</td>
            </tr>
          ) : (
            messages.map((m) => (
              <tr key={m.id}>
                <td>{date(m.createdAt)}</td>
                <td>{m.channel}</td>
                <td>{m.to}</td>
                <td>{text(m.subject)}</td>
                <td className="tt-admin-pre">{m.body}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
