// The console's person and room pickers (ActionField types "user" and "room"): the operator types a nickname,
// an e-mail or a room's name and chooses from what the services find; the form's value is the chosen uuid, which
// the operator never has to type or read.
import { useQuery } from "@tanstack/react-query";
import { AdminService as RoomAdminService } from "@tt/proto/tt/room/v1/admin_service_pb";
import { AdminService as UserAdminService } from "@tt/proto/tt/user/v1/admin_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { useClient } from "@tt/web-kit/connect";
import { Avatar, Combobox, type ComboboxOption } from "@tt/web-kit/ui";
import { useDeferredValue, useMemo, useState } from "react";
import { useAdminText } from "../i18n.ts";
import { useRoom, useUserProfile } from "../screens/refs.tsx";

/** The most people or rooms a search offers. */
const FOUND = 20;
/** Fewer characters than this find too much to be useful. */
const MIN_WORDS = 2;

export interface PickerProps {
  value: string;
  onValueChange: (value: string) => void;
  id?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
  listLabel: string;
}

/** Escapes the admin query language's separator out of typed words. */
const wordsOf = (text: string) => text.trim().replaceAll("||", "");

/** A user, found by nickname or e-mail: shown by avatar, nickname and e-mail. */
export function UserPicker(props: PickerProps) {
  const { t } = useAdminText();
  const users = useClient(UserAdminService);
  const profiles = useClient(ProfileService);
  const [text, setText] = useState("");
  const words = useDeferredValue(wordsOf(text));
  const found = useQuery({
    queryKey: ["adminPick", "user", words, t("pickBot")],
    enabled: words.length >= MIN_WORDS,
    staleTime: 30_000,
    queryFn: async () => {
      const find = async (field: string) =>
        (
          await users.adminListUsers({
            query: { limit: FOUND, fields: "uuid,email,role", filter: [`${field}||$contL||${words}`] },
          })
        ).data;
      const [byNickname, byEmail] = await Promise.all([find("nickname"), find("email")]);
      // A bot's e-mail is made up (bot-<uuid>@bots.invalid): it is shown as a bot instead.
      const byUuid = new Map(
        [...byNickname, ...byEmail].map((user) => [user.uuid, user.role === "bot" ? t("pickBot") : user.email]),
      );
      const named = byUuid.size ? (await profiles.getProfiles({ users: [...byUuid.keys()] })).profiles : [];
      const nicknames = new Map(named.map((profile) => [profile.uuid, profile.nickname]));
      return [...byUuid].slice(0, FOUND).map(([uuid, email]) => ({ uuid, email, nickname: nicknames.get(uuid) ?? "" }));
    },
  });
  // The chosen user stays an option (an edit form opens with the current owner chosen).
  const current = useUserProfile(props.value);
  const options = useMemo<ComboboxOption[]>(() => {
    const list = (found.data ?? []).map(({ uuid, email, nickname }) => ({
      value: uuid,
      label: nickname ? `${nickname} · ${email}` : email,
      icon: <Avatar id={uuid} name={nickname || email} size="xs" decorative />,
    }));
    if (props.value && !list.some((option) => option.value === props.value)) {
      const nickname = current.data?.nickname || t("unknownUser");
      list.unshift({
        value: props.value,
        label: nickname,
        icon: <Avatar id={props.value} name={nickname} size="xs" decorative />,
      });
    }
    return list;
  }, [found.data, props.value, current.data, t]);
  return (
    <Combobox
      {...props}
      options={options}
      onTextChange={setText}
      placeholder={t("pickUserHint")}
      emptyText={words.length < MIN_WORDS ? t("pickTypeMore") : t("pickNobody")}
      loading={found.isFetching && !found.data}
      loadingText={t("pickSearching")}
    />
  );
}

/** A room, found by name or slug: shown by its name and slug. */
export function RoomPicker(props: PickerProps) {
  const { t } = useAdminText();
  const admin = useClient(RoomAdminService);
  const [text, setText] = useState("");
  const words = useDeferredValue(wordsOf(text));
  const found = useQuery({
    queryKey: ["adminPick", "room", words],
    enabled: words.length >= MIN_WORDS,
    staleTime: 30_000,
    queryFn: async () => {
      const find = async (field: string) =>
        (await admin.adminListRooms({ query: { limit: FOUND, filter: [`${field}||$contL||${words}`] } })).data;
      const [byName, bySlug] = await Promise.all([find("name"), find("slug")]);
      return [...new Map([...byName, ...bySlug].map((room) => [room.uuid, room])).values()].slice(0, FOUND);
    },
  });
  const current = useRoom(props.value);
  const options = useMemo<ComboboxOption[]>(() => {
    const list: ComboboxOption[] = (found.data ?? []).map((room) => ({
      value: room.uuid,
      label: room.name || room.slug,
      description: `/${room.slug}`,
    }));
    if (props.value && !list.some((option) => option.value === props.value)) {
      const room = current.data;
      list.unshift({
        value: props.value,
        label: room?.name || room?.slug || t("unknownRoom"),
        description: room ? `/${room.slug}` : undefined,
      });
    }
    return list;
  }, [found.data, props.value, current.data, t]);
  return (
    <Combobox
      {...props}
      options={options}
      onTextChange={setText}
      placeholder={t("pickRoomHint")}
      emptyText={words.length < MIN_WORDS ? t("pickTypeMore") : t("pickNoRoom")}
      loading={found.isFetching && !found.data}
      loadingText={t("pickSearching")}
    />
  );
}
