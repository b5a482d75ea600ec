// The header's bell for a signed-in person (issue 26): the unread count, polled while the page is open, and a
// panel (the kit's Radix popover) with the newest notifications, which are marked read when it opens. Its own
// chunk, after the first screen; the panel's content is a further chunk, loaded when it first opens.
import { Popover } from "@tt/web-kit/ui";
import { Bell } from "lucide-react";
import { lazy, Suspense, useEffect, useState } from "react";
import { useInbox, useMarkRead, useNotificationsT } from "./api.ts";
import { pushSupported, registerServiceWorker } from "./push-client.ts";

const NotificationPanel = lazy(() => import("./NotificationPanel.tsx").then((m) => ({ default: m.NotificationPanel })));

/** More than this shows as "99+". */
const MAX_SHOWN = 99;

export function NotificationBell() {
  const { t } = useNotificationsT();
  const inbox = useInbox();
  const markRead = useMarkRead();
  const [open, setOpen] = useState(false);
  // What was unread when the panel opened: still marked "New" there while the count goes to zero.
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const unread = inbox.data?.unread ?? 0;
  const listed = inbox.data?.notifications;
  const { mutate: markListedRead } = markRead;

  // Opening the panel is reading it: what it lists unread is marked read, also what arrives while it is open.
  useEffect(() => {
    const ids = open ? (listed ?? []).filter((n) => !n.read).map((n) => n.id) : [];
    if (ids.length > 0) markListedRead(ids);
  }, [open, listed, markListedRead]);

  useEffect(() => {
    // A browser that already allowed notifications keeps the worker current (a new release's sw.js).
    if (pushSupported() && Notification.permission === "granted") void registerServiceWorker().catch(() => undefined);
  }, []);

  const label = unread > 0 ? t("bellUnread", { count: unread }) : t("bell");
  return (
    <Popover
      label={t("title")}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setFresh(new Set(next ? (listed ?? []).filter((n) => !n.read).map((n) => n.id) : []));
      }}
      trigger={
        <button
          type="button"
          className="tt-button tt-button--ghost tt-button--icon tt-bell"
          aria-label={label}
          title={label}
          data-testid="notification-bell"
        >
          <Bell aria-hidden="true" />
          {unread > 0 && (
            <span className="tt-bell__count" aria-hidden="true" data-testid="notification-count">
              {unread > MAX_SHOWN ? `${MAX_SHOWN}+` : unread}
            </span>
          )}
        </button>
      }
    >
      <Suspense fallback={<p className="tt-notifications__status">{t("loading")}</p>}>
        <NotificationPanel inbox={inbox} fresh={fresh} onNavigate={() => setOpen(false)} />
      </Suspense>
    </Popover>
  );
}
