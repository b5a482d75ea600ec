import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useErrorText, useSession } from "@tt/web-kit";
import { FormError, SelectField, TextField, useServerErrors, useZodForm, z } from "@tt/web-kit/form";
import {
  Avatar,
  Badge,
  Button,
  buttonClass,
  Card,
  ConfirmDialog,
  EmptyState,
  Field,
  IconButton,
  Input,
  Skeleton,
  Switch,
  toast,
  useFormat,
  useNameOptions,
  useNames,
} from "@tt/web-kit/ui";
import { ArrowLeft, Ban, Crown, ImageUp, ShieldAlert, Trash2, UserMinus, UserPlus, Users } from "lucide-react";
import { useId, useMemo, useState, type ReactNode } from "react";
import type { FieldValues, UseFormReturn } from "@tt/web-kit/form";
import {
  DJ_TYPES,
  GRANTABLE_ROLES,
  MAX_DJ_SEATS,
  MAX_PINNED_MESSAGES,
  MIN_DJ_SEATS,
  ROLE_PAGE_SIZE,
  ROOM_DESIGNS,
  ROOM_TYPES,
  roomKeys,
  SETTINGS_ROLES,
  useRoleClient,
  useRoomAdminClient,
  useRoomClient,
  type Room,
  type RoomUserRole,
} from "../api.ts";
import { NumberField, ProvidersField, TextAreaField } from "../lib/forms.tsx";
import { useProfiles } from "../lib/people.ts";
import { PersonField } from "./PersonField.tsx";
import { Link, navigate } from "../lib/router.tsx";
import { dateOfLocalInput, ErrorText, Pager, useRoomT } from "../lib/ui.tsx";
import { roomFieldRules } from "./CreateRoomScreen.tsx";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One setting's card: its title (which names its form) and what it is for. */
function Section({
  title,
  description,
  children,
  tone,
}: {
  title: string;
  description?: string;
  children: (titleId: string) => ReactNode;
  tone?: "danger";
}) {
  const id = useId();
  return (
    <Card className={`tt-room-settings__section ${tone === "danger" ? "tt-room-settings__section--danger" : ""}`}>
      <h2 id={id} className="tt-room-section-title">
        {title}
      </h2>
      {description && <p className="tt-muted tt-room-settings__description">{description}</p>}
      {children(id)}
    </Card>
  );
}

/**
 * A setting's save: its own call, its outcome told as a toast, the server's refusal on the field it names (or above
 * the form's button). The room's lists and page follow.
 */
function useSave<V extends FieldValues>(
  form: UseFormReturn<V, unknown, V>,
  what: string,
  call: (values: V) => Promise<unknown>,
  /** What the form holds once saved (by default what was saved). */
  after?: (values: V) => V,
) {
  const { t } = useRoomT();
  const queryClient = useQueryClient();
  const server = useServerErrors(form);
  const mutation = useMutation({
    mutationFn: call,
    onMutate: server.clear,
    onError: server.fail,
    onSuccess: async (_answer, values) => {
      form.reset(after ? after(values) : values);
      toast({ title: t("settings.saved"), description: what, tone: "success" });
      await queryClient.invalidateQueries({ queryKey: roomKeys.all });
    },
  });
  return { mutation, formError: server.formError, submit: form.handleSubmit((values) => mutation.mutate(values)) };
}

function SaveButton({ busy, label }: { busy: boolean; label?: string }) {
  const { t } = useRoomT();
  return (
    <div className="tt-room-form__actions">
      <Button type="submit" busy={busy}>
        {label ?? t("settings.save")}
      </Button>
    </div>
  );
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
  if (roomQuery.isPending || (room && me && mine.isPending)) {
    return (
      <div className="tt-room-settings" role="status" aria-label={t("loading")} aria-busy="true">
        <Skeleton width="20rem" height="2.25rem" />
        <div className="tt-room-settings__columns">
          <Skeleton height="24rem" radius="var(--tt-radius-lg)" />
          <Skeleton height="24rem" radius="var(--tt-radius-lg)" />
        </div>
      </div>
    );
  }
  if (roomQuery.isError) return <ErrorText error={roomQuery.error} />;
  if (!room) return null;
  const allowed = user?.role === "admin" || (mine.data?.roles ?? []).some((role) => SETTINGS_ROLES.includes(role));
  const back = `/r/${encodeURIComponent(room.slug || room.uuid)}`;
  return (
    <div className="tt-room-settings">
      <Link className={buttonClass("ghost", "sm", "tt-room-back")} to={back}>
        <ArrowLeft aria-hidden="true" />
        {t("settings.back")}
      </Link>
      <h1 className="tt-page-title">{t("settings.title", { name: room.name })}</h1>
      <ErrorText error={mine.error} />
      {!allowed ? (
        <EmptyState
          icon={<ShieldAlert />}
          title={t("settings.notAllowedTitle")}
          action={
            <Link className={buttonClass("secondary")} to={back}>
              {t("settings.back")}
            </Link>
          }
        >
          {t("settings.notAllowed")}
        </EmptyState>
      ) : (
        <>
          <div className="tt-room-settings__columns">
            <div className="tt-room-settings__column">
              <DetailsForm key={`details-${room.updatedAt?.seconds ?? 0}`} room={room} />
              <SeatsForm room={room} />
              <DjTypeForm room={room} />
              <StatusSection room={room} />
              <ExternalUrlForm room={room} />
              <PinnedForm room={room} />
              <PosterForm room={room} />
              <GuildForm room={room} />
              {user?.role === "admin" && <GuestPasswordForm room={room} />}
            </div>
            <div className="tt-room-settings__column">
              <RolesSection room={room} />
              <GrantForm room={room} />
              <KickBanForm room={room} />
              <OwnerForm room={room} />
            </div>
          </div>
          <DeleteSection room={room} />
        </>
      )}
    </div>
  );
}

function DetailsForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  const schema = useMemo(() => {
    const rules = roomFieldRules(t);
    return z.object({
      name: rules.name,
      description: rules.description,
      type: z.string(),
      design: z.string(),
      musicProviders: z.array(z.string()),
    });
  }, [t]);
  const form = useZodForm(schema, {
    defaultValues: {
      name: room.name,
      description: room.description,
      type: room.type,
      design: room.design,
      musicProviders: room.musicProviders,
    },
  });
  const title = t("settings.details");
  const save = useSave(form as never, title, (values: z.output<typeof schema>) =>
    client.updateRoom({ id: room.uuid, ...values }),
  );
  const types = useNameOptions("roomType", ROOM_TYPES);
  const designs = useNameOptions("design", ROOM_DESIGNS);
  return (
    <Section title={title}>
      {(titleId) => (
        <form className="tt-room-form" aria-labelledby={titleId} noValidate onSubmit={save.submit}>
          <TextField form={form} name="name" label={t("create.name")} maxLength={80} autoComplete="off" />
          <TextAreaField form={form} name="description" label={t("create.description")} rows={3} maxLength={2000} />
          <div className="tt-room-form__grid">
            <SelectField form={form} name="type" label={t("create.type")} options={types} />
            <SelectField form={form} name="design" label={t("create.design")} options={designs} />
          </div>
          <ProvidersField
            form={form}
            name="musicProviders"
            legend={t("create.musicProviders")}
            hint={t("create.musicProvidersHint")}
          />
          <FormError message={save.formError} />
          <SaveButton busy={save.mutation.isPending} />
        </form>
      )}
    </Section>
  );
}

function SeatsForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  const schema = useMemo(() => z.object({ numberOfDjs: roomFieldRules(t).numberOfDjs }), [t]);
  const form = useZodForm(schema, { defaultValues: { numberOfDjs: room.numberOfDjs } });
  const title = t("settings.seats");
  const save = useSave(form as never, title, (values: z.output<typeof schema>) =>
    client.setDjSeats({ id: room.uuid, numberOfDjs: values.numberOfDjs }),
  );
  return (
    <Section title={title} description={t("settings.seatsHint")}>
      {(titleId) => (
        <form className="tt-room-form" aria-labelledby={titleId} noValidate onSubmit={save.submit}>
          <NumberField
            form={form}
            name="numberOfDjs"
            label={t("create.numberOfDjs", { min: MIN_DJ_SEATS, max: MAX_DJ_SEATS })}
            min={MIN_DJ_SEATS}
            max={MAX_DJ_SEATS}
          />
          <FormError message={save.formError} />
          <SaveButton busy={save.mutation.isPending} />
        </form>
      )}
    </Section>
  );
}

function DjTypeForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  const schema = useMemo(() => z.object({ djType: z.string() }), []);
  const form = useZodForm(schema, { defaultValues: { djType: room.djType || "EVERYONE" } });
  const title = t("settings.djType");
  const save = useSave(form as never, title, (values: z.output<typeof schema>) =>
    client.setDjType({ id: room.uuid, djType: values.djType }),
  );
  const options = useNameOptions("djType", DJ_TYPES);
  return (
    <Section title={title}>
      {(titleId) => (
        <form className="tt-room-form" aria-labelledby={titleId} noValidate onSubmit={save.submit}>
          <SelectField form={form} name="djType" label={t("create.djType")} options={options} />
          <FormError message={save.formError} />
          <SaveButton busy={save.mutation.isPending} />
        </form>
      )}
    </Section>
  );
}

/** An on/off setting saved as soon as it is switched; a refusal switches it back and says why. */
function SavedSwitch({
  label,
  value,
  save,
  onMessage,
  offMessage,
}: {
  label: string;
  value: boolean;
  save: (on: boolean) => Promise<unknown>;
  onMessage: string;
  offMessage: string;
}) {
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [on, setOn] = useState(value);
  const mutation = useMutation({
    mutationFn: save,
    onMutate: (next) => setOn(next),
    onSuccess: async (_answer, next) => {
      toast({ title: next ? onMessage : offMessage, tone: "success" });
      await queryClient.invalidateQueries({ queryKey: roomKeys.all });
    },
    onError: (error, next) => {
      setOn(!next);
      toast({ title: errorText(error), tone: "error" });
    },
  });
  return (
    <Switch
      label={label}
      checked={on}
      disabled={mutation.isPending}
      onCheckedChange={(next) => mutation.mutate(next)}
    />
  );
}

function StatusSection({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  return (
    <Section title={t("settings.live")}>
      {() => (
        <div className="tt-room-switches">
          <SavedSwitch
            label={t("settings.isLive")}
            value={room.isLive}
            save={(isLive) => client.setLiveState({ id: room.uuid, isLive })}
            onMessage={t("settings.isLiveOn")}
            offMessage={t("settings.isLiveOff")}
          />
          <SavedSwitch
            label={t("settings.liveAudio")}
            value={room.liveAudio}
            save={(liveAudio) => client.setLiveAudio({ id: room.uuid, liveAudio })}
            onMessage={t("settings.liveAudioOn")}
            offMessage={t("settings.liveAudioOff")}
          />
          <SavedSwitch
            label={t("settings.promoted")}
            value={room.promoted}
            save={(promoted) => client.promoteRoom({ id: room.uuid, promoted })}
            onMessage={t("settings.promotedOn")}
            offMessage={t("settings.promotedOff")}
          />
        </div>
      )}
    </Section>
  );
}

function ExternalUrlForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  const schema = useMemo(() => z.object({ externalUrl: roomFieldRules(t).externalUrl }), [t]);
  const form = useZodForm(schema, { defaultValues: { externalUrl: room.externalUrl } });
  const title = t("settings.externalUrl");
  const save = useSave(form as never, title, (values: z.output<typeof schema>) =>
    client.setExternalUrl({ id: room.uuid, externalUrl: values.externalUrl }),
  );
  return (
    <Section title={title}>
      {(titleId) => (
        <form className="tt-room-form" aria-labelledby={titleId} noValidate onSubmit={save.submit}>
          <TextField
            form={form}
            name="externalUrl"
            type="url"
            label={t("create.externalUrl")}
            hint={t("create.externalUrlHint")}
            maxLength={2048}
            placeholder="https://"
          />
          <FormError message={save.formError} />
          <SaveButton busy={save.mutation.isPending} />
        </form>
      )}
    </Section>
  );
}

/** The pinned messages as the textarea holds them: one a line, blank lines and spaces around dropped. */
function linesOf(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
}

function PinnedForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  const schema = useMemo(
    () =>
      z.object({
        pinnedMessages: z
          .string()
          .refine(
            (text) => linesOf(text).length <= MAX_PINNED_MESSAGES,
            t("form.pinnedMax", { max: MAX_PINNED_MESSAGES }),
          ),
      }),
    [t],
  );
  const form = useZodForm(schema, { defaultValues: { pinnedMessages: room.pinnedMessages.join("\n") } });
  const title = t("room.pinned");
  const save = useSave(form as never, title, (values: z.output<typeof schema>) =>
    client.setPinnedMessages({ id: room.uuid, pinnedMessages: linesOf(values.pinnedMessages) }),
  );
  return (
    <Section title={title}>
      {(titleId) => (
        <form className="tt-room-form" aria-labelledby={titleId} noValidate onSubmit={save.submit}>
          <TextAreaField
            form={form}
            name="pinnedMessages"
            label={t("settings.pinned")}
            hint={t("settings.pinnedHint", { max: MAX_PINNED_MESSAGES })}
            rows={4}
          />
          <FormError message={save.formError} />
          <SaveButton busy={save.mutation.isPending} />
        </form>
      )}
    </Section>
  );
}

function PosterForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const title = t("settings.poster");
  const upload = useMutation({
    mutationFn: async (chosen: File) => {
      const content = new Uint8Array(await chosen.arrayBuffer());
      await client.uploadPoster({ id: room.uuid, file: { content, filename: chosen.name, contentType: chosen.type } });
    },
    onSuccess: async () => {
      toast({ title: t("settings.posterUploaded"), tone: "success" });
      setFile(null);
      await queryClient.invalidateQueries({ queryKey: roomKeys.all });
    },
  });
  return (
    <Section title={title} description={t("settings.posterHint")}>
      {(titleId) => (
        <form
          className="tt-room-form"
          aria-labelledby={titleId}
          onSubmit={(event) => {
            event.preventDefault();
            if (file) upload.mutate(file);
          }}
        >
          {room.posterUrl && (
            <img className="tt-room-poster" src={room.posterUrl} alt={t("room.posterOf", { name: room.name })} />
          )}
          <Field label={t("settings.posterFile")}>
            <Input
              type="file"
              accept="image/*"
              className="tt-room-file"
              onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            />
          </Field>
          <ErrorText error={upload.error} />
          <div className="tt-room-form__actions">
            {room.posterUrl && (
              <ConfirmDialog
                trigger={
                  <Button variant="ghost" icon={<Trash2 aria-hidden="true" />}>
                    {t("settings.removePoster")}
                  </Button>
                }
                title={t("settings.removePosterTitle")}
                confirmLabel={t("settings.removePoster")}
                tone="danger"
                onConfirm={async () => {
                  await client.deletePoster({ id: room.uuid });
                  await queryClient.invalidateQueries({ queryKey: roomKeys.all });
                }}
                successMessage={t("settings.posterRemoved")}
              />
            )}
            <Button type="submit" icon={<ImageUp aria-hidden="true" />} disabled={!file} busy={upload.isPending}>
              {t("settings.upload")}
            </Button>
          </div>
        </form>
      )}
    </Section>
  );
}

function GuildForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  const schema = useMemo(
    () =>
      z.object({
        guild: z
          .string()
          .trim()
          .regex(/^\d{0,32}$/, t("form.digits")),
      }),
    [t],
  );
  const form = useZodForm(schema, { defaultValues: { guild: room.discordGuild } });
  const title = t("settings.guild");
  const save = useSave(form as never, title, (values: z.output<typeof schema>) =>
    client.linkGuildRoom({ guild: values.guild, roomId: room.uuid }),
  );
  return (
    <Section title={title} description={t("settings.guildHint")}>
      {(titleId) => (
        <form className="tt-room-form" aria-labelledby={titleId} noValidate onSubmit={save.submit}>
          <TextField form={form} name="guild" label={t("settings.guildId")} inputMode="numeric" maxLength={32} />
          <FormError message={save.formError} />
          <SaveButton busy={save.mutation.isPending} />
        </form>
      )}
    </Section>
  );
}

function GuestPasswordForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const admin = useRoomAdminClient();
  const queryClient = useQueryClient();
  const schema = useMemo(
    () =>
      z.object({
        password: z
          .string()
          .min(1, t("form.passwordRequired"))
          .max(128, t("form.tooLong", { max: 128 })),
      }),
    [t],
  );
  const form = useZodForm(schema, { defaultValues: { password: "" } });
  const title = t("settings.guestPassword");
  const save = useSave(
    form as never,
    title,
    (values: z.output<typeof schema>) => admin.setGuestPassword({ roomId: room.uuid, password: values.password }),
    () => ({ password: "" }),
  );
  return (
    <Section title={title} description={room.hasGuestPassword ? t("settings.hasPassword") : t("settings.noPassword")}>
      {(titleId) => (
        <form className="tt-room-form" aria-labelledby={titleId} noValidate onSubmit={save.submit}>
          <TextField
            form={form}
            name="password"
            type="password"
            autoComplete="new-password"
            label={t("settings.password")}
            maxLength={128}
          />
          <FormError message={save.formError} />
          <div className="tt-room-form__actions">
            {room.hasGuestPassword && (
              <ConfirmDialog
                trigger={<Button variant="ghost">{t("settings.removePassword")}</Button>}
                title={t("settings.removePasswordTitle")}
                description={t("settings.removePasswordHint")}
                confirmLabel={t("settings.removePassword")}
                tone="danger"
                onConfirm={async () => {
                  await admin.removeGuestPassword({ roomId: room.uuid });
                  await queryClient.invalidateQueries({ queryKey: roomKeys.all });
                }}
                successMessage={t("settings.passwordRemoved")}
              />
            )}
            <Button type="submit" busy={save.mutation.isPending}>
              {t("settings.setPassword")}
            </Button>
          </div>
        </form>
      )}
    </Section>
  );
}

/** A person's nickname, or "someone" for a user the user service does not know (never their id). */
function usePersonName() {
  const { t } = useRoomT();
  return (nickname: string | undefined) => nickname || t("settings.unknownUser");
}

function RolesSection({ room }: { room: Room }) {
  const { t } = useRoomT();
  const names = useNames();
  const format = useFormat();
  const personName = usePersonName();
  const client = useRoleClient();
  const queryClient = useQueryClient();
  const [offset, setOffset] = useState(0);
  const list = useQuery({
    queryKey: roomKeys.roles(room.uuid, offset),
    queryFn: () => client.listRoomRoles({ roomId: room.uuid, limit: ROLE_PAGE_SIZE, offset }),
  });
  const people = useProfiles((list.data?.roles ?? []).map((grant) => grant.userUuid));
  const remove = async (grant: RoomUserRole) => {
    await client.removeRoomRole({ roomId: room.uuid, userId: grant.userUuid, role: grant.role });
    await queryClient.invalidateQueries({ queryKey: roomKeys.all });
  };
  return (
    <Section title={t("settings.roles")} description={t("settings.rolesHint")}>
      {(titleId) =>
        list.isError ? (
          <ErrorText error={list.error} />
        ) : list.isPending ? (
          <div className="tt-room-grants" aria-busy="true">
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} height="2.75rem" radius="var(--tt-radius)" />
            ))}
          </div>
        ) : list.data.roles.length === 0 ? (
          <EmptyState icon={<Users />} title={t("settings.noRoles")} headingLevel={3}>
            {t("settings.noRolesHint")}
          </EmptyState>
        ) : (
          <>
            <ul className="tt-room-grants" aria-labelledby={titleId}>
              {list.data.roles.map((grant) => {
                const profile = people.profileOf(grant.userUuid);
                const name = people.isPending ? "…" : personName(profile?.nickname);
                const role = names("roomRole", grant.role);
                return (
                  <li key={grant.id} className="tt-room-grant">
                    <Avatar id={grant.userUuid} name={name} size="sm" decorative />
                    <span className="tt-room-grant__who">
                      <strong>{name}</strong>
                      <span className="tt-muted">
                        {grant.expiresAt
                          ? t("settings.until", { date: format.dateTime(timestampDate(grant.expiresAt)) })
                          : t("settings.never")}
                      </span>
                    </span>
                    <Badge tone={grant.role === "banned" || grant.role === "kicked" ? "danger" : "accent"}>
                      {role}
                    </Badge>
                    {grant.role !== "owner" && (
                      <ConfirmDialog
                        trigger={
                          <IconButton
                            size="sm"
                            icon={<Trash2 aria-hidden="true" />}
                            label={t("settings.removeRole", { role, name })}
                          />
                        }
                        title={t("settings.removeRoleTitle", { role, name })}
                        confirmLabel={t("settings.remove")}
                        tone="danger"
                        onConfirm={() => remove(grant)}
                        successMessage={t("settings.roleRemoved", { role, name })}
                      />
                    )}
                  </li>
                );
              })}
            </ul>
            <Pager offset={offset} limit={ROLE_PAGE_SIZE} total={list.data.total} onOffset={setOffset} />
          </>
        )
      }
    </Section>
  );
}

/** The person chosen in a roles form (the picker's value is their uuid; "" until someone is chosen). */
function userIdRule(t: ReturnType<typeof useRoomT>["t"]) {
  return z.string().trim().regex(UUID, t("form.person"));
}

function GrantForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoleClient();
  const schema = useMemo(() => z.object({ userId: userIdRule(t), role: z.string(), expiresAt: z.string() }), [t]);
  const form = useZodForm(schema, { defaultValues: { userId: "", role: "moderator", expiresAt: "" } });
  const title = t("settings.grant");
  const save = useSave(
    form as never,
    title,
    (values: z.output<typeof schema>) => {
      const at = dateOfLocalInput(values.expiresAt);
      return client.grantRoomRole({
        roomId: room.uuid,
        userId: values.userId,
        role: values.role,
        ...(at ? { expiresAt: timestampFromDate(at) } : {}),
      });
    },
    (values) => ({ ...values, userId: "", expiresAt: "" }),
  );
  const options = useNameOptions("roomRole", GRANTABLE_ROLES);
  return (
    <Section title={title}>
      {(titleId) => (
        <form className="tt-room-form" aria-labelledby={titleId} noValidate onSubmit={save.submit}>
          <PersonField
            form={form}
            name="userId"
            label={t("settings.user")}
            hint={t("settings.userHint")}
            room={room.uuid}
          />
          <div className="tt-room-form__grid">
            <SelectField form={form} name="role" label={t("settings.role")} options={options} />
            <TextField form={form} name="expiresAt" type="datetime-local" label={t("settings.expiresAt")} />
          </div>
          <FormError message={save.formError} />
          <div className="tt-room-form__actions">
            <Button type="submit" icon={<UserPlus aria-hidden="true" />} busy={save.mutation.isPending}>
              {t("settings.grantSubmit")}
            </Button>
          </div>
        </form>
      )}
    </Section>
  );
}

function KickBanForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoleClient();
  const queryClient = useQueryClient();
  const format = useFormat();
  const schema = useMemo(() => z.object({ userId: userIdRule(t), until: z.string() }), [t]);
  const form = useZodForm(schema, { defaultValues: { userId: "", until: "" } });
  const [confirm, setConfirm] = useState<"kick" | "ban" | null>(null);
  const typed = form.watch("userId").trim();
  const people = useProfiles(UUID.test(typed) ? [typed] : []);
  const name = people.profileOf(typed)?.nickname || t("settings.thisUser");
  const until = dateOfLocalInput(form.watch("until"));
  const ask = (which: "kick" | "ban") => form.handleSubmit(() => setConfirm(which))();
  const done = async () => {
    form.reset({ userId: "", until: "" });
    await queryClient.invalidateQueries({ queryKey: roomKeys.all });
  };
  return (
    <Section title={t("settings.kick")} description={t("settings.kickHint")}>
      {(titleId) => (
        <form
          className="tt-room-form"
          aria-labelledby={titleId}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            ask("kick");
          }}
        >
          <PersonField
            form={form}
            name="userId"
            label={t("settings.user")}
            hint={t("settings.userHint")}
            room={room.uuid}
          />
          <TextField
            form={form}
            name="until"
            type="datetime-local"
            label={t("settings.kickUntil")}
            hint={t("settings.kickUntilHint")}
          />
          <div className="tt-room-form__actions">
            <Button variant="secondary" icon={<Ban aria-hidden="true" />} onClick={() => ask("ban")}>
              {t("settings.ban")}
            </Button>
            <Button type="submit" icon={<UserMinus aria-hidden="true" />}>
              {t("settings.kickSubmit")}
            </Button>
          </div>
          <ConfirmDialog
            open={confirm === "kick"}
            onOpenChange={(open) => !open && setConfirm(null)}
            title={t("settings.kickTitle", { name })}
            description={
              until ? t("settings.kickUntilText", { date: format.dateTime(until) }) : t("settings.kickDefault")
            }
            confirmLabel={t("settings.kickSubmit")}
            tone="danger"
            onConfirm={async () => {
              const values = form.getValues();
              await client.kickUserFromRoom({
                roomId: room.uuid,
                userId: values.userId.trim(),
                ...(until ? { until: timestampFromDate(until) } : {}),
              });
              await done();
            }}
            successMessage={t("settings.kicked", { name })}
          />
          <ConfirmDialog
            open={confirm === "ban"}
            onOpenChange={(open) => !open && setConfirm(null)}
            title={t("settings.banTitle", { name })}
            description={t("settings.banText")}
            confirmLabel={t("settings.ban")}
            tone="danger"
            onConfirm={async () => {
              await client.grantRoomRole({ roomId: room.uuid, userId: form.getValues().userId.trim(), role: "banned" });
              await done();
            }}
            successMessage={t("settings.banned", { name })}
          />
        </form>
      )}
    </Section>
  );
}

function OwnerForm({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoleClient();
  const queryClient = useQueryClient();
  const schema = useMemo(() => z.object({ userId: userIdRule(t) }), [t]);
  const form = useZodForm(schema, { defaultValues: { userId: "" } });
  const [open, setOpen] = useState(false);
  const typed = form.watch("userId").trim();
  const people = useProfiles(UUID.test(typed) ? [typed] : []);
  const name = people.profileOf(typed)?.nickname || t("settings.thisUser");
  return (
    <Section title={t("settings.changeOwner")} description={t("settings.changeOwnerHint")}>
      {(titleId) => (
        <form
          className="tt-room-form"
          aria-labelledby={titleId}
          noValidate
          onSubmit={form.handleSubmit(() => setOpen(true))}
        >
          <PersonField
            form={form}
            name="userId"
            label={t("settings.newOwner")}
            hint={t("settings.userHint")}
            room={room.uuid}
          />
          <div className="tt-room-form__actions">
            <Button type="submit" variant="secondary" icon={<Crown aria-hidden="true" />}>
              {t("settings.changeOwnerSubmit")}
            </Button>
          </div>
          <ConfirmDialog
            open={open}
            onOpenChange={setOpen}
            title={t("settings.changeOwnerTitle", { name })}
            description={t("settings.changeOwnerText")}
            confirmLabel={t("settings.changeOwnerSubmit")}
            tone="danger"
            onConfirm={async () => {
              await client.changeRoomOwner({ roomId: room.uuid, userId: form.getValues().userId.trim() });
              form.reset({ userId: "" });
              await queryClient.invalidateQueries({ queryKey: roomKeys.all });
            }}
            successMessage={t("settings.ownerChanged", { name })}
          />
        </form>
      )}
    </Section>
  );
}

function DeleteSection({ room }: { room: Room }) {
  const { t } = useRoomT();
  const client = useRoomClient();
  const queryClient = useQueryClient();
  return (
    <Section title={t("settings.dangerZone")} description={t("settings.deleteHint")} tone="danger">
      {() => (
        <div className="tt-room-form__actions tt-room-form__actions--start">
          <ConfirmDialog
            trigger={
              <Button variant="danger" icon={<Trash2 aria-hidden="true" />}>
                {t("settings.deleteRoom")}
              </Button>
            }
            title={t("settings.confirmDelete", { name: room.name })}
            description={t("settings.confirmDeleteText")}
            confirmLabel={t("settings.deleteRoom")}
            tone="danger"
            onConfirm={async () => {
              await client.deleteRoom({ id: room.uuid });
              queryClient.removeQueries({ queryKey: roomKeys.room(room.uuid) });
              await queryClient.invalidateQueries({ queryKey: roomKeys.all });
              navigate("/");
            }}
            successMessage={t("settings.deleted", { name: room.name })}
          />
        </div>
      )}
    </Section>
  );
}
