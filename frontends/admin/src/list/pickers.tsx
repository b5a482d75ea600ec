// The console's person and room pickers (ActionField types "user" and "room"): the operator types a nickname,
// an e-mail or a room's name and chooses from what the services find; the form's value is the chosen uuid, which
// the operator never has to type or read.
import { useQuery } from "@tanstack/react-query";
import { AdminService as RoomAdminService } from "@tt/proto/tt/room/v1/admin_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { useClient } from "@tt/web-kit/connect";
import { Avatar, Combobox, type ComboboxOption } from "@tt/web-kit/ui";
import { useDeferredValue, useMemo, useState } from "react";
import { useAdminText } from "../i18n.ts";
import { useRoom, useUserProfile } from "../screens/refs.tsx";
import { useFindUsers } from "./find-users.ts";

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

/**
 * A choice among what `search` finds for the typed words (at least MIN_WORDS characters; the query language's
 * separator taken out), with the chosen one kept as an option (`current`: an edit form opens with it chosen).
 */
function SearchPicker<T>({
  picker,
  kind,
  search,
  optionOf,
  current,
  placeholder,
  noneFound,
}: {
  picker: PickerProps;
  kind: string;
  search: (words: string) => Promise<T[]>;
  optionOf: (found: T) => ComboboxOption;
  current: ComboboxOption | undefined;
  placeholder: string;
  noneFound: string;
}) {
  const { t } = useAdminText();
  const [text, setText] = useState("");
  const words = useDeferredValue(text.trim().replaceAll("||", ""));
  const found = useQuery({
    queryKey: ["adminPick", kind, words],
    enabled: words.length >= MIN_WORDS,
    staleTime: 30_000,
    queryFn: async () => (await search(words)).slice(0, FOUND),
  });
  const options = useMemo(() => {
    const list = (found.data ?? []).map(optionOf);
    return current && !list.some((option) => option.value === current.value) ? [current, ...list] : list;
  }, [found.data, optionOf, current]);
  return (
    <Combobox
      {...picker}
      options={options}
      onTextChange={setText}
      placeholder={placeholder}
      emptyText={words.length < MIN_WORDS ? t("pickTypeMore") : noneFound}
      loading={found.isFetching && !found.data}
      loadingText={t("pickSearching")}
    />
  );
}

/** A user, found by nickname or e-mail: shown by avatar, nickname and e-mail (a bot as a bot). */
export function UserPicker(props: PickerProps) {
  const { t } = useAdminText();
  const profiles = useClient(ProfileService);
  const findUsers = useFindUsers(FOUND);
  const search = async (words: string) => {
    const users = await findUsers(words);
    const named = users.length ? (await profiles.getProfiles({ users: users.map((user) => user.uuid) })).profiles : [];
    const nicknames = new Map(named.map((profile) => [profile.uuid, profile.nickname]));
    return users.map((user) => ({ ...user, nickname: nicknames.get(user.uuid) ?? "" }));
  };
  // A bot's e-mail is made up (bot-<uuid>@bots.invalid): it is shown as a bot instead.
  const optionOf = ({ uuid, email, role, nickname }: Awaited<ReturnType<typeof search>>[number]) => {
    const contact = role === "bot" ? t("pickBot") : email;
    return {
      value: uuid,
      label: nickname ? `${nickname} · ${contact}` : contact,
      icon: <Avatar id={uuid} name={nickname || contact} size="xs" decorative />,
    };
  };
  const chosen = useUserProfile(props.value);
  const nickname = chosen.data?.nickname || t("unknownUser");
  const current = props.value
    ? { value: props.value, label: nickname, icon: <Avatar id={props.value} name={nickname} size="xs" decorative /> }
    : undefined;
  return (
    <SearchPicker
      picker={props}
      kind="user"
      search={search}
      optionOf={optionOf}
      current={current}
      placeholder={t("pickUserHint")}
      noneFound={t("pickNobody")}
    />
  );
}

/** A room, found by name or slug: shown by its name and slug. */
export function RoomPicker(props: PickerProps) {
  const { t } = useAdminText();
  const admin = useClient(RoomAdminService);
  const search = async (words: string) => {
    const find = async (field: string) =>
      (await admin.adminListRooms({ query: { limit: FOUND, filter: [`${field}||$contL||${words}`] } })).data;
    const [byName, bySlug] = await Promise.all([find("name"), find("slug")]);
    return [...new Map([...byName, ...bySlug].map((room) => [room.uuid, room])).values()];
  };
  const chosen = useRoom(props.value).data;
  const current = props.value
    ? {
        value: props.value,
        label: chosen?.name || chosen?.slug || t("unknownRoom"),
        description: chosen ? `/${chosen.slug}` : undefined,
      }
    : undefined;
  return (
    <SearchPicker
      picker={props}
      kind="room"
      search={search}
      optionOf={(room) => ({ value: room.uuid, label: room.name || room.slug, description: `/${room.slug}` })}
      current={current}
      placeholder={t("pickRoomHint")}
      noneFound={t("pickNoRoom")}
    />
  );
}
