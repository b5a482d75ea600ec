// The signed-in person's notifications (issue 26): the room service's inbox (ListMyNotifications) polled while
// the page is open, marked read when the bell's panel opens, and each one worded and linked for the page.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAppTranslation, useSession } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";
import { NotificationService, type Notification } from "@tt/proto/tt/room/v1/notification_service_pb";
import { en, es, NOTIFICATIONS_NAMESPACE } from "./locales.ts";

/** The newest notifications the panel shows. */
export const PANEL_SIZE = 20;
/** How often the unread count is asked again while the page is open (a visible tab only). */
export const REFRESH_MS = 30_000;

export const notificationKeys = {
  all: ["notifications"] as const,
  inbox: (user: string) => ["notifications", "inbox", user] as const,
};

export function useNotificationsT() {
  return useAppTranslation(NOTIFICATIONS_NAMESPACE, { en, es });
}

export function useInbox() {
  const client = useClient(NotificationService);
  const { user, signedIn } = useSession();
  const uuid = user?.uuid ?? "";
  return useQuery({
    queryKey: notificationKeys.inbox(uuid),
    queryFn: ({ signal }) => client.listMyNotifications({ limit: PANEL_SIZE }, { signal }),
    enabled: signedIn && uuid !== "",
    refetchInterval: REFRESH_MS,
    staleTime: 10_000,
  });
}

export function useMarkRead() {
  const client = useClient(NotificationService);
  const queryClient = useQueryClient();
  const { user } = useSession();
  return useMutation({
    mutationFn: (ids: string[]) => client.markNotificationsRead({ ids }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.inbox(user?.uuid ?? "") }),
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Shown {
  title: string;
  body: string;
  /** The room or the person it is about; none for a message from the team. */
  href?: string;
}

type T = ReturnType<typeof useNotificationsT>["t"];

/**
 * What a notification says here: a DJ's start and a friend invitation are worded in the page's language (the names
 * come in its data); what a person wrote (a room's or the team's message) is shown as written, with a worded title
 * when it has none.
 */
export function describe(n: Notification, t: T): Shown {
  const room = n.roomId && UUID.test(n.roomId) ? `/room/r/${n.roomId}` : undefined;
  if (n.kind === "dj-fans") {
    const dj = n.data.djId || n.senderId;
    return {
      title: t("djPlaying", { name: n.data.djName || t("someDj") }),
      body: n.data.roomName ? t("nowIn", { room: n.data.roomName }) : n.data.message || t("comeListen"),
      href: room ?? (UUID.test(dj) ? `/users/${dj}` : undefined),
    };
  }
  if (n.kind === "friend") {
    const from = n.data.fromId || n.senderId;
    return {
      title: t("friendInvite", { name: n.data.fromName || t("someone") }),
      body: t("answerInvite"),
      href: UUID.test(from) ? `/users/${from}` : undefined,
    };
  }
  const generic = n.kind === "room" ? t("fromRoom") : t("fromAdmins");
  // "Turntable" is the server's default title for a message without one.
  const title = n.title && n.title !== "Turntable" ? n.title : generic;
  return { title, body: n.body, href: room };
}
