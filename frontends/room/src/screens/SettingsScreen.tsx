import { timestampFromDate, timestampDate } from "@bufbuild/protobuf/wkt";
import { useMutation, useQuery, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { useSession } from "@tt/web-kit";
import { useState, type FormEvent, type ReactNode } from "react";
import {
  DJ_TYPES,
  GRANTABLE_ROLES,
  MAX_DJ_SEATS,
  MAX_PINNED_MESSAGES,
  MIN_DJ_SEATS,
  MUSIC_PROVIDERS,
  ROLE_PAGE_SIZE,
  ROOM_DESIGNS,
  ROOM_TYPES,
  roomKeys,
  SETTINGS_ROLES,
  useRoleClient,
  useRoomAdminClient,
  useRoomClient,
  type Room,
} from "../api.ts";
import { Link, navigate } from "../lib/router.tsx";
import { dateOfLocalInput, ErrorMessage, Field, Pager, useRoomT } from "../lib/ui.tsx";

type Action = UseMutationResult<unknown, Error, void>;

/** One setting's own form: its own call, its own error text (the server's) and its own "saved". */
function Section({ title, action, children }: { title: string; action: Action; children: ReactNode }) {
  const { t } = useRoomT();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    action.mutate();
  };
  return (
    <form className="tt-card tt-room-form" onSubmit={submit} aria-label={title}>
      <h2>{title}</h2>
      {children}
      <ErrorMessage error={action.error} />
      {action.isSuccess && (
        <p role="status" className="tt-muted">
          {t("settings.saved")}
        </p>
      )}
    </form>
  );
}

function useRoomAction(room: Room, call: () => Promise<unknown>): Action {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await call();
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roomKeys.all }),
  });
}

/** The settings page for a room's owners and moderators: each setting through its own documented call. */
export function SettingsScreen({ id }: { id: string }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  const roles = useRoleClient();
  const { user } = useSession();
  const me = user?.uuid ?? "";
  const roomQuery = useQuery({ queryKey: roomKeys.room(id), queryFn: async () => (await client.getRoom({ id })).room });
  const room = roomQuery.data;
  const mine = useQuery({
    queryKey: roomKeys.myRoles(room?.uuid ?? "", me),
    enabled: Boolean(room && me),
    queryFn: () => roles.getUserRoomRoles({ roomId: room?.uuid ?? "", userId: me }),
  });
  if (roomQuery.isPending || (room && me && mine.isPending)) return <p className="tt-loading">{t("loading")}</p>;
  if (roomQuery.isError) return <ErrorMessage error={roomQuery.error} />;
  if (!room) return null;
  const allowed = user?.role === "admin" || (mine.data?.roles ?? []).some((role) => SETTINGS_ROLES.includes(role));
  return (
    <div className="tt-room-settings">
      <h1 className="tt-page-title">{t("settings.title", { name: room.name })}</h1>
      <Link to={`/r/${encodeURIComponent(room.slug || room.uuid)}`}>{t("settings.back")}</Link>
      {mine.isError && <ErrorMessage error={mine.error} />}
      {!allowed ? (
        <p role="alert">{t("settings.notAllowed")}</p>
      ) : (
        <>
          <DetailsForm key={`details-${room.updatedAt?.seconds ?? 0}`} room={room} />
          <SeatsForm room={room} />
          <DjTypeForm room={room} />
          <LiveForm room={room} />
          <ExternalUrlForm room={room} />
          <PinnedForm room={room} />
          <PosterForm room={room} />
          <PromoteForm room={room} />
          <GuildForm room={room} />
          {user?.role === "admin" && <GuestPasswordForm room={room} />}
          <RolesSection room={room} />
          <DeleteForm room={room} />
        </>
      )}
    </div>
  );
}

function DetailsForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  const [name, setName] = useState(room.name);
  const [description, setDescription] = useState(room.description);
  const [type, setType] = useState(room.type);
  const [design, setDesign] = useState(room.design);
  const [providers, setProviders] = useState<string[]>(room.musicProviders);
  const action = useRoomAction(room, () =>
    client.updateRoom({ id: room.uuid, name, description, type, design, musicProviders: providers }),
  );
  return (
    <Section title={t("settings.details")} action={action}>
      <Field label={t("create.name")}>
        <input required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      <Field label={t("create.description")}>
        <textarea maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} />
      </Field>
      <Field label={t("create.type")}>
        <select value={type} onChange={(e) => setType(e.target.value)}>
          {ROOM_TYPES.map((value) => (
            <option key={value} value={value}>
              {t(`enum.${value}`, { defaultValue: value })}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t("create.design")}>
        <select value={design} onChange={(e) => setDesign(e.target.value)}>
          {ROOM_DESIGNS.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </Field>
      <fieldset>
        <legend>{t("create.musicProviders")}</legend>
        {MUSIC_PROVIDERS.map((provider) => (
          <label key={provider} className="tt-room-check">
            <input
              type="checkbox"
              checked={providers.includes(provider)}
              onChange={(e) =>
                setProviders((list) => (e.target.checked ? [...list, provider] : list.filter((p) => p !== provider)))
              }
            />
            {provider}
          </label>
        ))}
      </fieldset>
      <button type="submit" className="tt-button" disabled={action.isPending}>
        {t("settings.save")}
      </button>
    </Section>
  );
}

function SeatsForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  const [seats, setSeats] = useState(room.numberOfDjs);
  const action = useRoomAction(room, () => client.setDjSeats({ id: room.uuid, numberOfDjs: seats }));
  return (
    <Section title={t("settings.seats")} action={action}>
      <Field label={t("create.numberOfDjs", { min: MIN_DJ_SEATS, max: MAX_DJ_SEATS })}>
        <input type="number" value={seats} onChange={(e) => setSeats(Number(e.target.value))} />
      </Field>
      <button type="submit" className="tt-button" disabled={action.isPending}>
        {t("settings.save")}
      </button>
    </Section>
  );
}

function DjTypeForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  const [djType, setDjType] = useState(room.djType);
  const action = useRoomAction(room, () => client.setDjType({ id: room.uuid, djType }));
  return (
    <Section title={t("settings.djType")} action={action}>
      <Field label={t("create.djType")}>
        <select value={djType} onChange={(e) => setDjType(e.target.value)}>
          {DJ_TYPES.map((value) => (
            <option key={value} value={value}>
              {t(`enum.${value}`, { defaultValue: value })}
            </option>
          ))}
        </select>
      </Field>
      <button type="submit" className="tt-button" disabled={action.isPending}>
        {t("settings.save")}
      </button>
    </Section>
  );
}

function LiveForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  const [isLive, setIsLive] = useState(room.isLive);
  const [liveAudio, setLiveAudio] = useState(room.liveAudio);
  const live = useRoomAction(room, () => client.setLiveState({ id: room.uuid, isLive }));
  const audio = useRoomAction(room, () => client.setLiveAudio({ id: room.uuid, liveAudio }));
  return (
    <>
      <Section title={t("settings.live")} action={live}>
        <label className="tt-room-check">
          <input type="checkbox" checked={isLive} onChange={(e) => setIsLive(e.target.checked)} />
          {t("settings.isLive")}
        </label>
        <button type="submit" className="tt-button" disabled={live.isPending}>
          {t("settings.save")}
        </button>
      </Section>
      <Section title={t("settings.liveAudio")} action={audio}>
        <label className="tt-room-check">
          <input type="checkbox" checked={liveAudio} onChange={(e) => setLiveAudio(e.target.checked)} />
          {t("settings.liveAudio")}
        </label>
        <button type="submit" className="tt-button" disabled={audio.isPending}>
          {t("settings.save")}
        </button>
      </Section>
    </>
  );
}

function ExternalUrlForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  const [url, setUrl] = useState(room.externalUrl);
  const action = useRoomAction(room, () => client.setExternalUrl({ id: room.uuid, externalUrl: url.trim() }));
  return (
    <Section title={t("settings.externalUrl")} action={action}>
      <Field label={t("create.externalUrl")}>
        <input maxLength={2048} value={url} onChange={(e) => setUrl(e.target.value)} />
      </Field>
      <button type="submit" className="tt-button" disabled={action.isPending}>
        {t("settings.save")}
      </button>
    </Section>
  );
}

function PinnedForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  const [text, setText] = useState(room.pinnedMessages.join("\n"));
  const messages = text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  const action = useRoomAction(room, () => client.setPinnedMessages({ id: room.uuid, pinnedMessages: messages }));
  return (
    <Section title={t("room.pinned")} action={action}>
      <Field label={t("settings.pinned", { max: MAX_PINNED_MESSAGES })}>
        <textarea rows={4} value={text} onChange={(e) => setText(e.target.value)} />
      </Field>
      <button type="submit" className="tt-button" disabled={action.isPending}>
        {t("settings.save")}
      </button>
    </Section>
  );
}

function PosterForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  const [file, setFile] = useState<File | null>(null);
  const upload = useRoomAction(room, async () => {
    if (!file) return;
    const content = new Uint8Array(await file.arrayBuffer());
    await client.uploadPoster({ id: room.uuid, file: { content, filename: file.name, contentType: file.type } });
  });
  const remove = useRoomAction(room, () => client.deletePoster({ id: room.uuid }));
  return (
    <Section title={t("settings.poster")} action={upload}>
      {room.posterUrl && <img className="tt-room-poster" src={room.posterUrl} alt="" />}
      <Field label={t("settings.posterFile")}>
        <input type="file" accept="image/*" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
      </Field>
      <button type="submit" className="tt-button" disabled={!file || upload.isPending}>
        {t("settings.upload")}
      </button>
      {room.posterUrl && (
        <button type="button" className="tt-button tt-button--quiet" onClick={() => remove.mutate()}>
          {t("settings.removePoster")}
        </button>
      )}
      <ErrorMessage error={remove.error} />
    </Section>
  );
}

function PromoteForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  const [promoted, setPromoted] = useState(room.promoted);
  const action = useRoomAction(room, () => client.promoteRoom({ id: room.uuid, promoted }));
  return (
    <Section title={t("settings.promote")} action={action}>
      <label className="tt-room-check">
        <input type="checkbox" checked={promoted} onChange={(e) => setPromoted(e.target.checked)} />
        {t("settings.promoted")}
      </label>
      <button type="submit" className="tt-button" disabled={action.isPending}>
        {t("settings.save")}
      </button>
    </Section>
  );
}

function GuildForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  const [guild, setGuild] = useState(room.discordGuild);
  const action = useRoomAction(room, () => client.linkGuildRoom({ guild: guild.trim(), roomId: room.uuid }));
  return (
    <Section title={t("settings.guild")} action={action}>
      <Field label={t("settings.guildId")}>
        <input inputMode="numeric" maxLength={32} value={guild} onChange={(e) => setGuild(e.target.value)} />
      </Field>
      <button type="submit" className="tt-button" disabled={action.isPending}>
        {t("settings.save")}
      </button>
    </Section>
  );
}

function DeleteForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  const queryClient = useQueryClient();
  const action = useMutation({
    mutationFn: async () => {
      await client.deleteRoom({ id: room.uuid });
    },
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: roomKeys.room(room.uuid) });
      await queryClient.invalidateQueries({ queryKey: roomKeys.all });
      navigate("/");
    },
  });
  return (
    <Section title={t("settings.deleteRoom")} action={action}>
      <button
        type="submit"
        className="tt-button tt-button--danger"
        disabled={action.isPending}
        onClick={(event) => {
          if (!window.confirm(t("settings.confirmDelete", { name: room.name }))) event.preventDefault();
        }}
      >
        {t("settings.deleteRoom")}
      </button>
    </Section>
  );
}

function GuestPasswordForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const admin = useRoomAdminClient();
  const [password, setPassword] = useState("");
  const set = useRoomAction(room, () => admin.setGuestPassword({ roomId: room.uuid, password }));
  const remove = useRoomAction(room, () => admin.removeGuestPassword({ roomId: room.uuid }));
  return (
    <Section title={t("settings.guestPassword")} action={set}>
      <p className="tt-muted">{room.hasGuestPassword ? t("settings.hasPassword") : t("settings.noPassword")}</p>
      <Field label={t("settings.password")}>
        <input type="password" maxLength={128} value={password} onChange={(e) => setPassword(e.target.value)} />
      </Field>
      <button type="submit" className="tt-button" disabled={set.isPending}>
        {t("settings.setPassword")}
      </button>
      {room.hasGuestPassword && (
        <button type="button" className="tt-button tt-button--quiet" onClick={() => remove.mutate()}>
          {t("settings.removePassword")}
        </button>
      )}
      <ErrorMessage error={remove.error} />
    </Section>
  );
}

function RolesSection({ room }: { room: Room }) {
  const { t, i18n } = useRoomT();
  const client = useRoleClient();
  const queryClient = useQueryClient();
  const [offset, setOffset] = useState(0);
  const list = useQuery({
    queryKey: roomKeys.roles(room.uuid, offset),
    queryFn: () => client.listRoomRoles({ roomId: room.uuid, limit: ROLE_PAGE_SIZE, offset }),
  });
  const [userId, setUserId] = useState("");
  const [role, setRole] = useState<string>("moderator");
  const [expires, setExpires] = useState("");
  const [kickUser, setKickUser] = useState("");
  const [kickUntil, setKickUntil] = useState("");
  const [owner, setOwner] = useState("");
  const invalidate = () => queryClient.invalidateQueries({ queryKey: roomKeys.all });
  const grant = useMutation({
    mutationFn: async (vars: { userId: string; role: string }) => {
      const at = dateOfLocalInput(expires);
      await client.grantRoomRole({
        roomId: room.uuid,
        userId: vars.userId,
        role: vars.role,
        ...(at ? { expiresAt: timestampFromDate(at) } : {}),
      });
    },
    onSuccess: invalidate,
  });
  const remove = useMutation({
    mutationFn: async (vars: { userId: string; role: string }) => {
      await client.removeRoomRole({ roomId: room.uuid, ...vars });
    },
    onSuccess: invalidate,
  });
  const kick = useMutation({
    mutationFn: async () => {
      const until = dateOfLocalInput(kickUntil);
      await client.kickUserFromRoom({
        roomId: room.uuid,
        userId: kickUser.trim(),
        ...(until ? { until: timestampFromDate(until) } : {}),
      });
    },
    onSuccess: invalidate,
  });
  const changeOwner = useMutation({
    mutationFn: async () => {
      await client.changeRoomOwner({ roomId: room.uuid, userId: owner.trim() });
    },
    onSuccess: invalidate,
  });
  const dateText = (date: Date) => date.toLocaleString(i18n.language);
  return (
    <section className="tt-card" aria-labelledby="roles-title">
      <h2 id="roles-title">{t("settings.roles")}</h2>
      {list.isError ? (
        <ErrorMessage error={list.error} />
      ) : list.data && list.data.roles.length === 0 ? (
        <p className="tt-muted">{t("settings.noRoles")}</p>
      ) : (
        <ul className="tt-room-grants" aria-label={t("settings.roles")}>
          {list.data?.roles.map((grant) => (
            <li key={grant.id}>
              <code>{grant.userUuid}</code> — {t(`role.${grant.role}`, { defaultValue: grant.role })} (
              {grant.expiresAt
                ? t("settings.until", { date: dateText(timestampDate(grant.expiresAt)) })
                : t("settings.never")}
              ){" "}
              {grant.role !== "owner" && (
                <button
                  type="button"
                  className="tt-button tt-button--quiet"
                  onClick={() => remove.mutate({ userId: grant.userUuid, role: grant.role })}
                >
                  {t("settings.remove")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {list.data && <Pager offset={offset} limit={ROLE_PAGE_SIZE} total={list.data.total} onOffset={setOffset} />}
      <ErrorMessage error={remove.error} />
      <form
        className="tt-room-form"
        aria-label={t("settings.grant")}
        onSubmit={(event) => {
          event.preventDefault();
          grant.mutate({ userId: userId.trim(), role });
        }}
      >
        <Field label={t("settings.user")}>
          <input maxLength={36} value={userId} onChange={(e) => setUserId(e.target.value)} />
        </Field>
        <Field label={t("settings.role")}>
          <select value={role} onChange={(e) => setRole(e.target.value)}>
            {GRANTABLE_ROLES.map((value) => (
              <option key={value} value={value}>
                {t(`role.${value}`)}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t("settings.expiresAt")}>
          <input type="datetime-local" value={expires} onChange={(e) => setExpires(e.target.value)} />
        </Field>
        <button type="submit" className="tt-button" disabled={grant.isPending}>
          {t("settings.grant")}
        </button>
        <button
          type="button"
          className="tt-button tt-button--quiet"
          disabled={grant.isPending}
          onClick={() => grant.mutate({ userId: userId.trim(), role: "banned" })}
        >
          {t("settings.ban")}
        </button>
        <ErrorMessage error={grant.error} />
      </form>
      <form
        className="tt-room-form"
        aria-label={t("settings.kick")}
        onSubmit={(event) => {
          event.preventDefault();
          kick.mutate();
        }}
      >
        <Field label={t("settings.user")}>
          <input maxLength={36} value={kickUser} onChange={(e) => setKickUser(e.target.value)} />
        </Field>
        <Field label={t("settings.kickUntil")}>
          <input type="datetime-local" value={kickUntil} onChange={(e) => setKickUntil(e.target.value)} />
        </Field>
        <button type="submit" className="tt-button" disabled={kick.isPending}>
          {t("settings.kick")}
        </button>
        <ErrorMessage error={kick.error} />
      </form>
      <form
        className="tt-room-form"
        aria-label={t("settings.changeOwner")}
        onSubmit={(event) => {
          event.preventDefault();
          changeOwner.mutate();
        }}
      >
        <Field label={t("settings.newOwner")}>
          <input maxLength={36} value={owner} onChange={(e) => setOwner(e.target.value)} />
        </Field>
        <button type="submit" className="tt-button" disabled={changeOwner.isPending}>
          {t("settings.changeOwner")}
        </button>
        <ErrorMessage error={changeOwner.error} />
      </form>
    </section>
  );
}
