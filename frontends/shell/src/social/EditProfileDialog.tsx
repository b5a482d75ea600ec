import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { UpdateProfileRequest } from "@tt/proto/tt/user/v1/profile_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import type { Profile } from "@tt/proto/tt/user/v1/user_pb";
import { queryKeys } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";
import { FormError, TextField, useServerErrors, useZodForm, z } from "@tt/web-kit/form";
import { Button, Dialog, DialogClose, Field, nameColorStyle, TextArea, toast } from "@tt/web-kit/ui";
import { Check } from "lucide-react";
import { useMemo, type CSSProperties, type ReactElement } from "react";
import { profileBatchPrefix, publicProfileKey, useSocialT } from "./api.ts";

// The listener's own nickname, bio and name colour (UpdateProfile, POST /api/user-service/users/profile). The
// avatar stays the shop's. The limits are the user service's (services/user profile-rules.ts): checked here first so
// the message is in the listener's language, and the server's own message is shown if it still refuses.

/** The user service's longest nickname (after trimming) and bio, in characters (code points, as it counts them). */
export const NICKNAME_MAX = 64;
export const BIO_MAX = 500;

/** The name colours offered, #rrggbb; "" is the default colour (none set). */
export const NAME_COLORS = [
  { name: "red", value: "#ef4444" },
  { name: "orange", value: "#f97316" },
  { name: "yellow", value: "#eab308" },
  { name: "green", value: "#22c55e" },
  { name: "teal", value: "#14b8a6" },
  { name: "blue", value: "#3b82f6" },
  { name: "purple", value: "#a855f7" },
  { name: "pink", value: "#ec4899" },
] as const;

const characters = (text: string) => [...text].length;

type Change = Pick<UpdateProfileRequest, "nickname" | "bio" | "color">;

/** Only what the listener changed: absent fields are kept by the service. */
export function profileChange(before: Profile, after: { nickname: string; bio: string; color: string }): Change {
  const change: Change = {};
  if (after.nickname !== before.nickname) change.nickname = after.nickname;
  if (after.bio !== before.bio) change.bio = after.bio;
  if (after.color !== before.color.toLowerCase()) change.color = after.color;
  return change;
}

/**
 * Puts the saved profile wherever the listener's own profile is cached, so the page, the header's name and the
 * people lists show it at once: the profile page's copy, the header's nickname and the profile batches they are in.
 */
export function rememberOwnProfile(queryClient: QueryClient, saved: Profile): void {
  queryClient.setQueryData(publicProfileKey(saved.uuid), saved);
  queryClient.setQueryData(queryKeys.profile(saved.uuid), saved.nickname);
  queryClient.setQueriesData<Profile[]>(
    { queryKey: profileBatchPrefix, predicate: ({ queryKey }) => queryKey.includes(saved.uuid) },
    (profiles) => profiles?.map((profile) => (profile.uuid === saved.uuid ? saved : profile)),
  );
}

const FORM_ID = "edit-profile";
const NICKNAME_ID = "edit-profile-nickname";

/**
 * The "Edit profile" dialog: nickname, bio and name colour; Save sends only what changed. The form inside is made
 * afresh at each opening (the dialog's content is mounted only while open), from the profile as it is then.
 */
export function EditProfileDialog({
  profile,
  open,
  onOpenChange,
  trigger,
}: {
  profile: Profile;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger: ReactElement;
}) {
  const { t } = useSocialT();
  const client = useClient(ProfileService);
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (change: Change) => client.updateProfile(change),
    onSuccess: ({ profile: saved }) => {
      if (saved) rememberOwnProfile(queryClient, saved);
      toast({ title: t("edit.saved"), tone: "success" });
      onOpenChange(false);
    },
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!save.isPending) onOpenChange(next);
      }}
      trigger={trigger}
      // Straight to the nickname, the field most often changed (not the close button, the first control).
      onOpenAutoFocus={(event) => {
        event.preventDefault();
        document.getElementById(NICKNAME_ID)?.focus();
      }}
      title={t("edit.title")}
      description={t("edit.description")}
      footer={
        <>
          <DialogClose>
            <Button variant="secondary" disabled={save.isPending}>
              {t("edit.cancel")}
            </Button>
          </DialogClose>
          <Button type="submit" form={FORM_ID} busy={save.isPending} icon={<Check aria-hidden="true" />}>
            {t("edit.save")}
          </Button>
        </>
      }
    >
      <EditProfileForm
        profile={profile}
        onSave={(change, onError) => save.mutate(change, { onError })}
        onUnchanged={() => onOpenChange(false)}
      />
    </Dialog>
  );
}

function EditProfileForm({
  profile,
  onSave,
  onUnchanged,
}: {
  profile: Profile;
  onSave: (change: Change, onError: (error: unknown) => void) => void;
  onUnchanged: () => void;
}) {
  const { t } = useSocialT();
  const schema = useMemo(
    () =>
      z.object({
        nickname: z
          .string()
          .trim()
          .min(1, t("edit.nicknameRequired"))
          .refine((value) => characters(value) <= NICKNAME_MAX, t("edit.nicknameTooLong", { max: NICKNAME_MAX })),
        bio: z.string().refine((value) => characters(value) <= BIO_MAX, t("edit.bioTooLong", { max: BIO_MAX })),
        color: z.string(),
      }),
    [t],
  );
  const form = useZodForm(schema, {
    defaultValues: { nickname: profile.nickname, bio: profile.bio, color: profile.color.toLowerCase() },
  });
  const { formError, fail, clear } = useServerErrors(form);
  const submit = form.handleSubmit((values) => {
    clear();
    const change = profileChange(profile, values);
    // Nothing changed: nothing to send.
    if (Object.keys(change).length === 0) onUnchanged();
    else onSave(change, fail);
  });

  const bio = form.watch("bio") ?? "";
  const left = BIO_MAX - characters(bio);
  const color = form.watch("color");
  const nickname = form.watch("nickname") ?? "";
  // As the profile and the chat draw it: readable on the theme.
  const previewStyle = nameColorStyle(color ?? "");
  const bioError = form.formState.errors.bio?.message;
  // A colour set elsewhere and not among ours is kept as a choice of its own, so saving does not lose it.
  const current = profile.color.toLowerCase();
  const colors = [
    { name: "none", value: "" },
    ...NAME_COLORS,
    ...(current && !NAME_COLORS.some((option) => option.value === current)
      ? [{ name: "current", value: current }]
      : []),
  ];
  return (
    <form id={FORM_ID} className="tt-profile-edit" noValidate onSubmit={(event) => void submit(event)}>
      <TextField
        form={form}
        name="nickname"
        id={NICKNAME_ID}
        label={t("edit.nickname")}
        hint={t("edit.nicknameHint", { max: NICKNAME_MAX })}
        autoComplete="nickname"
        spellCheck={false}
      />
      <Field
        label={t("edit.bio")}
        hint={
          <span className={left < 0 ? "tt-profile-edit__over" : undefined}>
            {left < 0 ? t("edit.over", { count: -left }) : t("edit.left", { count: left })}
          </span>
        }
        error={typeof bioError === "string" ? bioError : undefined}
      >
        <TextArea rows={4} placeholder={t("edit.bioPlaceholder")} {...form.register("bio")} />
      </Field>
      <fieldset className="tt-field tt-profile-edit__colors">
        <legend className="tt-field__label">{t("edit.color")}</legend>
        <div className="tt-profile-edit__swatches">
          {colors.map((option) => (
            <label
              key={option.name}
              className="tt-profile-edit__swatch"
              title={t(`edit.colors.${option.name}`)}
              style={option.value ? ({ "--swatch": option.value } as CSSProperties) : undefined}
            >
              <input type="radio" value={option.value} {...form.register("color")} />
              <span className="tt-visually-hidden">{t(`edit.colors.${option.name}`)}</span>
            </label>
          ))}
        </div>
        <p className="tt-field-hint tt-profile-edit__preview">
          {t("edit.colorHint")}{" "}
          <strong className={previewStyle ? "tt-name-color" : undefined} style={previewStyle}>
            {nickname.trim() || profile.nickname}
          </strong>
        </p>
      </fieldset>
      <FormError message={formError} />
    </form>
  );
}
