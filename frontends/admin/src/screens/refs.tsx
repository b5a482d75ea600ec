import { createClient, type Transport } from "@connectrpc/connect";
import { useQuery } from "@tanstack/react-query";
import type { Room } from "@tt/proto/tt/room/v1/room_pb";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import type { Profile } from "@tt/proto/tt/user/v1/user_pb";
import { useKit } from "@tt/web-kit";
import { Avatar, Skeleton } from "@tt/web-kit/ui";
import { Image } from "lucide-react";
import type { ReactNode } from "react";
import { useAdminText } from "../i18n.ts";

type Load<V> = (id: string) => Promise<V | null>;

/**
 * Collects the ids asked for in one tick and fetches them in batches of at most `max` (a page of rows asks for
 * its users at once: one GetProfiles call, not twenty). A failed batch answers null for each id.
 */
export function createBatcher<V>(fetchMany: (ids: string[]) => Promise<Map<string, V>>, max: number): Load<V> {
  let queue: { id: string; resolve: (value: V | null) => void }[] = [];
  const flush = async () => {
    const waiting = queue;
    queue = [];
    const ids = [...new Set(waiting.map((entry) => entry.id))];
    const found = new Map<string, V>();
    for (let start = 0; start < ids.length; start += max) {
      try {
        for (const [id, value] of await fetchMany(ids.slice(start, start + max))) found.set(id, value);
      } catch {
        // Unknown for now: the row shows the id's fallback.
      }
    }
    for (const entry of waiting) entry.resolve(found.get(entry.id) ?? null);
  };
  return (id) =>
    new Promise((resolve) => {
      if (queue.length === 0) setTimeout(() => void flush(), 0);
      queue.push({ id, resolve });
    });
}

const REF_STALE_MS = 5 * 60_000;

// One batcher per page transport, shared by every cell.
const profileLoaders = new WeakMap<Transport, Load<Profile>>();
const roomLoaders = new WeakMap<Transport, Load<Room>>();

function profileLoader(transport: Transport): Load<Profile> {
  let load = profileLoaders.get(transport);
  if (!load) {
    const profiles = createClient(ProfileService, transport);
    load = createBatcher(
      async (users) => new Map((await profiles.getProfiles({ users })).profiles.map((p) => [p.uuid, p])),
      150,
    );
    profileLoaders.set(transport, load);
  }
  return load;
}

function roomLoader(transport: Transport): Load<Room> {
  let load = roomLoaders.get(transport);
  if (!load) {
    const rooms = createClient(RoomService, transport);
    load = createBatcher(
      async (room) => new Map((await rooms.listMultipleRooms({ room })).rooms.map((r) => [r.uuid, r])),
      100,
    );
    roomLoaders.set(transport, load);
  }
  return load;
}

/** A user's public profile by uuid, batched with the other cells of the page. */
export function useUserProfile(uuid: string) {
  const load = profileLoader(useKit().transport);
  return useQuery({
    queryKey: ["adminRef", "user", uuid],
    queryFn: () => load(uuid),
    enabled: uuid !== "",
    staleTime: REF_STALE_MS,
  });
}

/** The address of a user's page in the console: the users section with their details open. */
export function userHref(uuid: string): string {
  return `#users/${encodeURIComponent(uuid)}`;
}

/** The uuid of the user whose page the address names (`#users/<uuid>`), or undefined. */
export function userOfHash(hash: string): string | undefined {
  const match = /^#?users\/([^/?#]+)$/.exec(hash);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

/**
 * A user named by their avatar and nickname instead of their uuid, linking to their page in the console (their
 * details over the users list).
 */
export function UserRef({ uuid }: { uuid: string }) {
  const { t } = useAdminText();
  const profile = useUserProfile(uuid);
  if (!uuid) return <>{t("none")}</>;
  if (profile.isPending) return <Skeleton width="7rem" />;
  const nickname = profile.data?.nickname;
  return (
    <a className="tt-admin-user tt-admin-link" href={userHref(uuid)}>
      <Avatar id={uuid} name={nickname || t("unknownUser")} size="xs" decorative />
      {nickname || <span className="tt-muted">{t("unknownUser")}</span>}
    </a>
  );
}

/** A room by uuid, batched with the other cells of the page. */
export function useRoom(uuid: string) {
  const load = roomLoader(useKit().transport);
  return useQuery({
    queryKey: ["adminRef", "room", uuid],
    queryFn: () => load(uuid),
    enabled: uuid !== "",
    staleTime: REF_STALE_MS,
  });
}

/** A room named by its name instead of its uuid (kept in the tooltip). */
export function RoomRef({ uuid }: { uuid: string }) {
  const { t } = useAdminText();
  const found = useRoom(uuid);
  if (!uuid) return <>{t("none")}</>;
  if (found.isPending) return <Skeleton width="6rem" />;
  return (
    <span title={uuid}>
      {found.data?.name || found.data?.slug || <span className="tt-muted">{t("unknownRoom")}</span>}
    </span>
  );
}

/** A row's image (an avatar's, a consumable's, a bundle's thumbnail) beside its name; a placeholder when none. */
export function NamedImage({ src, children }: { src: string | undefined; children: ReactNode }) {
  return (
    <span className="tt-admin-user">
      {src ? (
        <img className="tt-admin-thumb" src={src} alt="" loading="lazy" />
      ) : (
        <span className="tt-admin-thumb" aria-hidden="true">
          <Image />
        </span>
      )}
      {children}
    </span>
  );
}
