import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useState, type FormEvent } from "react";
import { roomKeys, useRoomClient } from "../api.ts";
import { Link } from "../lib/router.tsx";
import { ErrorMessage, Field, useRoomT } from "../lib/ui.tsx";

// The live stage (join stream, player, booth, chat) is its own chunk, fetched once the room's join succeeded.
const LiveRoom = lazy(() => import("../live/LiveRoom.tsx").then((m) => ({ default: m.LiveRoom })));

/**
 * A room's page: joining it (POST /rooms/{id}/join: the password of a private room, the caller's roles and what
 * they may do), then the live stage of the social service (issue 14).
 */
export function RoomScreen({ id }: { id: string }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  const [password, setPassword] = useState("");
  const [tried, setTried] = useState("");
  const join = useQuery({
    queryKey: [...roomKeys.join(id), tried],
    queryFn: () => client.joinRoom({ id, guestPassword: tried }),
    // Joining records a visit: once per page (and per password tried), not on every focus.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const submitPassword = (event: FormEvent) => {
    event.preventDefault();
    setTried(password);
  };
  if (join.isPending) return <p className="tt-loading">{t("loading")}</p>;
  if (join.isError) {
    return (
      <div className="tt-card" aria-labelledby="room-refused">
        <h1 id="room-refused" className="tt-page-title">
          {t("room.refused")}
        </h1>
        <ErrorMessage error={join.error} />
        <form onSubmit={submitPassword} className="tt-room-form">
          <Field label={t("room.guestPassword")}>
            <input type="password" maxLength={128} value={password} onChange={(e) => setPassword(e.target.value)} />
          </Field>
          <button type="submit" className="tt-button" disabled={!password}>
            {t("room.enterWithPassword")}
          </button>
        </form>
      </div>
    );
  }
  const { room, roles, permissions } = join.data;
  if (!room) return null;
  return (
    <article className="tt-room-page" aria-labelledby="room-name">
      <header className="tt-room-page-header">
        <h1 id="room-name" className="tt-page-title">
          {room.name}
        </h1>
        {room.isLive && <span className="tt-room-live">{t("directory.live")}</span>}
        {permissions?.isModerator && (
          <Link className="tt-button tt-button--quiet" to={`/r/${encodeURIComponent(room.uuid)}/settings`}>
            {t("room.settings")}
          </Link>
        )}
      </header>
      <Suspense fallback={<p className="tt-loading">{t("loading")}</p>}>
        <LiveRoom
          room={room.uuid}
          guestPassword={tried}
          permissions={{
            canDj: permissions?.canDj ?? false,
            canChat: permissions?.canChat ?? false,
            isModerator: permissions?.isModerator ?? false,
          }}
        />
      </Suspense>
      {room.pinnedMessages.length > 0 && (
        <section aria-labelledby="room-pinned">
          <h2 id="room-pinned">{t("room.pinned")}</h2>
          <ul>
            {room.pinnedMessages.map((message, index) => (
              <li key={index}>{message}</li>
            ))}
          </ul>
        </section>
      )}
      {/* The room's details and the caller's roles, below the stage and folded: a listener comes for the stage. */}
      <details className="tt-card tt-room-details" data-testid="room-details">
        <summary>{t("room.details")}</summary>
        {room.posterUrl && <img className="tt-room-poster" src={room.posterUrl} alt="" />}
        {room.description && <p>{room.description}</p>}
        <dl className="tt-room-facts">
          <dt>{t("room.type")}</dt>
          <dd>{t(`enum.${room.type}`, { defaultValue: room.type })}</dd>
          <dt>{t("room.design")}</dt>
          <dd>{room.design}</dd>
          <dt>{t("room.djType")}</dt>
          <dd>{t(`enum.${join.data.djType}`, { defaultValue: join.data.djType })}</dd>
          <dt>{t("room.seats")}</dt>
          <dd>{join.data.numberOfDjs}</dd>
          {room.externalUrl && (
            <>
              <dt>{t("room.external")}</dt>
              <dd>
                <a href={room.externalUrl} rel="noopener noreferrer nofollow" target="_blank">
                  {room.externalUrl}
                </a>
              </dd>
            </>
          )}
        </dl>
        <section aria-labelledby="room-you">
          <h2 id="room-you">{t("room.yourRoles")}</h2>
          <ul className="tt-room-roles" data-testid="my-roles">
            {roles.map((role) => (
              <li key={role}>{t(`role.${role}`, { defaultValue: role })}</li>
            ))}
          </ul>
          <ul data-testid="permissions">
            <li>{permissions?.canChat ? t("room.mayChat") : t("room.mayNotChat")}</li>
            <li>{permissions?.canDj ? t("room.mayDj") : t("room.mayNotDj")}</li>
            {permissions?.isModerator && <li>{t("room.isModerator")}</li>}
          </ul>
        </section>
      </details>
    </article>
  );
}
