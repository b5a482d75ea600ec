import { useQuery } from "@tanstack/react-query";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { useErrorText, useSession } from "@tt/web-kit";
import { Badge, Button, buttonClass, Card, Field, Input, Skeleton, useFormat, useNames } from "@tt/web-kit/ui";
import { ArrowLeft, Check, ChevronDown, ExternalLink, Lock, Pin, Settings, ShieldCheck, X } from "lucide-react";
import { lazy, Suspense, useState, type FormEvent } from "react";
import { roomKeys, useRoleClient, useRoomClient } from "../api.ts";
import { Link } from "../lib/router.tsx";
import { ErrorText, useRoomT } from "../lib/ui.tsx";

// The live stage (join stream, player, booth, chat) is its own chunk, fetched once the room's join succeeded.
const LiveRoom = lazy(() => import("../live/LiveRoom.tsx").then((m) => ({ default: m.LiveRoom })));

/** A refusal a password can lift (a private room, a wrong password), by the room service's message. */
const PASSWORD_REFUSAL = /private|password/i;

/** The page's shape while the room is joined: its title, the stage and the chat. */
function RoomSkeleton() {
  const { t } = useRoomT();
  return (
    <div className="tt-room-page" role="status" aria-label={t("loading")} aria-busy="true">
      <Skeleton width="16rem" height="2.25rem" />
      <div className="tt-room-page__skeleton">
        <Skeleton height="20rem" radius="var(--tt-radius-lg)" />
        <Skeleton height="20rem" radius="var(--tt-radius-lg)" />
      </div>
    </div>
  );
}

/**
 * A room's page: joining it (POST /rooms/{id}/join: the password of a private room, the caller's roles and what
 * they may do), then the live stage of the social service (issue 14).
 */
/**
 * A kick or ban in the join's refusal (room service, admission.ts): "You are banned from this room" (shown as it is),
 * "You are kicked from this room until <ISO time>" / "until further notice" (said in words, the time in the reader's
 * own zone: no raw time on screen).
 */
export function kickOf(refusal: string): { banned: boolean; until?: number } | null {
  if (/banned from this room/i.test(refusal)) return { banned: true };
  if (!/kicked from this room/i.test(refusal)) return null;
  const iso = /until (\d{4}-\d{2}-\d{2}T[\d:.]+Z)/.exec(refusal)?.[1];
  const until = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(until) ? { banned: false } : { banned: false, until };
}

export function RoomScreen({ id }: { id: string }) {
  const { t } = useRoomT();
  const name = useNames();
  const format = useFormat();
  const errorText = useErrorText();
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
  // A DJ-disabled viewer is told until when (the join answers the role without its expiry; their own grants have it).
  const session = useSession();
  const me = session.signedIn ? session.user?.uuid : undefined;
  const roleClient = useRoleClient();
  const roomUuid = join.data?.room?.uuid ?? "";
  const djDisabled = join.data?.roles.includes("djDisabled") ?? false;
  const ownGrants = useQuery({
    queryKey: ["rooms", "ownGrants", roomUuid, me],
    queryFn: () => roleClient.getUserRoomRoles({ roomId: roomUuid, userId: me ?? "" }),
    enabled: djDisabled && me !== undefined && roomUuid !== "",
    retry: false,
  });
  const djDisabledGrant = ownGrants.data?.grants.find((grant) => grant.role === "djDisabled");
  const submitPassword = (event: FormEvent) => {
    event.preventDefault();
    setTried(password);
  };
  if (join.isPending) return <RoomSkeleton />;
  if (join.isError) {
    const lockedOut = PASSWORD_REFUSAL.test(errorText(join.error));
    const kick = kickOf(errorText(join.error));
    return (
      <div className="tt-room-narrow">
        <Card className="tt-room-refused" aria-labelledby="room-refused">
          <span className="tt-icon-tile tt-icon-tile--round tt-icon-tile--danger" aria-hidden="true">
            <Lock />
          </span>
          <h1 id="room-refused" className="tt-page-title">
            {t("room.refused")}
          </h1>
          {kick && !kick.banned ? (
            <p role="alert" data-testid="room-kicked">
              {t("room.kickedTitle")}.{" "}
              {kick.until !== undefined
                ? t("room.kickedUntil", { until: format.dateTime(kick.until) })
                : t("room.kickedText")}
            </p>
          ) : (
            <ErrorText error={join.error} />
          )}
          {lockedOut && (
            <form onSubmit={submitPassword} className="tt-room-form">
              <Field label={t("room.guestPassword")} hint={t("room.guestPasswordHint")}>
                <Input
                  type="password"
                  autoComplete="off"
                  maxLength={128}
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
              </Field>
              <div className="tt-room-form__actions">
                <Button type="submit" disabled={!password} busy={join.isFetching}>
                  {t("room.enterWithPassword")}
                </Button>
              </div>
            </form>
          )}
          <Link className={buttonClass("ghost", "sm")} to="/">
            <ArrowLeft aria-hidden="true" />
            {t("room.backToRooms")}
          </Link>
        </Card>
      </div>
    );
  }
  const { room, roles, permissions } = join.data;
  if (!room) return null;
  return (
    <article className="tt-room-page" aria-labelledby="room-name">
      <header className="tt-room-page__header">
        <div className="tt-room-page__title">
          <h1 id="room-name" className="tt-page-title">
            {room.name}
          </h1>
          <div className="tt-room-page__marks">
            {room.isLive && (
              <Badge tone="live" className="tt-room-live">
                <span className="tt-room-live__dot" aria-hidden="true" />
                {t("directory.live")}
              </Badge>
            )}
            {room.type === "PRIVATE" && <Badge icon={<Lock aria-hidden="true" />}>{name("roomType", room.type)}</Badge>}
            <span className="tt-muted">{name("design", room.design)}</span>
          </div>
        </div>
        {permissions?.isModerator && (
          <Link className={buttonClass("secondary", "sm")} to={`/r/${encodeURIComponent(room.uuid)}/settings`}>
            <Settings aria-hidden="true" />
            {t("room.settings")}
          </Link>
        )}
      </header>
      <Suspense fallback={<RoomSkeleton />}>
        <LiveRoom
          room={room.uuid}
          guestPassword={tried}
          permissions={{
            canDj: permissions?.canDj ?? false,
            canChat: permissions?.canChat ?? false,
            isModerator: permissions?.isModerator ?? false,
            // Until when, from the viewer's own grants (without a date while they load, or for a ban without an end).
            ...(roles.includes("djDisabled")
              ? { djDisabledUntil: djDisabledGrant?.expiresAt ? timestampMs(djDisabledGrant.expiresAt) : null }
              : {}),
          }}
        />
      </Suspense>
      {room.pinnedMessages.length > 0 && (
        <Card className="tt-room-pinned" aria-labelledby="room-pinned">
          <h2 id="room-pinned" className="tt-room-section-title">
            <Pin aria-hidden="true" />
            {t("room.pinned")}
          </h2>
          <ul>
            {room.pinnedMessages.map((message, index) => (
              <li key={index}>{message}</li>
            ))}
          </ul>
        </Card>
      )}
      {/* The room's details and the caller's roles, below the stage and folded: a listener comes for the stage. */}
      <details className="tt-card tt-room-details" data-testid="room-details">
        <summary>
          <span>{t("room.details")}</span>
          <ChevronDown aria-hidden="true" className="tt-room-details__chevron" />
        </summary>
        <div className="tt-room-details__body">
          {room.posterUrl && (
            <img className="tt-room-poster" src={room.posterUrl} alt={t("room.posterOf", { name: room.name })} />
          )}
          <div>
            {room.description && <p className="tt-room-details__description">{room.description}</p>}
            <dl className="tt-room-facts">
              <dt>{t("room.type")}</dt>
              <dd>{name("roomType", room.type)}</dd>
              <dt>{t("room.design")}</dt>
              <dd>{name("design", room.design)}</dd>
              <dt>{t("room.djType")}</dt>
              <dd>{name("djType", join.data.djType)}</dd>
              <dt>{t("room.seats")}</dt>
              <dd>{join.data.numberOfDjs}</dd>
              {room.externalUrl && (
                <>
                  <dt>{t("room.external")}</dt>
                  <dd>
                    <a href={room.externalUrl} rel="noopener noreferrer nofollow" target="_blank">
                      {room.externalUrl}
                      <ExternalLink aria-hidden="true" className="tt-room-inline-icon" />
                    </a>
                  </dd>
                </>
              )}
            </dl>
            <section aria-labelledby="room-you" className="tt-room-you">
              <h2 id="room-you" className="tt-room-section-title">
                {t("room.yourRoles")}
              </h2>
              <ul className="tt-room-roles" data-testid="my-roles">
                {roles.map((role) => (
                  <li key={role}>
                    <Badge tone={role === "owner" || role === "coOwner" ? "accent" : "neutral"}>
                      {name("roomRole", role)}
                    </Badge>
                  </li>
                ))}
              </ul>
              <ul className="tt-room-permissions" data-testid="permissions">
                <Permission allowed={permissions?.canChat ?? false}>
                  {permissions?.canChat ? t("room.mayChat") : t("room.mayNotChat")}
                </Permission>
                <Permission allowed={permissions?.canDj ?? false}>
                  {permissions?.canDj ? t("room.mayDj") : t("room.mayNotDj")}
                </Permission>
                {permissions?.isModerator && (
                  <li>
                    <ShieldCheck aria-hidden="true" className="tt-room-permission--yes" />
                    {t("room.isModerator")}
                  </li>
                )}
              </ul>
            </section>
          </div>
        </div>
      </details>
    </article>
  );
}

function Permission({ allowed, children }: { allowed: boolean; children: string }) {
  return (
    <li>
      {allowed ? (
        <Check aria-hidden="true" className="tt-room-permission--yes" />
      ) : (
        <X aria-hidden="true" className="tt-room-permission--no" />
      )}
      {children}
    </li>
  );
}
