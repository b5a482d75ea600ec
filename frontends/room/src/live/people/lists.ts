// The lists the people of a room are drawn from, shared by the card, the people panel and the settings page's person
// picker: the room's roles and the caller's own followed DJs and friends (one query each, cached by key).
import { useQuery } from "@tanstack/react-query";
import { useRoleClient } from "../../api.ts";
import {
  FOLLOWED_TAKE,
  LIST_LIMIT,
  PEOPLE_STALE_MS,
  peopleKeys,
  ROLE_LIMIT,
  useDjFanClient,
  useFriendClient,
} from "./api.ts";

/** The room's public roles (owner, co-owners, moderators, DJs), user → roles; shared with the people panel. */
export function useRoomRoles(room: string) {
  const roles = useRoleClient();
  return useQuery({
    queryKey: peopleKeys.roomRoles(room),
    queryFn: async () => {
      const answer = await roles.listRoomRoles({ roomId: room, limit: ROLE_LIMIT });
      const byUser = new Map<string, string[]>();
      for (const grant of answer.roles) byUser.set(grant.userUuid, [...(byUser.get(grant.userUuid) ?? []), grant.role]);
      return byUser;
    },
    staleTime: PEOPLE_STALE_MS,
    retry: false,
  });
}

/** The DJs the caller follows and their friends: one list each, shared by the crowd, the panel and the picker. */
export function useMyLists(me: string | undefined) {
  const fans = useDjFanClient();
  const friends = useFriendClient();
  const followed = useQuery({
    queryKey: peopleKeys.followed(me ?? ""),
    queryFn: async () => {
      const answer = await fans.listMyFollowedDjs({ take: FOLLOWED_TAKE });
      return { ids: new Set(answer.djFans.map((fan) => fan.djId)), complete: answer.total <= answer.djFans.length };
    },
    enabled: me !== undefined,
    staleTime: PEOPLE_STALE_MS,
  });
  const friendList = useQuery({
    queryKey: peopleKeys.friends(me ?? ""),
    queryFn: async () => {
      const answer = await friends.listFriends({ id: me ?? "", limit: LIST_LIMIT });
      return new Set(answer.friends.map((friend) => (friend.userId === me ? friend.friendId : friend.userId)));
    },
    enabled: me !== undefined,
    staleTime: PEOPLE_STALE_MS,
  });
  return { followed, friends: friendList };
}
