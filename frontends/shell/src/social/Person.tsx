import type { Profile } from "@tt/proto/tt/user/v1/user_pb";
import { Avatar, Skeleton, UserBadges } from "@tt/web-kit/ui";
import type { ReactNode } from "react";
import { Link } from "../router.tsx";
import { useAvatarImage, useSocialT } from "./api.ts";

export const profilePath = (user: string) => `/users/${encodeURIComponent(user)}`;

/** The name a person is shown by: their nickname, or a word for someone the service no longer knows. */
export function useNameOf() {
  const { t } = useSocialT();
  return (profile: Profile | undefined) => profile?.nickname || t("people.unknown");
}

/** One person in a list: avatar, name (their profile's link) and badges, a line about them, and actions at the end. */
export function PersonRow({
  uuid,
  profile,
  loading,
  meta,
  children,
}: {
  uuid: string;
  profile: Profile | undefined;
  /** The profile batch is still on its way: a placeholder instead of the name. */
  loading: boolean;
  meta?: ReactNode;
  children?: ReactNode;
}) {
  const nameOf = useNameOf();
  const src = useAvatarImage(profile?.avatarId || undefined);
  const name = nameOf(profile);
  return (
    <li className="tt-list__row tt-person">
      <Avatar id={uuid} name={name} src={src} size="md" decorative />
      <div className="tt-person__text">
        {loading && !profile ? (
          <Skeleton width="8rem" height="1rem" />
        ) : (
          <span className="tt-person__title">
            <Link className="tt-person__name" to={profilePath(uuid)}>
              {name}
            </Link>
            {profile && <UserBadges role={profile.role} badges={profile.badges} />}
          </span>
        )}
        {meta && <span className="tt-person__meta">{meta}</span>}
      </div>
      {children && <div className="tt-person__actions">{children}</div>}
    </li>
  );
}

/** Rows in the shape of people while a list loads. */
export function PeopleSkeleton({ rows = 3 }: { rows?: number }) {
  return (
    <ul className="tt-list" aria-hidden="true">
      {Array.from({ length: rows }, (_, row) => (
        <li key={row} className="tt-list__row tt-person">
          <Skeleton width="2.5rem" height="2.5rem" radius="50%" />
          <div className="tt-person__text">
            <Skeleton width={`${8 + ((row * 3) % 5)}rem`} height="1rem" />
            <Skeleton width="5rem" height="0.75rem" />
          </div>
        </li>
      ))}
    </ul>
  );
}
