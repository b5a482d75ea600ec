// The bell's panel (issue 26): the newest notifications in words (no ids), each linking to its room or person,
// with relative times; an empty state with a next step; and the polite opt-in to this browser's notifications,
// which asks the browser's permission only when clicked.
import type { UseQueryResult } from "@tanstack/react-query";
import { errorText, useKit } from "@tt/web-kit";
import { Badge, Button, EmptyState, ErrorMessage, toast, useFormat } from "@tt/web-kit/ui";
import type { ListMyNotificationsResponse } from "@tt/proto/tt/room/v1/notification_service_pb";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { BellOff, BellRing, Inbox } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link } from "../router.tsx";
import { describe, useNotificationsT } from "./api.ts";
import { pushState, turnPushOff, turnPushOn, type PushState } from "./push-client.ts";

export function NotificationPanel({
  inbox,
  fresh,
  onNavigate,
}: {
  inbox: UseQueryResult<ListMyNotificationsResponse>;
  fresh: ReadonlySet<string>;
  onNavigate: () => void;
}) {
  const { t } = useNotificationsT();
  const format = useFormat();
  const notifications = inbox.data?.notifications ?? [];
  // New: unread when the panel opened, or arrived while it is open (marked read at once, so `read` says nothing).
  const [openedAt] = useState(() => Date.now());
  const isNew = (id: string, created: Date | undefined) =>
    fresh.has(id) || (created !== undefined && created.getTime() > openedAt);
  return (
    <div className="tt-notifications">
      <h2 className="tt-notifications__title">{t("title")}</h2>
      {inbox.isPending ? (
        <p className="tt-notifications__status" role="status">
          {t("loading")}
        </p>
      ) : inbox.isError && notifications.length === 0 ? (
        <ErrorMessage>{t("failed")}</ErrorMessage>
      ) : notifications.length === 0 ? (
        <EmptyState
          headingLevel={3}
          icon={<Inbox />}
          title={t("emptyTitle")}
          action={
            <Link className="tt-button tt-button--secondary" to="/people" onClick={onNavigate}>
              {t("findPeople")}
            </Link>
          }
        >
          {t("emptyBody")}
        </EmptyState>
      ) : (
        <ul className="tt-notifications__list" data-testid="notification-list">
          {notifications.map((n) => {
            const shown = describe(n, t);
            const when = n.createdAt ? timestampDate(n.createdAt) : undefined;
            const content = (
              <>
                <span className="tt-notifications__head">
                  <span className="tt-notifications__item-title">{shown.title}</span>
                  {isNew(n.id, when) && <Badge tone="accent">{t("new")}</Badge>}
                </span>
                {shown.body && <span className="tt-notifications__body">{shown.body}</span>}
                {when && (
                  <time className="tt-notifications__time" dateTime={when.toISOString()}>
                    {format.relative(when)}
                  </time>
                )}
              </>
            );
            return (
              <li key={n.id} className="tt-notifications__item">
                {shown.href ? (
                  <Link className="tt-notifications__link" to={shown.href} onClick={onNavigate}>
                    {content}
                  </Link>
                ) : (
                  <div className="tt-notifications__link">{content}</div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <PushOptIn />
    </div>
  );
}

/** This browser's notifications: offered, on (with a way off), refused in the browser's settings, or impossible. */
function PushOptIn() {
  const { t } = useNotificationsT();
  const kit = useKit();
  const [state, setState] = useState<PushState | undefined>();
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // The button just pressed gives way to the next one: focus follows, so it stays in the panel (Escape, Tab).
    if (document.activeElement === document.body) box.current?.querySelector<HTMLElement>("button")?.focus();
  }, [state]);
  useEffect(() => {
    let live = true;
    void pushState()
      .catch((): PushState => "off")
      .then((s) => live && setState(s));
    return () => {
      live = false;
    };
  }, []);
  if (!state) return null;
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (err) {
      toast({ title: t("push.failed"), description: errorText(err, t("push.failed")), tone: "error" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="tt-notifications__push" data-testid="push-opt-in" ref={box}>
      {state === "unsupported" && <p className="tt-notifications__hint">{t("push.unsupported")}</p>}
      {state === "blocked" && <p className="tt-notifications__hint">{t("push.blocked")}</p>}
      {state === "off" && (
        <>
          <Button
            variant="secondary"
            icon={<BellRing aria-hidden="true" />}
            busy={busy}
            onClick={() =>
              void run(async () => {
                const next = await turnPushOn(kit.transport);
                setState(next);
                if (next === "on") toast({ title: t("push.turnedOn"), tone: "success" });
              })
            }
          >
            {t("push.offer")}
          </Button>
          <p className="tt-notifications__hint">{t("push.offerHint")}</p>
        </>
      )}
      {state === "on" && (
        <>
          <p className="tt-notifications__hint" data-testid="push-on">
            {t("push.on")}
          </p>
          <Button
            variant="ghost"
            size="sm"
            icon={<BellOff aria-hidden="true" />}
            busy={busy}
            onClick={() =>
              void run(async () => {
                await turnPushOff(kit.transport);
                setState("off");
                toast({ title: t("push.turnedOff"), tone: "success" });
              })
            }
          >
            {t("push.off")}
          </Button>
        </>
      )}
    </div>
  );
}
