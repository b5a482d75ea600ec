import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSession } from "@tt/web-kit";
import { useParams } from "../router.tsx";
import { socialKeys, useBlockClient, useDjFanClient, useFriendClient, useSocialT } from "./api.ts";
import { ErrorMessage } from "./ErrorMessage.tsx";

/** A user's profile actions: follow the DJ, invite as a friend (or answer their invitation), block. */
export function ProfilePage() {
  const { t } = useSocialT();
  const { user: target = "" } = useParams();
  const { signedIn, user } = useSession();
  const me = user?.uuid ?? "";
  const friends = useFriendClient();
  const fans = useDjFanClient();
  const blocks = useBlockClient();
  const queryClient = useQueryClient();
  const key = socialKeys.profile(target);
  const counts = useQuery({ queryKey: [...key, "counts"], queryFn: () => fans.countDjFans({ id: target }) });
  const enabled = signedIn && Boolean(me) && me !== target;
  const friendship = useQuery({
    queryKey: [...key, "friendship"],
    enabled,
    queryFn: () => friends.getFriendship({ id: target }),
  });
  const following = useQuery({
    queryKey: [...key, "following"],
    enabled,
    // 404 "DJ not followed" is an answer: not following.
    queryFn: async () => {
      try {
        await fans.getDjFan({ id: target });
        return true;
      } catch (error) {
        if ((error as { code?: number }).code === 5) return false;
        throw error;
      }
    },
  });
  const blocked = useQuery({
    queryKey: [...key, "blocked"],
    enabled,
    queryFn: async () => {
      try {
        await blocks.getBlockedUser({ id: target });
        return true;
      } catch (error) {
        if ((error as { code?: number }).code === 5) return false;
        throw error;
      }
    },
  });
  const act = useMutation({
    mutationFn: async (action: () => Promise<unknown>) => {
      await action();
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: socialKeys.all }),
  });
  const pending = friendship.data?.pendingInvitation;
  return (
    <section className="tt-social tt-card" aria-labelledby="profile-title">
      <h1 id="profile-title" className="tt-page-title">
        {t("profile.title", { user: target })}
      </h1>
      {counts.data && (
        <p className="tt-muted">{t("profile.counts", { fans: counts.data.fans, following: counts.data.following })}</p>
      )}
      <ErrorMessage error={counts.error ?? friendship.error ?? following.error ?? blocked.error} />
      {me === target && <p>{t("profile.yourself")}</p>}
      {enabled && (
        <div className="tt-social-actions">
          {following.data === true ? (
            <button
              type="button"
              className="tt-button tt-button--quiet"
              onClick={() => act.mutate(() => fans.unfollowDj({ id: target }))}
            >
              {t("profile.unfollow")}
            </button>
          ) : (
            <button
              type="button"
              className="tt-button"
              onClick={() => act.mutate(() => fans.followDj({ djId: target }))}
            >
              {t("profile.follow")}
            </button>
          )}
          {friendship.data?.friends ? (
            <>
              <p>{t("profile.friends")}</p>
              <button
                type="button"
                className="tt-button tt-button--quiet"
                onClick={() => act.mutate(() => friends.deleteFriend({ id: target }))}
              >
                {t("profile.unfriend")}
              </button>
            </>
          ) : pending && pending.toUserId === me ? (
            <>
              <p>{t("profile.pendingToMe")}</p>
              <button
                type="button"
                className="tt-button"
                onClick={() =>
                  act.mutate(() => friends.handleFriend({ invitationId: pending.id, invitationStatus: "accepted" }))
                }
              >
                {t("people.accept")}
              </button>
              <button
                type="button"
                className="tt-button tt-button--quiet"
                onClick={() =>
                  act.mutate(() => friends.handleFriend({ invitationId: pending.id, invitationStatus: "rejected" }))
                }
              >
                {t("people.reject")}
              </button>
            </>
          ) : pending ? (
            <p>{t("profile.pendingFromMe")}</p>
          ) : (
            <button
              type="button"
              className="tt-button"
              onClick={() => act.mutate(() => friends.sendFriendInvitation({ userId: target }))}
            >
              {t("profile.invite")}
            </button>
          )}
          {blocked.data ? (
            <>
              <p>{t("profile.blocked")}</p>
              <button
                type="button"
                className="tt-button tt-button--quiet"
                onClick={() => act.mutate(() => blocks.unblockUser({ id: target }))}
              >
                {t("profile.unblock")}
              </button>
            </>
          ) : (
            <button
              type="button"
              className="tt-button tt-button--quiet"
              onClick={() => act.mutate(() => blocks.blockUser({ blockedUserId: target }))}
            >
              {t("profile.block")}
            </button>
          )}
          <ErrorMessage error={act.error} />
          {act.isSuccess && <p role="status">{t("profile.done")}</p>}
        </div>
      )}
    </section>
  );
}
