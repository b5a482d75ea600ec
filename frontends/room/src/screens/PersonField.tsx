import { useQuery } from "@tanstack/react-query";
import { useSession } from "@tt/web-kit";
import { Avatar, Combobox, Field, useNames, type ComboboxOption } from "@tt/web-kit/ui";
import { useMemo, type ReactNode } from "react";
import { Controller, type FieldPath, type FieldValues, type UseFormReturn } from "@tt/web-kit/form";
import { useProfiles } from "../lib/people.ts";
import { useRoomT } from "../lib/ui.tsx";
import { useStageClient } from "../live/api.ts";
import { useAvatarImages } from "../live/Avatar.tsx";
import { LISTENER_PAGE, peopleKeys } from "../live/people/api.ts";
import { useMyLists, useRoomRoles } from "../live/people/lists.ts";

/** The room's roles shown beside a person, strongest first. */
const SHOWN_ROLES = ["owner", "coOwner", "moderator", "dj", "banned", "kicked", "chatDisabled", "djDisabled"] as const;

/**
 * The people the settings page can know, each once: who is in the room now (the stage's first page of listeners),
 * who holds a role in it, and the caller's friends and followed DJs — each with their avatar and nickname, and why
 * they are listed. The caller is left out (nobody grants themselves a role or kicks themselves here).
 */
export function useRoomPeople(room: string): { options: ComboboxOption[]; isPending: boolean; refresh(): void } {
  const { t } = useRoomT();
  const names = useNames();
  const { user } = useSession();
  const me = user?.uuid;
  const stage = useStageClient();
  const listeners = useQuery({
    queryKey: [...peopleKeys.listeners(room), "first"],
    queryFn: async () => (await stage.listListeners({ room, limit: LISTENER_PAGE })).listeners.map((l) => l.userUuid),
    staleTime: 30_000,
    retry: false,
  });
  const roles = useRoomRoles(room);
  const { friends, followed } = useMyLists(me);
  const here = useMemo(() => new Set(listeners.data ?? []), [listeners.data]);
  const uuids = useMemo(() => {
    const all = new Set<string>([
      ...(listeners.data ?? []),
      ...(roles.data?.keys() ?? []),
      ...(friends.data ?? []),
      ...(followed.data?.ids ?? []),
    ]);
    if (me) all.delete(me);
    return [...all];
  }, [listeners.data, roles.data, friends.data, followed.data, me]);
  const people = useProfiles(uuids);
  const images = useAvatarImages(people.profiles);
  const options = useMemo(() => {
    const list: ComboboxOption[] = [];
    for (const uuid of uuids) {
      const profile = people.profileOf(uuid);
      // A user the user service does not know has no name to show: left out rather than shown by an id.
      if (!profile?.nickname) continue;
      const why: string[] = [];
      if (here.has(uuid)) why.push(t("settings.inRoom"));
      const role = SHOWN_ROLES.find((held) => roles.data?.get(uuid)?.includes(held));
      if (role) why.push(names("roomRole", role));
      if (friends.data?.has(uuid)) why.push(t("settings.yourFriend"));
      else if (followed.data?.ids.has(uuid)) why.push(t("settings.youFollow"));
      list.push({
        value: uuid,
        label: profile.nickname,
        icon: <Avatar id={uuid} name={profile.nickname} src={images.get(uuid)} size="sm" decorative />,
        description: why.join(" · "),
      });
    }
    // In the room first, then by nickname.
    return list.sort((a, b) => Number(here.has(b.value)) - Number(here.has(a.value)) || a.label.localeCompare(b.label));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- profileOf reads people.profiles
  }, [uuids, people.profiles, images, here, roles.data, friends.data, followed.data, names, t]);
  const pending =
    listeners.isPending || roles.isPending || (me !== undefined && (friends.isPending || followed.isPending));
  return {
    options,
    isPending: (pending || people.isPending) && options.length === 0,
    // Who is in the room changes by the minute: asked again each time the list is opened.
    refresh: () => void listeners.refetch(),
  };
}

/**
 * A form's person field: a searchable list of the room's people by nickname (never a typed id); the form's value is
 * the chosen person's uuid, or "" until one is chosen.
 */
export function PersonField<T extends FieldValues>({
  form,
  name,
  label,
  hint,
  room,
}: {
  form: UseFormReturn<T, unknown, never> | UseFormReturn<T>;
  name: FieldPath<T>;
  label: string;
  hint?: ReactNode;
  room: string;
}) {
  const { t } = useRoomT();
  const people = useRoomPeople(room);
  const error = form.formState.errors[name]?.message;
  return (
    <Controller
      control={(form as UseFormReturn<T>).control}
      name={name}
      render={({ field }) => (
        <Field label={label} hint={hint} error={typeof error === "string" ? error : undefined}>
          <Combobox
            ref={field.ref}
            value={field.value as string}
            onValueChange={field.onChange}
            options={people.options}
            listLabel={label}
            placeholder={t("settings.personPlaceholder")}
            emptyText={t("settings.noPeople")}
            loading={people.isPending}
            loadingText={t("loading")}
            onOpenChange={(open) => open && people.refresh()}
          />
        </Field>
      )}
    />
  );
}
